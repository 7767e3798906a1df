import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type DB } from '@memex/db';
import { MAX_QUERY_WORDS, queryWords } from '@memex/domain';
import type { Kysely } from 'kysely';
import { nearMisses, secretCorpus } from '../../libs/redaction/src/secret-corpus.fixture';
import { dumpDatabase, dumpRedis } from '../support/dump';
import { request } from '../support/http';
import { freePort, runEntry, waitForHttp, type RunningProcess } from '../support/processes';
import { ADMIN_TOKEN, TEST_REDIS_URL, purgeQueuePrefix } from '../support/test-app';
import { databaseUrl, dropDatabase, uniqueName } from '../support/test-database';
import { waitFor } from '../support/wait';
import { describeServerOnly } from '../support/mode';

/**
 * Secrets of every format in the corpus, sent as a coding session would carry them, through
 * the all-in-one process as `npm start` runs it: hook-shaped events (prompts, answers, tool
 * calls and results, [MEMORY: …] tags the local engine turns into items), memex_remember over
 * MCP, items written and edited by hand, searches and context packs asking for them. None
 * may be found afterwards in any column of any table, in Redis under the process's prefix,
 * in anything served, or in what the process logged (at debug level); the near-misses must
 * all still be there, verbatim.
 */
const corpus = secretCorpus();
const misses = nearMisses();
/** What must not survive: each secret, and its head and tail (a rule that stopped short leaves one). */
const forbidden = [
  ...new Set(
    corpus
      .flatMap((s) => s.secrets)
      .flatMap((secret) => (secret.length >= 24 ? [secret, secret.slice(0, 16), secret.slice(-16)] : [secret])),
  ),
];

const name = uniqueName('memex_test');
const prefix = uniqueName('memex_test');
const stateDir = mkdtempSync(join(tmpdir(), 'memex-secrets-'));
let port: number;
let url: string;
let memex: RunningProcess;
let db: Kysely<DB>;
let key: string;
/** Everything served: API answers, MCP answers, rendered brains. */
const served: string[] = [];

function start(): RunningProcess {
  return runEntry('apps/memex/src/main.js', {
    DATABASE_URL: databaseUrl(name),
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    PORT: String(port),
    MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    MEMEX_LOCAL_STATE_DIR: stateDir,
    ENRICHMENT_DEBOUNCE_MS: '200',
    EMBEDDING_POLL_MS: '200',
    LOG_LEVEL: 'debug',
  });
}

async function api<T = unknown>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await request<T>(`${url}${path}`, { key, ...init });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  served.push(JSON.stringify(res.body));
  return res.body;
}

/** Markdown as the assistant reads it: the brain escapes `_`, `*` and the like. */
function unescaped(markdown: string): string {
  return markdown.replace(/\\(?=[\\`*_{}[\]()#+\-.!|<>~])/g, '');
}

function textOf(result: unknown): string {
  return (result as CallToolResult).content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** The start of a text, within what a search takes: 500 characters and 32 words. */
function asSearch(text: string): string {
  let query = '';
  for (const token of text.matchAll(/\s*\S+/g)) {
    const next = query + token[0];
    if (next.length > 500 || queryWords(next).length > MAX_QUERY_WORDS) break;
    query = next;
  }
  return query;
}

function leaks(haystack: string): string[] {
  return forbidden.filter((secret) => haystack.includes(secret));
}

describeServerOnly('secrets sent through every way in', 'reads PostgreSQL and Redis beside the running process', () => {
  beforeAll(async () => {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    memex = start();
    await waitForHttp(`${url}/health/ready`, 30_000);
    await waitFor(() => {
      try {
        key = (JSON.parse(readFileSync(join(stateDir, 'local-project.json'), 'utf8')) as { apiKey: string }).apiKey;
        return true;
      } catch {
        return false;
      }
    });
    db = createDatabase({ url: databaseUrl(name), poolSize: 2 });
  }, 60_000);

  afterAll(async () => {
    memex?.child.kill('SIGKILL');
    await db?.destroy();
    await dropDatabase(name);
    await purgeQueuePrefix(prefix);
  });

  it('are stored, cached, served and logged only as placeholders, and near-misses stay verbatim', async () => {
    // A Claude Code session as the hooks send it.
    const events = corpus.flatMap((sample, i) => {
      const at = (n: number) => new Date(Date.UTC(2026, 10, 21, 9, i, n)).toISOString();
      return [
        {
          eventId: `s1:${i}:p`,
          type: 'prompt',
          timestamp: at(0),
          content: `We decided to keep the ${sample.format} here:\n${sample.text}`,
        },
        {
          eventId: `s1:${i}:c`,
          type: 'tool_call',
          timestamp: at(1),
          content: `Bash: cat config/${i}.txt`,
          metadata: {
            tool: 'Bash',
            input: { command: `printf '%s' '${sample.text.split('\n')[0]}' > config/${i}.txt` },
          },
        },
        {
          eventId: `s1:${i}:r`,
          type: 'tool_result',
          timestamp: at(2),
          content: sample.text,
          metadata: { tool: 'Bash', exitCode: 0 },
        },
        {
          eventId: `s1:${i}:a`,
          type: 'response',
          timestamp: at(3),
          content: `Stored it. [MEMORY: decision: Keep the ${sample.format} as ${sample.text.replaceAll(']', ')')}] Done.`,
        },
      ];
    });
    events.push(
      ...misses.map((miss, i) => ({
        eventId: `s1:miss:${i}`,
        type: 'response',
        timestamp: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
        content: `For the record, ${miss.name}:\n${miss.text}\n[MEMORY: implementation: ${miss.name} recorded as ${miss.text.replaceAll(']', ')').slice(0, 1500)}]`,
      })),
    );
    for (let i = 0; i < events.length; i += 50) {
      await api('/api/v2/events', {
        body: { sessionId: 'secret-session', branch: 'main', events: events.slice(i, i + 50) },
      });
    }
    await api('/api/v2/sessions/secret-session/complete', { method: 'POST', body: {} });
    await waitFor(async () => {
      const session = await db
        .selectFrom('sessions')
        .select(['enrichment_cursor', 'last_event_seq'])
        .where('external_id', '=', 'secret-session')
        .executeTakeFirst();
      return !!session && session.enrichment_cursor === session.last_event_seq;
    }, 60_000);

    // An assistant remembering, and a person writing and editing items, over MCP and the API.
    const mcp = new McpClient({ name: 'secrets-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    for (const sample of corpus.slice(0, 12)) {
      const remembered = await mcp.callTool({
        name: 'memex_remember',
        arguments: {
          type: 'Decision',
          title: `Remember the ${sample.format}`,
          facts: sample.text,
          // The assistant quotes the prompt, secret and all: it is looked for as it was stored.
          quotes: [`We decided to keep the ${sample.format} here:\n${sample.text}`.slice(0, 2000)],
        },
      });
      expect((remembered as CallToolResult).isError).toBeFalsy();
      served.push(textOf(remembered));
    }
    for (const sample of corpus.slice(12)) {
      const item = await api<{ itemId: string }>('/api/v2/memory-items', {
        body: {
          type: 'ImplementationFact',
          title: `The ${sample.format} in use`,
          facts: sample.text,
          evidence: [{ eventId: 'by-hand', quote: sample.text.slice(0, 200) }],
        },
      });
      await api(`/api/v2/memory-items/${item.itemId}`, {
        method: 'PATCH',
        body: { rationale: `Rotated: ${sample.text}`, reason: `it was ${sample.text.slice(0, 300)}` },
      });
    }

    const missItems: string[] = [];
    for (const miss of misses) {
      const item = await api<{ itemId: string }>('/api/v2/memory-items', {
        body: { type: 'ImplementationFact', title: `Not a secret: ${miss.name}`, facts: miss.text },
      });
      missItems.push(item.itemId);
    }

    // Asking for them back, every way there is.
    const items = await api<{ items: Array<{ itemId: string }> }>('/api/v2/memory-items?limit=200');
    expect(items.items.length).toBeGreaterThan(corpus.length);
    for (const item of items.items) await api(`/api/v2/memory-items/${item.itemId}`);
    served.push(unescaped((await api<{ document: string }>('/api/v2/brain?tokenBudget=100000')).document));
    served.push(unescaped((await api<{ document: string }>('/api/v2/brain')).document));
    served.push(unescaped((await api<{ document: string }>('/api/v2/brain/summary')).document));
    for (const sample of corpus) {
      // Asked the way a person pastes them (a search is at most 500 characters and 32 words).
      await api(`/api/v2/search?q=${encodeURIComponent(asSearch(sample.text))}`);
      await api('/api/v2/context-pack', { method: 'POST', body: { query: sample.text, maxTokens: 4000 } });
    }
    served.push(textOf(await mcp.callTool({ name: 'memex_get_memory', arguments: { tokenBudget: 100_000 } })));
    for (const query of ['decided keep', 'remember token key', 'private key password']) {
      served.push(textOf(await mcp.callTool({ name: 'memex_search', arguments: { query, limit: 50 } })));
      served.push(textOf(await mcp.callTool({ name: 'memex_context_pack', arguments: { query, maxTokens: 32_000 } })));
    }
    for (const item of items.items) {
      served.push(textOf(await mcp.callTool({ name: 'memex_get_item', arguments: { id: item.itemId } })));
    }
    for (const uri of ['memex://brain', 'memex://summary', 'memex://decisions']) {
      const { contents } = await mcp.readResource({ uri });
      served.push(unescaped(contents.map((c) => ('text' in c ? c.text : '')).join('\n')));
    }
    await mcp.close();

    // Nothing anywhere.
    const stored = await dumpDatabase(db);
    const cached = await dumpRedis(TEST_REDIS_URL, prefix);
    expect(cached).toContain(`${prefix}:brain:`);
    expect({
      tables: leaks(stored),
      redis: leaks(cached),
      served: leaks(served.join('\n')),
      logs: leaks(memex.stdout() + memex.stderr()),
    }).toEqual({ tables: [], redis: [], served: [], logs: [] });

    // Placeholders of every kind stand where the secrets were.
    for (const sample of corpus) expect(stored).toContain(`[REDACTED:${sample.kind}]`);
    // The session went through the local engine into items, placeholders and all.
    const fromSession = await db
      .selectFrom('memory_items')
      .select('title')
      .where('session_id', '!=', 'manual')
      .execute();
    expect(fromSession.some((i) => i.title.includes('[REDACTED:'))).toBe(true);

    // Every near-miss stands verbatim: in the events stored, and in the items written of it.
    for (const [i, miss] of misses.entries()) {
      const events = await sql<{
        content: string;
      }>`select content from raw_events where event_id = ${`s1:miss:${i}`}`.execute(db);
      expect(events.rows[0]!.content).toContain(miss.text);
      const { item } = await api<{ item: { facts: string } }>(`/api/v2/memory-items/${missItems[i]}`);
      expect(item.facts).toBe(miss.text);
    }
    // A search for a secret is logged by its route only.
    expect(memex.stdout()).toMatch(/"route":"\/api\/v2\/search"/);
    expect(memex.stdout()).not.toMatch(/"url":/);

    // Counted by rule, never by project: a scrape names no project.
    const metrics = (await request<string>(`${url}/metrics`, { key: ADMIN_TOKEN })).body;
    for (const kind of new Set(corpus.map((s) => s.kind))) {
      expect(metrics).toMatch(new RegExp(`^memex_redactions_total\\{rule="${kind}"\\} [1-9]`, 'm'));
    }
  }, 180_000);

  it('prints the local key once, when it is made, and where it is kept afterwards', async () => {
    expect(memex.stdout().split(key).length - 1).toBe(1);
    memex.child.kill('SIGTERM');
    await memex.exited;
    memex = start();
    await waitForHttp(`${url}/health/ready`, 30_000);
    await waitFor(() => memex.stdout().includes('local API key:'));
    expect(memex.stdout()).not.toContain(key);
    expect(memex.stdout()).toContain(
      `local API key:    kept in ${join(stateDir, 'local-project.json')} (private to you; not printed again)`,
    );
    const count = await sql<{ n: number }>`select count(*)::int as n from projects`.execute(db);
    expect(count.rows[0]!.n).toBe(1);
  }, 60_000);
});
