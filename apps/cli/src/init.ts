import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  SettingsShapeError,
  mergeClaudeSettings,
  mergeMcpConfig,
  withMemexEnv,
  withoutMemexHooks,
} from '@memex/claude-hooks';
import { parseFlags } from './args';
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

function merged<T>(path: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SettingsShapeError) throw new InitError(`${path}: ${error.message}; nothing was written`);
    throw error;
  }
}

/** The repository `dir` is in (its git top level), or `dir` itself outside git. */
function repositoryRoot(dir: string): string {
  try {
    return (
      execFileSync('git', ['rev-parse', '--show-toplevel'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || dir
    );
  } catch {
    return dir;
  }
}

/** Whether git ignores `path` in the repository at `root` (false outside git). */
function ignoredByGit(root: string, path: string): boolean | undefined {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: root, stdio: 'ignore' });
    return true;
  } catch (error) {
    // 1: not ignored; anything else (128: not a repository, git missing): nothing to say.
    return (error as { status?: number }).status === 1 ? false : undefined;
  }
}

/** Whether `key` opens a project on the Memex at `url`. */
async function keyWorks(url: string, key: string): Promise<boolean> {
  try {
    await new MemexHttp({ url, apiKey: key, source: 'settings.local.json' }).call('GET', '/api/v2/brain/summary', {
      timeoutMs: 3000,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * The key of this repository's own project: the one settings.local.json already holds while
 * it still works, else a new project named after the repository, made with the admin token
 * (MEMEX_ADMIN_TOKEN, or the one an embedded `npm start` keeps beside the local key). Without
 * a token the repository stays on the local project, and `out` says how to give it its own.
 */
async function projectKey(
  connection: Connection,
  name: string,
  linked: string | undefined,
  out: (line: string) => void,
): Promise<string | undefined> {
  if (linked && (await keyWorks(connection.url, linked))) {
    out(`This repository keeps its own project (${name}); its key is in .claude/settings.local.json.`);
    return linked;
  }
  const token = connection.adminToken ?? connection.localAdminToken;
  if (!token) {
    out(
      'No admin token, so no project of its own: the hooks use the local project until MEMEX_ADMIN_TOKEN is set ' +
        '(an embedded `npm start` keeps one for you) and `memex init --write` runs again.',
    );
    return undefined;
  }
  try {
    const body = await new MemexHttp(
      { url: connection.url, adminToken: token, source: 'admin token' },
      { caller: 'person' },
    ).call('POST', '/api/v2/projects', { body: { name }, timeoutMs: 5000 });
    const created = JSON.parse(body) as { projectId: string; apiKey: string };
    out(`Made project ${name} (${created.projectId}) for this repository; its key is in .claude/settings.local.json.`);
    return created.apiKey;
  } catch (error) {
    const reason = error instanceof HttpFailure ? error.message : String(error);
    out(`Could not make a project for this repository (${reason}): the hooks use the local project for now.`);
    return undefined;
  }
}

/**
 * `memex init [--write]`: Claude Code set up for Memex in this repository, with a project of
 * its own. What names this machine (the hooks' path to `memex`, the key, the server's
 * address) goes into `.claude/settings.local.json`, which is the person's and is not
 * committed; `.mcp.json`, which is, gets a server entry that is the same on every machine;
 * hooks an older init put into `.claude/settings.json` move out of it. Without --write it only
 * prints what it would write.
 */
export async function runInit(options: InitOptions): Promise<number> {
  const { out } = options;
  const root = repositoryRoot(resolve(options.dir));
  const name = basename(root);
  const settingsPath = join(root, '.claude', 'settings.json');
  const localPath = join(root, '.claude', 'settings.local.json');
  const mcpPath = join(root, '.mcp.json');
  try {
    const fromSettings = await readJsonFile(settingsPath);
    const fromLocal = await readJsonFile(localPath);
    const fromMcp = await readJsonFile(mcpPath);
    const linked = merged(localPath, () =>
      withMemexEnv(mergeClaudeSettings(fromLocal, options.bin).value, { MEMEX_BIN: options.bin }),
    );
    const given = (fromLocal as { env?: { MEMEX_API_KEY?: unknown } } | undefined)?.env?.MEMEX_API_KEY;
    const key = options.write
      ? await projectKey(options.connection, name, typeof given === 'string' ? given : undefined, out)
      : undefined;
    const local = withMemexEnv(linked, {
      MEMEX_BIN: options.bin,
      MEMEX_URL: options.connection.url,
      MEMEX_API_KEY: key,
    });
    const files = [
      { path: localPath, result: { value: local, changed: JSON.stringify(local) !== JSON.stringify(fromLocal ?? {}) } },
      { path: mcpPath, result: merged(mcpPath, () => mergeMcpConfig(fromMcp)) },
      ...(fromSettings === undefined
        ? []
        : [{ path: settingsPath, result: merged(settingsPath, () => withoutMemexHooks(fromSettings)) }]),
    ];
    for (const { path, result } of files) {
      const text = `${JSON.stringify(result.value, null, 2)}\n`;
      if (!options.write) {
        out(`# ${path}${result.changed ? '' : ' (already up to date)'}`);
        // A key is never printed: a dry run makes none, and a linked one stays in its file.
        out(text.replace(/"MEMEX_API_KEY": "[^"]*"/, '"MEMEX_API_KEY": "(this repository\'s key)"'));
      } else if (result.changed) {
        await mkdir(join(path, '..'), { recursive: true });
        await writeFile(path, text, path === localPath ? { mode: 0o600 } : {});
        out(`updated ${path}`);
      } else {
        out(`${path} is up to date`);
      }
    }
    if (options.write && ignoredByGit(root, localPath) === false) {
      await appendFile(
        join(root, '.gitignore'),
        '\n# Memex and Claude Code settings of this machine\n.claude/settings.local.json\n',
      );
      out(`added .claude/settings.local.json to ${join(root, '.gitignore')}: it holds this machine's paths and key`);
    }
    const movedOut = files.some((f) => f.path === settingsPath && f.result.changed);
    if (movedOut) {
      out(
        "An older `memex init` had put the hooks, with this machine's path, into .claude/settings.json, and every " +
          `repository fed the one local project: ${options.write ? 'they are moved' : 'they move'} into settings.local.json, ` +
          'and this repository gets its own project. Its earlier sessions stay in the local project; ' +
          '`memex import` sends them again with the new key.',
      );
    }
    if (!options.write) out('Run `memex init --write` here to write these (and make this repository its own project).');
    else out('Claude Code captures the sessions of this repository from its next start.');
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
  const values = parseFlags(args, { values: ['dir'], switches: ['write'] }, INIT_USAGE);
  return runInit({
    dir: values.dir ?? process.cwd(),
    write: values.write ?? false,
    bin: context.bin,
    connection: context.connection,
    out: context.out,
  });
}
