import { EnrichmentModule } from '@memex/feature-enrichment';
import { ItemsModule } from '@memex/feature-items';
import { SearchModule } from '@memex/feature-search';
import { EmbeddingRepository, ProjectRepository } from '@memex/db';
import { EMBEDDER } from '@memex/retrieval';
import { request, type ErrorBody } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';
import { useSearchFixture, type SearchBody } from './search-fixture';

const ctx = useTestApp([SearchModule, ItemsModule, EnrichmentModule], { env: { EMBEDDING_POLL_MS: '200' } });
const { url, key, create, indexed, indexedItems, search, ids } = useSearchFixture(ctx);

describe('GET /api/v2/search', () => {
  it('full text ranks by words, with a highlighted snippet', async () => {
    const body = await search('q=webhook%20retries&mode=fulltext');
    expect(body.results[0]!.itemId).toBe(ids.webhook);
    expect(body.results[0]!.ranks).toEqual({ fullText: 1, vector: null });
    expect(body.results[0]!.snippet).toMatch(/<mark>retries<\/mark>/);
  });

  it('finds an identifier by its parts, in full text and in vectors', async () => {
    for (const mode of ['fulltext', 'vector'] as const) {
      const body = await search(`q=retry%20webhook%20sender%20delivery%20helper&mode=${mode}`);
      expect({ mode, found: body.results.map((r) => r.itemId) }).toEqual({
        mode,
        found: expect.arrayContaining([ids.camel]),
      });
    }
  });

  it('finds a dotted name by one part, and a path by a folder', async () => {
    const [id] = await indexedItems({
      type: 'BugFix',
      title: 'Telemetry blocked the exit',
      facts:
        'posthog.NewWithConfig() now gets a 100ms ShutdownTimeout; see .claude/skills/golang/SKILL.md and cached_data.',
    });
    for (const q of ['posthog', 'skills golang', 'shutdown timeout', 'cached']) {
      const body = await search(`q=${encodeURIComponent(q)}&mode=fulltext`);
      expect({ q, found: body.results.map((r) => r.itemId) }).toEqual({ q, found: [id] });
    }
  });

  it('finds nothing for a query about nothing it holds', async () => {
    for (const q of ['zzzqqq', 'best banana bread recipe', 'what is the capital of Mongolia']) {
      const body = await search(`q=${encodeURIComponent(q)}`);
      expect({ q, results: body.results }).toEqual({ q, results: [] });
    }
  });

  it('takes no contraction or auxiliary "do" for a match (real nonsense queries of bench:retrieval)', async () => {
    const [gc] = await indexedItems({
      type: 'Decision',
      title: 'Auto-GC stays off in the worktree',
      facts: "Disabling auto-GC won't lose any data, but it will cause disk bloat. Ok let's do it and create a PR.",
    });
    for (const q of ['who won the 1998 football world cup', 'when do tulips bloom in Holland']) {
      const body = await search(`q=${encodeURIComponent(q)}`);
      expect({ q, results: body.results }).toEqual({ q, results: [] });
    }
    expect((await search('q=disk%20bloat')).results.map((r) => r.itemId)).toContain(gc);
  });

  it('weighs a word by how many items hold it now, not when it was last searched', async () => {
    const [zebra] = await indexedItems(
      {
        type: 'ImplementationFact',
        title: 'Zebracorn parser',
        facts: 'The zebracorn parser reads tabs.',
      },
      { type: 'ImplementationFact', title: 'Axolotl cache', facts: 'The axolotl cache keeps a day.' },
    );
    const share = async () =>
      (await search('q=zebracorn%20axolotl&mode=fulltext')).results.find((r) => r.itemId === zebra)!.scores.fullText!;
    const before = await share();
    expect(await share()).toBe(before);
    // Axolotl is now held by more items, so it weighs less and zebracorn's share of the query grows.
    for (let i = 0; i < 4; i += 1) {
      await create({ type: 'ImplementationFact', title: `Axolotl note ${i}`, facts: `Axolotl detail number ${i}.` });
    }
    expect(await share()).toBeGreaterThan(before);
  });

  it('takes any of a question’s words, the rarest weighing most, and says how much of it each hit matched', async () => {
    const body = await search(`q=${encodeURIComponent('why did the webhook sender lose events on a 502?')}`);
    expect(body.results[0]!.itemId).toBe(ids.webhook);
    expect(body.results[0]!.scores.fullText).toBeGreaterThan(0.5);
    expect(body.results[0]!.scores.fullText).toBeLessThanOrEqual(1);
  });

  it('hybrid fuses both rankings by reciprocal rank fusion (k = 60)', async () => {
    const body = await search('q=webhook%20sender%20retries');
    expect(body.mode).toBe('hybrid');
    const top = body.results[0]!;
    expect(top.itemId).toBe(ids.webhook);
    expect(top.ranks.fullText).toBe(1);
    expect(top.ranks.vector).toEqual(expect.any(Number));
    // Normalised: 1 when both sources rank an item first.
    const expected = ((1 / (60 + top.ranks.fullText!) + 1 / (60 + top.ranks.vector!)) * 61) / 2;
    expect(top.score).toBeCloseTo(expected, 5);
    expect(top.scores.fullText).toEqual(expect.any(Number));
    expect(top.scores.vector).toEqual(expect.any(Number));
    for (let i = 1; i < body.results.length; i++) {
      expect(body.results[i]!.score).toBeLessThanOrEqual(body.results[i - 1]!.score);
    }
    expect(top.item).toMatchObject({ title: 'Webhook sender lost events on 502 answers', type: 'BugFix' });
  });

  it('leaves archived items out unless asked for', async () => {
    const live = await search('q=webhook%20queue%20redis');
    expect(live.results.map((r) => r.itemId)).not.toContain(ids.archived);
    const all = await search('q=webhook%20queue%20redis&includeArchived=true');
    expect(all.results.map((r) => r.itemId)).toContain(ids.archived);
    const vector = await search('q=webhook%20queue%20redis&mode=vector');
    expect(vector.results.map((r) => r.itemId)).not.toContain(ids.archived);
  });

  it('filters by type and status', async () => {
    const decisions = await search('q=postgresql&type=Decision');
    expect(decisions.results.map((r) => r.itemId)).toEqual([ids.postgres]);
    const archived = await search('q=webhook&status=archived&includeArchived=true');
    expect(archived.results.map((r) => r.itemId)).toEqual([ids.archived]);
  });

  it('re-embeds an item when its text changes', async () => {
    const [id] = await indexedItems({ type: 'Convention', title: 'Naming', facts: 'Use kebab-case file names.' });
    const stored = () =>
      ctx.database.db
        .selectFrom('item_embeddings')
        .innerJoin('memory_items', 'memory_items.id', 'item_embeddings.item_id')
        .select(['item_embeddings.vector', 'item_embeddings.text_hash', 'memory_items.embed_hash'])
        .where('item_id', '=', id)
        .executeTakeFirstOrThrow();
    const before = await stored();
    expect(before.text_hash).toBe(before.embed_hash);
    expect((await search('q=zeppelin%20hangar&mode=vector')).results.map((r) => r.itemId)).not.toContain(id);
    const edit = await request(url(`/api/v2/memory-items/${id}`), {
      method: 'PATCH',
      key: key(),
      body: { facts: 'Zeppelin hangar files use kebab-case names.' },
    });
    expect(edit.status).toBe(200);
    await indexed();
    const after = await stored();
    expect(after.text_hash).toBe(after.embed_hash);
    expect(after.text_hash).not.toBe(before.text_hash);
    expect(Buffer.compare(after.vector!, before.vector!)).not.toBe(0);
    expect((await search('q=zeppelin%20hangar&mode=vector')).results[0]?.itemId).toBe(id);
  });

  it('never shows an item archived a moment ago, before the vector store hears of it', async () => {
    const [id] = await indexedItems({ type: 'Todo', title: 'Quokka import', facts: 'Import the quokka census files.' });
    expect((await search('q=quokka%20census&mode=vector')).results[0]?.itemId).toBe(id);
    const archived = await request(url(`/api/v2/memory-items/${id}`), {
      method: 'PATCH',
      key: key(),
      body: { action: 'deprecate', reason: 'done elsewhere' },
    });
    expect(archived.status).toBe(200);
    // No wait for the embedding worker: the rows are filtered again when read.
    for (const mode of ['vector', 'hybrid']) {
      expect((await search(`q=quokka%20census&mode=${mode}`)).results.map((r) => r.itemId)).not.toContain(id);
    }
  });

  it('re-embeds items made with another model once the worker starts with a new one', async () => {
    const model = ctx.server.app.get<{ model: string }>(EMBEDDER).model;
    // The test before leaves a sync in flight (it archives without waiting); one finishing after
    // the invalidation below would mark the project caught up without re-embedding.
    await indexed();
    await ctx.database.db
      .updateTable('item_embeddings')
      .set({ model: 'an-older-model/256' })
      .where('item_id', '=', ids.postgres!)
      .execute();
    const repository = ctx.server.app.get(EmbeddingRepository);
    expect(await repository.invalidateStale(model, true)).toBe(1);
    await indexed();
    const row = await ctx.database.db
      .selectFrom('item_embeddings')
      .select('model')
      .where('item_id', '=', ids.postgres!)
      .executeTakeFirstOrThrow();
    expect(row.model).toBe(model);
  });

  it("never shows another project's items", async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other');
    const res = await request<SearchBody>(url('/api/v2/search?q=webhook'), { key: other.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([]);
  });

  it('an excluded word keeps its items out, from vectors too', async () => {
    const [redis, memory] = await indexedItems(
      {
        type: 'ImplementationFact',
        title: 'Wombat limiter counts in Redis',
        facts: 'The wombat rate limiter keeps its counters in Redis.',
      },
      {
        type: 'ImplementationFact',
        title: 'Wombat limiter counts in memory',
        facts: 'The wombat rate limiter keeps its counters in process memory.',
      },
    );
    const both = await search('q=wombat%20limiter%20counters&mode=vector');
    expect(both.results.map((r) => r.itemId)).toEqual(expect.arrayContaining([redis, memory]));
    for (const mode of ['vector', 'hybrid', 'fulltext']) {
      const body = await search(`q=${encodeURIComponent('wombat limiter -redis')}&mode=${mode}`);
      const found = body.results.map((r) => r.itemId);
      expect({ mode, redis: found.includes(redis), memory: found.includes(memory) }).toEqual({
        mode,
        redis: false,
        memory: true,
      });
    }
  });

  it('fills the page when a row the vector store still lists is left out', async () => {
    const [gone, kept] = await indexedItems(
      { type: 'Todo', title: 'Platypus ledger', facts: 'Platypus ledger export.' },
      {
        type: 'Todo',
        title: 'Ledger exports',
        facts: 'The platypus team wants its ledger exports as CSV files.',
      },
    );
    const before = await search('q=platypus%20ledger&mode=vector&limit=1');
    expect(before.results.map((r) => r.itemId)).toEqual([gone]);
    // Archived behind the embedding worker's back (no revision bump): the store keeps `gone`
    // as active, first, for as long as this test runs.
    await ctx.database.db.updateTable('memory_items').set({ status: 'archived' }).where('id', '=', gone).execute();
    const after = await search('q=platypus%20ledger&mode=vector&limit=1');
    expect(after.results.map((r) => r.itemId)).toEqual([kept]);
  });

  it('leaves superseded items out unless asked for', async () => {
    const newer = await create({ type: 'Convention', title: 'Narwhal lint rules', facts: 'Narwhal code uses eslint.' });
    const older = await create({ type: 'Convention', title: 'Narwhal lint rules', facts: 'Narwhal code uses tslint.' });
    await ctx.database.db
      .updateTable('memory_items')
      .set({ status: 'superseded', superseded_by: newer })
      .where('id', '=', older)
      .execute();
    await indexed();
    for (const mode of ['hybrid', 'vector', 'fulltext']) {
      const live = (await search(`q=narwhal%20lint&mode=${mode}`)).results.map((r) => r.itemId);
      expect({ mode, newer: live.includes(newer), older: live.includes(older) }).toEqual({
        mode,
        newer: true,
        older: false,
      });
      const all = (await search(`q=narwhal%20lint&mode=${mode}&includeArchived=true`)).results.map((r) => r.itemId);
      expect({ mode, newer: all.includes(newer), older: all.includes(older) }).toEqual({
        mode,
        newer: true,
        older: true,
      });
    }
  });

  it('full text covers tags and file paths', async () => {
    const id = await create({
      type: 'ImplementationFact',
      title: 'Session cookie',
      facts: 'Cookies are signed.',
      tags: ['okapi-auth'],
      files: ['src/gateway/quokkaSession.ts'],
    });
    for (const q of ['okapi', 'gateway quokkaSession']) {
      const body = await search(`q=${encodeURIComponent(q)}&mode=fulltext`);
      expect({ q, found: body.results.map((r) => r.itemId) }).toEqual({ q, found: [id] });
    }
  });

  it('takes any web-search syntax without failing', async () => {
    for (const q of ['"unclosed phrase', '-', 'OR OR', '!!!', 'a & b | c', "' or 1=1 --", 'webhook -redis']) {
      const res = await request<SearchBody>(url(`/api/v2/search?q=${encodeURIComponent(q)}`), { key: key() });
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
    }
  });

  it.each([
    ['no q', ''],
    ['an empty q', 'q='],
    ['limit 0', 'q=x&limit=0'],
    ['limit 51', 'q=x&limit=51'],
    ['an unknown mode', 'q=x&mode=magic'],
    ['an unknown type', 'q=x&type=Opinion'],
    ['includeArchived=yes', 'q=x&includeArchived=yes'],
    ['status=archived without includeArchived', 'q=x&status=archived'],
    ['an unknown parameter', 'q=x&extra=1'],
    ['a 501-character q', `q=${'x'.repeat(501)}`],
    ['a NUL in q', 'q=%00'],
    ['33 words', `q=${encodeURIComponent(Array.from({ length: 33 }, () => 'retry').join(' '))}`],
    ['a hyphenated run of 33 parts', `q=${Array.from({ length: 33 }, () => 'ab').join('-')}`],
  ])('answers %s with a 400', async (_name, query) => {
    const res = await request<ErrorBody>(url(`/api/v2/search?${query}`), { key: key() });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('needs a project key', async () => {
    expect((await request(url('/api/v2/search?q=x'))).status).toBe(401);
  });
});
