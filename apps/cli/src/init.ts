import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SettingsShapeError, mergeClaudeSettings, mergeMcpConfig, type Merged } from '@memex/claude-hooks';
import { parseCommand } from './args';
import { usageError } from './cli-error';
import type { CommandContext } from './command';
import type { Connection } from './connection';
import { HttpFailure, MemexHttp } from './memex-http';

export interface InitOptions {
  dir: string;
  write: boolean;
  bin: string;
  connection: Connection;
  out: (line: string) => void;
}

class InitError extends Error {}

async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    throw new InitError(`${path} is not valid JSON; fix it first, nothing was written`);
  }
}

function merged(path: string, run: () => Merged<Record<string, unknown>>): Merged<Record<string, unknown>> {
  try {
    return run();
  } catch (error) {
    if (error instanceof SettingsShapeError) throw new InitError(`${path}: ${error.message}; nothing was written`);
    throw error;
  }
}

/** Says whether the hooks will reach a Memex that knows the key. */
async function checkConnection(connection: Connection, out: (line: string) => void): Promise<void> {
  if (!connection.apiKey) {
    out(`No API key yet: hooks will spool events until MEMEX_API_KEY is set (or \`npm start\` has run).`);
    return;
  }
  try {
    await new MemexHttp(connection).call('GET', '/api/v2/brain/summary', { timeoutMs: 3000 });
    out(`Memex at ${connection.url} answers with the key from ${connection.source}.`);
  } catch (error) {
    const reason = error instanceof HttpFailure ? error.message : String(error);
    out(`Memex check failed: ${reason}. Hooks spool events until it answers.`);
  }
}

/**
 * `memex init [--write]`: the hooks for `.claude/settings.json` and the MCP server for
 * `.mcp.json` (where Claude Code reads project-scoped servers), merged into what is there.
 * Without --write it only prints the result.
 */
export async function runInit(options: InitOptions): Promise<number> {
  const { out } = options;
  const dir = resolve(options.dir);
  const settingsPath = join(dir, '.claude', 'settings.json');
  const mcpPath = join(dir, '.mcp.json');
  try {
    const fromSettings = await readJsonFile(settingsPath);
    const fromMcp = await readJsonFile(mcpPath);
    const nextSettings = merged(settingsPath, () => mergeClaudeSettings(fromSettings, options.bin));
    const nextMcp = merged(mcpPath, () => mergeMcpConfig(fromMcp, options.bin));
    const files = [
      { path: settingsPath, result: nextSettings },
      { path: mcpPath, result: nextMcp },
    ];
    for (const { path, result } of files) {
      const text = `${JSON.stringify(result.value, null, 2)}\n`;
      if (!options.write) {
        out(`# ${path}${result.changed ? '' : ' (already up to date)'}`);
        out(text);
      } else if (result.changed) {
        await mkdir(join(path, '..'), { recursive: true });
        await writeFile(path, text);
        out(`updated ${path}`);
      } else {
        out(`${path} is up to date`);
      }
    }
    if (!options.write) out('Run `memex init --write` here to merge these into the files above.');
    else out('Claude Code captures the sessions of this project from its next start.');
    await checkConnection(options.connection, out);
    return 0;
  } catch (error) {
    if (error instanceof InitError) {
      process.stderr.write(`memex init: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

export const INIT_USAGE = 'memex init [--write] [--dir <project>]';

export async function runInitCommand(args: string[], context: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    { write: { type: 'boolean' }, dir: { type: 'string' } },
    INIT_USAGE,
  );
  if (positionals.length) throw usageError(`unexpected ${positionals.join(' ')}`, INIT_USAGE);
  return runInit({
    dir: values.dir ?? process.cwd(),
    write: values.write ?? false,
    bin: context.bin,
    connection: context.connection,
    out: context.out,
  });
}
