import type { Connection } from '../connection';
import type { MemexHttp } from '../memex-http';
import { captureTranscript } from './capture';
import { currentSession, projectDir } from './current-session';
import { deliverSpool } from './deliver';
import type { HookConfig } from './hook-config';
import { Spool } from './spool';

/** A memory waits this long at most for its session's newest lines to reach Memex. */
const FLUSH_MS = 1500;

/**
 * Sends what the project's current session said since its last hook, the way a hook would:
 * an assistant quoting what it just wrote can then be checked against it. Best effort;
 * whatever does not go now waits in the spool for the next hook.
 */
export async function flushCurrentSession(connection: Connection, http: MemexHttp, config: HookConfig): Promise<void> {
  const deadline = Date.now() + FLUSH_MS;
  const current = await currentSession(config.stateDir, projectDir(process.env, process.cwd()));
  if (!current) return;
  const spool = new Spool(config.stateDir, connection);
  await captureTranscript('PostToolUse', { ...current }, spool, config.stateDir, config.redactionEnv);
  await deliverSpool(spool, http, () => deadline - Date.now());
}
