import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { fmt } from '../support/stats';
import { startAllInOne } from '../support/server-process';

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
async function slowModel(): Promise<{ url: string; sent: Sent[]; server: Server }> {
  const sent: Sent[] = [];
  const server = createServer((req, res) => {
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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, sent, server };
}

/**
 * Part D: what the model is paid for. Sessions send a batch, more a second later, and end with
 * the session-complete call shortly before the debounced job is due: the shape that made the
 * delayed and the completion job read the same window at once. Tokens sent ÷ tokens of each
 * distinct window sent once is the spend's overhead (goal ≤ 1.05).
 */
export async function modelSpend(): Promise<void> {
  const model = await slowModel();
  const server = await startAllInOne('spend', {
    ENRICHMENT_ENGINE: 'openai',
    LLM_BASE_URL: model.url,
    LLM_MODEL: 'bench-model',
    ENRICHMENT_CONCURRENCY: '4',
    ENRICHMENT_DEBOUNCE_MS: '2000',
  });
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
    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, s) => {
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
    // Every session caught up, no run holding one, and no call still on its way.
    const pg = new Client({ connectionString: server.databaseUrl });
    await pg.connect();
    try {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const { rows } = await pg.query<{ lagging: number }>(
          'select count(*)::int as lagging from sessions where enrichment_cursor < last_event_seq',
        );
        if (rows[0]!.lagging === 0) break;
        if (Date.now() > deadline) throw new Error('model spend: sessions did not catch up');
        await new Promise((r) => setTimeout(r, 250));
      }
      // A job still to come back (delayed, or raced) would call the model within this.
      await new Promise((r) => setTimeout(r, 2 * MODEL_MS + 3000));
    } finally {
      await pg.end();
    }
    const total = model.sent.reduce((sum, s) => sum + s.tokens, 0);
    const once = new Map(model.sent.map((s) => [s.window, s.tokens]));
    const distinct = [...once.values()].reduce((sum, t) => sum + t, 0);
    console.log(`bench:enrichment — part D: model spend, ${SESSIONS} sessions, a ${MODEL_MS} ms model (goal ≤ 1.05)`);
    console.log(
      `  ${fmt(model.sent.length)} model calls for ${fmt(once.size)} distinct windows; tokens sent ${fmt(total)} ÷ each window once ${fmt(distinct)} = ${(total / distinct).toFixed(3)}`,
    );
  } finally {
    await server.stop();
    model.server.close();
  }
}
