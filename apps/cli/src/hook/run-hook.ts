import { parseHookPayload, type HookEvent } from '@memex/claude-hooks';
import type { Connection } from '../connection';
import { MemexHttp } from '../memex-http';
import { captureTranscript } from './capture';
import { noteCurrentSession, projectDir } from './current-session';
import { deliverSpool } from './deliver';
import { trackWork } from './session-work';
import type { HookConfig } from './hook-config';
import { sessionContext } from './session-context';
import { Spool } from './spool';

export interface HookResult {
  /** For Claude Code (JSON with additionalContext), when the event adds context. */
  stdout?: string;
  /** At most one line, for the person: what went wrong and where the events wait. */
  stderr?: string;
}

/**
 * One hook call: capture the transcript's new lines into the spool, then, side by side,
 * deliver the spool and fetch the context to print. Everything is bounded by `deadline`
 * (epoch ms); whatever does not fit waits in the spool for the next call.
 */
export async function runHook(
  event: HookEvent,
  input: string,
  connection: Connection,
  config: HookConfig,
  deadline: number,
): Promise<HookResult> {
  const parsed = parseHookPayload(input);
  if ('problem' in parsed) return { stderr: `memex hook ${event}: ${parsed.problem}; nothing recorded` };
  const { payload } = parsed;
  const remaining = () => deadline - Date.now();
  const spool = new Spool(config.stateDir, connection);
  const http = new MemexHttp(connection);

  const captured = await captureTranscript(event, payload, spool, config.stateDir, config.redactionEnv);
  await noteCurrentSession(config.stateDir, projectDir(process.env, payload.cwd ?? process.cwd()), payload);
  const reflection = await trackWork(config.stateDir, event, payload, captured.events, config.reflect);
  const [delivery, context] = await Promise.all([
    deliverSpool(spool, http, remaining),
    sessionContext(event, payload, http, config, remaining),
  ]);

  const problems: string[] = [];
  if (delivery.problem) {
    problems.push(
      delivery.kept
        ? `${delivery.problem}; ${delivery.kept} request(s) kept in ${spool.path} for a later hook`
        : delivery.problem,
    );
  }
  if (context.problem && context.problem !== delivery.problem) problems.push(context.problem);
  if (captured.redactionProblem) problems.push(captured.redactionProblem);
  if (captured.dropped) problems.push(`${captured.dropped} transcript event(s) ingest would refuse were skipped`);
  const stdout = reflection ?? context.stdout;
  return {
    ...(stdout ? { stdout } : {}),
    ...(problems.length ? { stderr: `memex hook ${event}: ${problems.join('; ')}` } : {}),
  };
}
