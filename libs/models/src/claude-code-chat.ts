import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { Config } from '@memex/config';
import { ChatUnavailableError, type ChatAnswer, type ChatMessage, type ChatPort } from '@memex/enrichment';

/** What `claude -p --output-format json` prints when it is done. */
interface ClaudeResult {
  type?: string;
  subtype?: string;
  is_error?: boolean;
  result?: string;
  total_cost_usd?: number;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_creation_input_tokens?: number;
    cache_read_input_tokens?: number;
  };
}

/** Output beyond this is not an answer to a window; the run is stopped. */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * The `claude` command in headless mode, with the user's own Claude Code sign-in: no
 * endpoint or key to configure. One run per request: the prompt on stdin, JSON out, no tools,
 * one turn, the extraction prompt instead of Claude Code's agent prompt (fewer tokens), no MCP
 * servers, started in an empty directory so no project's settings apply, and Memex's own hooks
 * told to stand aside (this run must not be captured as a session).
 */
export class ClaudeCodeChat implements ChatPort {
  readonly engine = 'claude-code' as const;
  readonly model: string;

  constructor(
    private readonly config: Pick<Config, 'CLAUDE_CODE_COMMAND' | 'CLAUDE_CODE_MODEL' | 'CLAUDE_CODE_TIMEOUT_MS'>,
  ) {
    this.model = config.CLAUDE_CODE_MODEL;
  }

  args(system: string): string[] {
    return [
      '-p',
      '--output-format',
      'json',
      '--model',
      this.model,
      '--max-turns',
      '1',
      '--tools',
      '',
      '--strict-mcp-config',
      '--system-prompt',
      system,
    ];
  }

  async complete(messages: ChatMessage[]): Promise<ChatAnswer> {
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n');
    // A repair round is one prompt holding the conversation so far: each run is a fresh session.
    const prompt = messages
      .filter((m) => m.role !== 'system')
      .map((m) => (m.role === 'assistant' ? `Your previous answer was:\n${m.content}` : m.content))
      .join('\n\n');
    const out = await this.run(this.args(system), prompt);
    let result: ClaudeResult;
    try {
      result = JSON.parse(out) as ClaudeResult;
    } catch {
      throw new ChatUnavailableError(`${this.config.CLAUDE_CODE_COMMAND} printed no JSON result`);
    }
    const usage = {
      promptTokens:
        (result.usage?.input_tokens ?? 0) +
        (result.usage?.cache_creation_input_tokens ?? 0) +
        (result.usage?.cache_read_input_tokens ?? 0),
      completionTokens: result.usage?.output_tokens ?? 0,
    };
    const spent = {
      ...usage,
      totalTokens: usage.promptTokens + usage.completionTokens,
      ...(typeof result.total_cost_usd === 'number' ? { costUsd: result.total_cost_usd } : {}),
    };
    if (result.is_error || (result.subtype !== undefined && result.subtype !== 'success')) {
      throw new ChatUnavailableError(
        `${this.config.CLAUDE_CODE_COMMAND} reported ${result.subtype ?? 'an error'}: ${String(result.result ?? '').slice(0, 200)}`,
        spent,
      );
    }
    return { content: result.result ?? '', usage: spent };
  }

  private run(args: string[], stdin: string): Promise<string> {
    const command = this.config.CLAUDE_CODE_COMMAND;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        cwd: tmpdir(),
        env: { ...process.env, MEMEX_HOOKS: 'off', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let settled = false;
      const fail = (message: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new ChatUnavailableError(message));
      };
      const timer = setTimeout(
        () => fail(`${command} did not answer within ${this.config.CLAUDE_CODE_TIMEOUT_MS} ms`),
        this.config.CLAUDE_CODE_TIMEOUT_MS,
      );
      child.on('error', (error: NodeJS.ErrnoException) =>
        fail(
          error.code === 'ENOENT'
            ? `${command} was not found: install Claude Code, or set CLAUDE_CODE_COMMAND, or ENRICHMENT_ENGINE=local`
            : `${command} could not start: ${error.message}`,
        ),
      );
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.length > MAX_OUTPUT_BYTES) fail(`${command} printed more than ${MAX_OUTPUT_BYTES} bytes`);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-2000);
      });
      child.on('close', (code) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (code === 0 || (code !== null && stdout.trim().startsWith('{'))) resolve(stdout);
        else
          reject(
            new ChatUnavailableError(`${command} exited ${code}: ${stderr.trim().slice(0, 300) || '(no output)'}`),
          );
      });
      // A command that never reads its stdin must not take the worker down with EPIPE.
      child.stdin.on('error', () => undefined);
      child.stdin.end(stdin);
    });
  }
}
