import { isHookEvent } from '@memex/claude-hooks';
import { resolveConnection } from './connection';
import { hookConfig } from './hook/hook-config';
import { runHook } from './hook/run-hook';

export interface CliContext {
  /** The checkout the CLI runs from (its `.memex` holds the local project). */
  repoRoot: string;
  /** This CLI's executable, written into the hook and MCP commands. */
  bin: string;
}

/** Reads stdin to its end, or what came before the deadline. */
function readStdin(timeoutMs: number): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    let data = '';
    const done = () => {
      clearTimeout(timer);
      resolve(data);
    };
    const timer = setTimeout(done, Math.max(0, timeoutMs));
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (data += chunk));
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

/**
 * `memex hook <event>`: never fails the assistant. Whatever happens it exits 0, and a hard
 * stop at the budget's end bounds it even if something hangs; what it had read is already
 * in the spool by then.
 */
async function hook(event: string | undefined, context: CliContext): Promise<number> {
  // A session Memex itself runs (the claude-code engine) must not be captured as one of the project's.
  if (process.env.MEMEX_HOOKS === 'off') return 0;
  const config = hookConfig(process.env);
  const deadline = performance.timeOrigin + config.budgetMs;
  // The budget is at most 1.8 s, so this is never later than bin/memex's own stop at 1.95 s.
  setTimeout(() => process.exit(0), Math.max(0, deadline + 150 - Date.now())).unref();
  try {
    if (!event || !isHookEvent(event)) {
      process.stderr.write(`memex hook: unknown event ${JSON.stringify(event ?? '')}; nothing recorded\n`);
      return 0;
    }
    const input = await readStdin(deadline - Date.now() - 100);
    const result = await runHook(event, input, resolveConnection(process.env, context.repoRoot), config, deadline);
    if (result.stdout) process.stdout.write(`${result.stdout}\n`);
    if (result.stderr) process.stderr.write(`${result.stderr.replace(/\s+/g, ' ')}\n`);
  } catch (error) {
    process.stderr.write(
      `memex hook ${event}: ${(error as Error)?.message ?? String(error)}\n`.replace(/\n(?!$)/g, ' '),
    );
  } finally {
    process.stdin.destroy();
  }
  return 0;
}

export const COMMANDS_USAGE = `  init [--write] [--dir <project>]
        print (or, with --write, merge into .claude/settings.json and .mcp.json) the
        Claude Code hooks and MCP server for a project
  hook <SessionStart|UserPromptSubmit|PostToolUse|PreCompact|Stop|SessionEnd>
        a Claude Code hook: payload on stdin (installed by init)
  mcp   the MCP server on stdio (installed by init)
  status [--json]
        the server, the project's sessions and items, the last enrichment, model spend today
  doctor [--json]
        ask the configured enrichment engine one tiny question (its environment, as the
        worker's): the model, the output mode it takes, the latency`;

/** The commands that need the TypeScript libraries; bin/memex hands them over. Resolves to an exit code. */
export async function main(argv: string[], context: CliContext): Promise<number | undefined> {
  const [command, ...rest] = argv;
  if (command === 'hook') return hook(rest[0], context);
  const connection = resolveConnection(process.env, context.repoRoot);
  if (command === 'mcp') {
    // Loaded only here: the MCP SDK would add a third to every hook's start-up.
    const { serveMcpOnStdio } = await import('./mcp-stdio');
    await serveMcpOnStdio(connection);
    // The transport keeps the process alive until the client closes stdin.
    return undefined;
  }
  if (command === 'init') {
    const write = rest.includes('--write');
    const dirAt = rest.indexOf('--dir');
    const dir = dirAt >= 0 ? rest[dirAt + 1] : process.cwd();
    if (!dir) {
      process.stderr.write('memex init: --dir needs a value\n');
      return 2;
    }
    const { runInit } = await import('./init');
    return runInit({ dir, write, bin: context.bin, connection, out: (line) => process.stdout.write(`${line}\n`) });
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (command === 'status') {
    const { runStatus } = await import('./status');
    return runStatus(connection, rest.includes('--json'), out);
  }
  if (command === 'doctor') {
    // Loaded only here: the model clients are for the doctor, never for a hook.
    const { runDoctor } = await import('./doctor');
    return runDoctor(rest.includes('--json'), out);
  }
  process.stderr.write(`memex: unknown command ${command}\n${COMMANDS_USAGE}\n`);
  return 2;
}
