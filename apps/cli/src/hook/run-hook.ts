import { completesSession, parseHookPayload, type HookEvent, type HookPayload } from '@memex/claude-hooks';
import type { Connection } from '../connection';
import { MemexHttp } from '../memex-http';
import {
  claimSession,
  claimedInBackground,
  handOffToBackground,
  keepBackgroundProblem,
  releaseSession,
  takeBackgroundProblem,
  type HandOff,
} from './background';
import { captureTranscript } from './capture';
import { noteCurrentSession, projectDir } from './current-session';
import { deliverSpool, type Delivery } from './deliver';
import { trackWork } from './session-work';
import type { HookConfig } from './hook-config';
import { sessionContext, type SessionContext } from './session-context';
import { Spool } from './spool';
import { hasUnread, loadCursor } from './transcript-cursor';

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
 *
 * SessionStart only prints the brain: the person waits for it before the session opens, and a
 * resumed session can hold hundreds of lines no hook has read yet. What it finds to read or
 * send, it hands to a process of its own (`handOff`), which runs this same hook with
 * `config.inBackground` set and prints nothing.
 */
export async function runHook(
  event: HookEvent,
  input: string,
  connection: Connection,
  config: HookConfig,
  deadline: number,
  handOff: HandOff = handOffToBackground,
): Promise<HookResult> {
  const parsed = parseHookPayload(input);
  if ('problem' in parsed) return { stderr: `memex hook ${event}: ${parsed.problem}; nothing recorded` };
  const { payload } = parsed;
  const remaining = () => deadline - Date.now();
  const spool = new Spool(config.stateDir, connection);
  const http = new MemexHttp(connection);
  const printsContext = !config.inBackground;
  // What went wrong in a background run reaches the person through the next hook that prints.
  const earlier = printsContext ? takeBackgroundProblem(config.stateDir) : Promise.resolve(undefined);

  if (event === 'SessionStart' && printsContext) {
    const [context, work, , before] = await Promise.all([
      sessionContext(event, payload, http, config, remaining),
      // Neither may cost the session its brain: what they miss waits for the next hook.
      hasWork(payload, spool, config.stateDir).catch(() => false),
      noteCurrentSession(config.stateDir, projectDir(process.env, payload.cwd ?? process.cwd()), payload).catch(
        () => undefined,
      ),
      earlier,
    ]);
    // Once the brain is in: a process starting beside the request would take the cores it needs.
    // The session is claimed first, so a hook that follows at once finds the claim.
    if (work) {
      await claimSession(config.stateDir, payload.session_id);
      if (!(await handOff(event, input))) await releaseSession(config.stateDir, payload.session_id);
    }
    return answer(event, context.stdout, [context.problem, before]);
  }

  try {
    return await capturingHook(event, payload, spool, http, config, remaining, earlier);
  } finally {
    if (!printsContext) await releaseSession(config.stateDir, payload.session_id);
  }
}

/** A hook that reads the transcript's new lines into the spool, sends it, and prints what its event adds. */
async function capturingHook(
  event: HookEvent,
  payload: HookPayload,
  spool: Spool,
  http: MemexHttp,
  config: HookConfig,
  remaining: () => number,
  earlier: Promise<string | undefined>,
): Promise<HookResult> {
  const printsContext = !config.inBackground;
  // A prompt or tool hook while a background process reads the session leaves the lines and
  // the spool to it; one that ends a turn or the session reads and sends all the same, since
  // no hook may follow it.
  const deferred =
    printsContext && !completesSession(event) && (await claimedInBackground(config.stateDir, payload.session_id));
  const captured = deferred
    ? { events: [], dropped: 0 }
    : await captureTranscript(event, payload, spool, config.stateDir, config.redactionEnv);
  await noteCurrentSession(config.stateDir, projectDir(process.env, payload.cwd ?? process.cwd()), payload);
  const reflection = await trackWork(config.stateDir, event, payload, captured.events, config.reflect);
  const [delivery, context] = await Promise.all([
    deferred ? Promise.resolve<Delivery>({ sent: 0, kept: 0, rejected: 0 }) : deliverSpool(spool, http, remaining),
    printsContext ? sessionContext(event, payload, http, config, remaining) : Promise.resolve<SessionContext>({}),
  ]);
  const problems: Array<string | undefined> = [
    delivery.problem &&
      (delivery.kept
        ? `${delivery.problem}; ${delivery.kept} request(s) kept in ${spool.path} for a later hook`
        : delivery.problem),
    context.problem !== delivery.problem ? context.problem : undefined,
    captured.redactionProblem,
    captured.dropped ? `${captured.dropped} transcript event(s) ingest would refuse were skipped` : undefined,
  ];
  if (!printsContext) {
    // Only what the next hook will not meet again itself: a request set aside, the redaction
    // settings, events ingest refuses. A server that is away, it will find away too.
    const lasting = [
      delivery.rejected ? delivery.problem : undefined,
      captured.redactionProblem,
      captured.dropped ? `${captured.dropped} transcript event(s) ingest would refuse were skipped` : undefined,
    ].filter(Boolean);
    if (lasting.length) await keepBackgroundProblem(config.stateDir, lasting.join('; '));
    return {};
  }
  return answer(event, reflection ?? context.stdout, [...problems, await earlier]);
}

/** What the hook prints: context for Claude, and at most one line of problems for the person. */
function answer(event: HookEvent, stdout: string | undefined, problems: Array<string | undefined>): HookResult {
  const said = problems.filter((p): p is string => Boolean(p));
  return {
    ...(stdout ? { stdout } : {}),
    ...(said.length ? { stderr: `memex hook ${event}: ${said.join('; ')}` } : {}),
  };
}

/** Transcript lines no hook has read, or requests waiting in the spool. */
async function hasWork(payload: HookPayload, spool: Spool, stateDir: string): Promise<boolean> {
  if (payload.transcript_path) {
    if (await hasUnread(await loadCursor(stateDir, payload.session_id, payload.transcript_path))) return true;
  }
  return (await spool.pending()).length > 0;
}
