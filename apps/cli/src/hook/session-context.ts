import { join } from 'node:path';
import {
  additionalContextOutput,
  settleBrain,
  staleBrainNote,
  type BrainAnswer,
  type CachedBrain,
  type HookPayload,
} from '@memex/claude-hooks';
import type { ContextPackView } from '@memex/mcp';
import { HttpFailure, type MemexHttp } from '../memex-http';
import { readJson, writeAtomically } from './atomic-file';
import { BrainStore } from './brain-store';
import type { HookConfig } from './hook-config';

const BRAIN_PREFACE = [
  'Project memory from Memex: what earlier sessions of this project established. The memex MCP tools search it and record new items.',
  "As you work, record with memex_remember a decision and why, a convention you were given, a bug's cause and fix, or work left open,",
  "with quotes of your own words or the person's (Memex checks them against this session).",
].join('\n');
const PACK_PREFACE = 'Memex memory relevant to this prompt:';
/** A pack that missed the budget once would likely miss it again: prompts skip it for a while. */
const PACK_PAUSE_MS = 10 * 60_000;

/** The prompt as the API accepts a query: at most 2,000 UTF-16 units, no NUL, no half of a surrogate pair. */
function asQuery(prompt: string): string {
  return prompt
    .slice(0, 2000)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .split('\u0000')
    .join(' ');
}

function pauseFile(stateDir: string): string {
  return join(stateDir, 'context-pack-paused.json');
}

export interface SessionContext {
  stdout?: string;
  problem?: string;
}

/** How the brain's request ended, for the rule that settles what to print. */
async function askForBrain(
  http: MemexHttp,
  config: HookConfig,
  cached: CachedBrain | undefined,
  remainingMs: number,
): Promise<BrainAnswer> {
  try {
    const got = await http.revalidate(`/api/v2/brain?tokenBudget=${config.brainTokens}`, {
      accept: 'text/markdown',
      timeoutMs: remainingMs,
      ...(cached ? { etag: cached.etag } : {}),
    });
    return got.notModified ? { kind: 'not-modified' } : { kind: 'sent', document: got.text, etag: got.etag };
  } catch (error) {
    if (!(error instanceof HttpFailure)) throw error;
    return {
      kind: 'failed',
      reason: error.kind,
      ...(error.status !== undefined ? { status: error.status } : {}),
      problem: error.message,
    };
  }
}

/**
 * SessionStart: the brain, within Claude Code's context cap. The brain printed last time is
 * kept on disk: the server is only asked whether it changed (a 304 carries no body), and
 * when the server is down or hung past the budget, the kept one is printed, said to be stale.
 */
async function brainContext(http: MemexHttp, config: HookConfig, remainingMs: () => number): Promise<SessionContext> {
  const { apiKey } = http.connection;
  const store = apiKey ? new BrainStore(config.stateDir, apiKey) : undefined;
  const cached = await store?.read(config.brainTokens);
  const answer = await askForBrain(http, config, cached, remainingMs());
  const settled = settleBrain(answer, cached, config.brainTokens, new Date());
  if (settled.save) await store?.write(settled.save);
  if (!settled.document) return settled.problem ? { problem: settled.problem } : {};
  const note = settled.staleSince ? `\n${staleBrainNote(settled.staleSince)}` : '';
  return {
    stdout: additionalContextOutput('SessionStart', `${BRAIN_PREFACE}${note}\n\n${settled.document}`),
    ...(settled.problem ? { problem: settled.problem } : {}),
  };
}

/** UserPromptSubmit: a small context pack for the prompt, unless it has been too slow lately. */
async function promptContext(
  prompt: string,
  sessionId: string | undefined,
  http: MemexHttp,
  config: HookConfig,
  remainingMs: number,
): Promise<SessionContext> {
  const paused = await readJson<{ until: number }>(pauseFile(config.stateDir));
  if (paused && paused.until > Date.now()) return {};
  try {
    const pack = await http.json<ContextPackView>('POST', '/api/v2/context-pack', {
      body: {
        query: asQuery(prompt),
        maxTokens: config.contextTokens,
        // The session's task stack leads the pack: the goal and the step the prompt belongs to.
        ...(sessionId ? { sessionId } : {}),
        filters: { includeRecent: false },
      },
      timeoutMs: remainingMs,
    });
    if (pack.components.length === 0) return {};
    return { stdout: additionalContextOutput('UserPromptSubmit', `${PACK_PREFACE}\n\n${pack.content}`) };
  } catch (error) {
    if (error instanceof HttpFailure && error.kind === 'timeout') {
      await writeAtomically(pauseFile(config.stateDir), JSON.stringify({ until: Date.now() + PACK_PAUSE_MS }));
      return { problem: 'the context pack missed the hook budget; prompts skip it for 10 minutes' };
    }
    throw error;
  }
}

/** What the hook prints for Claude: only SessionStart and UserPromptSubmit add context. */
export async function sessionContext(
  event: string,
  payload: HookPayload,
  http: MemexHttp,
  config: HookConfig,
  remainingMs: () => number,
): Promise<SessionContext> {
  try {
    if (event === 'SessionStart') return await brainContext(http, config, () => remainingMs() - 25);
    const prompt = payload.prompt?.trim();
    // Slash commands are instructions to Claude Code, not questions about the project.
    if (event === 'UserPromptSubmit' && config.contextTokens > 0 && prompt && !prompt.startsWith('/')) {
      return await promptContext(prompt, payload.session_id, http, config, remainingMs() - 25);
    }
    return {};
  } catch (error) {
    if (error instanceof HttpFailure) return { problem: error.message };
    throw error;
  }
}
