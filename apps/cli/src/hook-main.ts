import { isHookEvent } from '@memex/claude-hooks';
import { resolveConnection } from './connection';
import { takeBackgroundInput } from './hook/background';
import { hookConfig } from './hook/hook-config';
import { readStdin } from './hook/read-input';
import { runHook } from './hook/run-hook';

/**
 * `memex hook <event>`'s own entry, which bin/memex loads instead of main.js: Claude Code
 * starts a new process for every hook and waits for it, so this loads only what a hook
 * needs; the rest (transcript events, redaction) loads once there is a transcript to read.
 */

/**
 * Never fails the assistant. Whatever happens it exits 0, and a hard stop at the budget's end
 * bounds it even if something hangs; what it had read is already in the spool by then.
 */
export async function hook(event: string | undefined, repoRoot: string): Promise<number> {
  // A session Memex itself runs (the claude-code engine) must not be captured as one of the project's.
  if (process.env.MEMEX_HOOKS === 'off') return 0;
  // The payload a SessionStart handed over, when this process is the one it started.
  const handed = takeBackgroundInput(process.env, event);
  const config = { ...hookConfig(process.env), inBackground: handed !== undefined };
  const deadline = performance.timeOrigin + config.budgetMs;
  // The budget is at most 1.8 s, so this is never later than bin/memex's own stop at 1.95 s.
  setTimeout(() => process.exit(0), Math.max(0, deadline + 150 - Date.now())).unref();
  try {
    if (!event || !isHookEvent(event)) {
      process.stderr.write(`memex hook: unknown event ${JSON.stringify(event ?? '')}; nothing recorded\n`);
      return 0;
    }
    const input = handed ?? (await readStdin(deadline - Date.now() - 100));
    const result = await runHook(event, input, resolveConnection(process.env, repoRoot), config, deadline);
    if (result.stdout) process.stdout.write(`${result.stdout}\n`);
    if (result.stderr) process.stderr.write(`${result.stderr.replace(/\s+/g, ' ')}\n`);
  } catch (error) {
    process.stderr.write(
      `memex hook ${event}: ${(error as Error)?.message ?? String(error)}\n`.replace(/\n(?!$)/g, ' '),
    );
  }
  return 0;
}

/** bin/memex's entry for `memex hook <event>`: exits 0 once stdout is flushed. */
export function run(argv: string[], context: { repoRoot: string }): void {
  void hook(argv[1], context.repoRoot).then((code) => process.stdout.write('', () => process.exit(code)));
}
