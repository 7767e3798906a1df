import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../cli-error';
import type { CommandContext } from '../command';

export const MOVE_USAGE = 'memex move --to postgres://user:password@host:5432/memex';

/**
 * `memex move --to <url>`: runs the checkout's move job (apps/migrate/src/move.ts, built by
 * `npm start` or `npm run build`), which needs the database libraries this CLI does not carry.
 */
export async function runMove(args: string[], context: CommandContext): Promise<number> {
  const entry = join(context.repoRoot, 'dist', 'apps', 'migrate', 'src', 'move.js');
  if (!existsSync(entry)) {
    throw new CliError(`the move job is not built (no ${entry}); run \`npm run build\` in ${context.repoRoot}`, 1);
  }
  const child = spawn(process.execPath, [entry, ...args], { stdio: 'inherit', cwd: context.repoRoot });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}
