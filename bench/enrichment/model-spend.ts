import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pollDatabase } from '../support/poll-database';
import { fmt } from '../support/stats';
import { freePort, spawnApp, startAllInOne, startApp, type BenchServer } from '../support/server-process';

const SESSIONS = Number(process.env.BENCH_SPEND_SESSIONS ?? 40);
const MODEL_MS = 1000;

interface Sent {
  window: string;
  tokens: number;
}

/**
 * An OpenAI-compatible endpoint that takes a second to answer, finds nothing, and reports a
 * window's prompt as about a token per four characters. It records what each call was sent.
 */
async function slowModel(): Promise<{ url: string; sent: Sent[]; pending(): number; server: Server }> {
  const sent: Sent[] = [];
  let pending = 0;
  const server = createServer((req, res) => {
    pending += 1;
    res.on('close', () => (pending -= 1));
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; messages: Array<{ role: string; content: string }> };
      // The user message holds the window's events; the system prompt is the same for all.
      const window = body.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
      const tokens = Math.ceil(raw.length / 4);
      sent.push({ window: createHash('sha256').update(window).digest('hex'), tokens });
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${sent.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: '{"items":[]}' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: tokens, completion_tokens: 5, total_tokens: tokens + 5 },
          }),
        );
      }, MODEL_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    sent,
    pending: () => pending,
    server,
  };
}

/** How the worker runs in a part D run: inside the all-in-one process, or alone and killed mid-run. */
type SpendRun = 'clean' | 'kills';

const ENV = (modelUrl: string) => ({
  ENRICHMENT_ENGINE: 'openai',
  LLM_BASE_URL: modelUrl,
  LLM_MODEL: 'bench-model',
  ENRICHMENT_CONCURRENCY: '4',
  ENRICHMENT_DEBOUNCE_MS: '2000',
});

/** A worker process beside `server` (its database and queue prefix), ready when it answers. */
async function startWorker(server: BenchServer, env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const worker = spawnApp(
    'dist/apps/enrichment-worker/src/main.js',
    { name: server.queuePrefix, databaseUrl: server.databaseUrl },
    port,
    env,
    'ignore',
  );
  for (let i = 0; i < 300; i += 1) {
    if ((await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.ok) return worker;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('model spend: the worker did not start');
}

/**
 * Part D: what the model is paid for. Sessions send a batch, more a second later, and end with
 * the session-complete call shortly before the debounced job is due: the shape that made the
 * delayed and the completion job read the same window at once. Tokens sent ÷ tokens of each
 * distinct window sent once is the spend's overhead (goal ≤ 1.05 in a clean run). With kills,
 * the worker runs as its own process and is killed (SIGKILL) while its model calls are in
 * flight, then started again: a call whose answer died with the process is paid twice, and
 * nothing else should be (goal ≤ 1.1). It runs three times the sessions: two kills among 120
 * windows (about 35 s of calls), more often than the fault runs (one a minute).
 */
export async function modelSpend(run: SpendRun): Promise<void> {
  const model = await slowModel();
  const env = ENV(model.url);
  const server =
    run === 'clean' ? await startAllInOne('spend', env) : await startApp('spend', 'ingest-api', undefined, env);
  let worker = run === 'kills' ? await startWorker(server, env) : undefined;
  let kills = 0;
  let inFlightAtKills = 0;
  const sessionCount = run === 'clean' ? SESSIONS : 3 * SESSIONS;
  const post = async (path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}`);
  };
  const event = (s: number, n: number, type: 'prompt' | 'response', content: string) => ({
    eventId: `spend-${s}-${n}`,
    type,
    timestamp: new Date().toISOString(),
    content,
  });
  try {
    const sessions = Promise.all(
      Array.from({ length: sessionCount }, async (_, s) => {
        const sessionId = `spend-${s}`;
        await post('/api/v2/events', {
          sessionId,
          events: [event(s, 1, 'prompt', `Why does import ${s} fail on empty rows?`)],
        });
        await new Promise((r) => setTimeout(r, 1000));
        await post('/api/v2/events', {
          sessionId,
          events: [event(s, 2, 'response', `The importer ${s} skipped the header check; it now validates rows first.`)],
        });
        await new Promise((r) => setTimeout(r, 1500));
        await post(`/api/v2/sessions/${sessionId}/complete`);
      }),
    );
    if (worker) {
      // Killed twice, each time half a second into a model call, then started again.
      for (let k = 0; k < 2; k += 1) {
        await waitUntil(() => model.pending() > 0);
        await new Promise((r) => setTimeout(r, MODEL_MS / 2));
        inFlightAtKills += model.pending();
        worker.kill('SIGKILL');
        kills += 1;
        worker = await startWorker(server, env);
      }
    }
    await sessions;
    // Every session caught up, no run holding one, and no call still on its way.
    await pollDatabase<{ lagging: number }>(
      server.databaseUrl,
      {
        query: 'select count(*)::int as lagging from sessions where enrichment_cursor < last_event_seq',
        deadline: { ms: 180_000, message: 'model spend: sessions did not catch up' },
      },
      (row) => row!.lagging === 0,
    );
    // A job still to come back (delayed, or raced) would call the model within this.
    await new Promise((r) => setTimeout(r, 2 * MODEL_MS + 3000));
    const total = model.sent.reduce((sum, s) => sum + s.tokens, 0);
    const once = new Map(model.sent.map((s) => [s.window, s.tokens]));
    const distinct = [...once.values()].reduce((sum, t) => sum + t, 0);
    const shape =
      run === 'clean'
        ? 'all-in-one, no fault (goal ≤ 1.05)'
        : `worker alone, killed ${kills} times with calls in flight (goal ≤ 1.1)`;
    console.log(`bench:enrichment — part D: model spend, ${sessionCount} sessions, a ${MODEL_MS} ms model, ${shape}`);
    console.log(
      `  ${fmt(model.sent.length)} model calls for ${fmt(once.size)} distinct windows; tokens sent ${fmt(total)} ÷ each window once ${fmt(distinct)} = ${(total / distinct).toFixed(3)}`,
    );
    if (run === 'kills') {
      // A call out when its process dies is paid again by whoever takes the window next; any other repeat is waste.
      const repeats = model.sent.length - once.size;
      console.log(
        `  ${fmt(inFlightAtKills)} calls were out when the worker was killed; windows sent again: ${fmt(repeats)}, ` +
          `${fmt(Math.max(0, repeats - inFlightAtKills))} beyond those`,
      );
    }
  } finally {
    worker?.kill('SIGTERM');
    await server.stop();
    model.server.close();
  }
}

async function waitUntil(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('model spend: no model call came');
    await new Promise((r) => setTimeout(r, 25));
  }
}
