import { isHookEvent } from '@memex/claude-hooks';
import { resolveConnection } from './connection';
import { hookConfig } from './hook/hook-config';
import { runHook } from './hook/run-hook';

/**
 * `memex hook <event>`'s own entry, which bin/memex loads instead of main.js: Claude Code
 * starts a new process for every hook and waits for it, so this loads only what a hook
 * needs; the rest (transcript events, redaction) loads once there is a transcript to read.
 */

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
 * Never fails the assistant. Whatever happens it exits 0, and a hard stop at the budget's end
 * bounds it even if something hangs; what it had read is already in the spool by then.
 */
export async function hook(event: string | undefined, repoRoot: string): Promise<number> {
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
    const result = await runHook(event, input, resolveConnection(process.env, repoRoot), config, deadline);
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

/** bin/memex's entry for `memex hook <event>`: exits 0 once stdout is flushed. */
export function run(argv: string[], context: { repoRoot: string }): void {
  void hook(argv[1], context.repoRoot).then((code) => process.stdout.write('', () => process.exit(code)));
}
