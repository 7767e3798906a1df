import { EntityRepository, type EntityWindow } from '@memex/db';
import { ITEM_MENTIONS_COUNTED, itemEntities, salience, windowEntities, type SourceEvent } from '@memex/entities';
import { entityWindow } from '@memex/feature-enrichment';
import { fixtureEvents } from '../../../test/support/claude-code-fixtures';
import { insertItem } from '../../../test/support/items';
import { patternsHolding } from '../../../test/support/patterns';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';

// The entity store against real Postgres: idempotent per event and session, weights counting
// sessions, a depth-limited traversal, archived items no longer feeding salience, per project.
let database: TestDatabase;
let store: EntityRepository;
const LIVE = ['active', 'stale', 'review'];

function asWindow(events: SourceEvent[], edited: string[]): EntityWindow {
  return entityWindow(events, edited, new Date(events[events.length - 1]!.occurredAt));
}

async function project(id: string) {
  await database.db.insertInto('projects').values({ id, name: id }).execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
  store = new EntityRepository(database.db);
  await project('p1');
  await project('p2');
});
afterAll(() => database.drop());

describe('the entity store', () => {
  const events = fixtureEvents('fix-type-errors.jsonl');

  it('records a session once however many times its windows are read, weights counting sessions', async () => {
    const half = Math.floor(events.length / 2);
    await store.recordWindow('p1', 's1', asWindow(events.slice(0, half), []));
    await store.recordWindow('p1', 's1', asWindow(events, await store.sessionEditedFiles('p1', 's1')));
    await store.recordWindow('p1', 's1', asWindow(events, await store.sessionEditedFiles('p1', 's1')));

    const [file] = await store.findByNames('p1', ['test_cache.py'], LIVE, 5, ITEM_MENTIONS_COUNTED);
    const mentions = windowEntities(events, []).mentions.filter((m) => m.name === 'test/test_cache.py').length;
    expect(file).toMatchObject({ kind: 'file', name: 'test/test_cache.py', mentions, itemMentions: 0 });
    expect(await store.sessionEditedFiles('p1', 's1')).toEqual(['test/test_cache.py']);

    const patterns = await patternsHolding(store, 'p1', 'call-non-callable');
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatchObject({ occurrences: 2, sessions: 1 });
    expect(patterns[0]!.fixes).toEqual([expect.objectContaining({ summary: 'editing test/test_cache.py', count: 1 })]);
    const fixIds = patterns[0]!.fixes[0]!.eventIds;
    expect(fixIds.length).toBeGreaterThanOrEqual(2);
    expect(events.find((e) => e.eventId === fixIds[fixIds.length - 1])?.content).toMatch(/All checks passed/);

    // A second session with the same failure counts it again, in another session.
    await store.recordWindow('p1', 's2', asWindow(events, []));
    const again = await store.patterns('p1', [patterns[0]!.signature]);
    expect(again[0]).toMatchObject({ occurrences: 4, sessions: 2 });
    expect(again[0]!.fixes[0]!.count).toBe(2);
  });

  it('walks relations to a depth limit, and keeps projects apart', async () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const file = (name: string) => ({ kind: 'file', name, base: name });
    const edited = (a: string, b: string) => ({ kind: 'edited_with', source: file(a), target: file(b) });
    await store.recordWindow('p1', 'chain', {
      mentions: [],
      relations: [edited('a.ts', 'b.ts'), edited('b.ts', 'c.ts'), edited('c.ts', 'd.ts')],
      errors: [],
      at: t0,
    });
    await store.recordWindow('p2', 'other', { mentions: [], relations: [edited('a.ts', 'z.ts')], errors: [], at: t0 });
    const [a] = await store.findByNames('p1', ['a.ts'], LIVE, 1, ITEM_MENTIONS_COUNTED);
    const names = (hits: Awaited<ReturnType<EntityRepository['traverse']>>) =>
      hits.map((h) => `${h.source.name}-${h.target.name}@${h.depth}`).sort();
    expect(names(await store.traverse('p1', [a!.id], 1, 50))).toEqual(['a.ts-b.ts@1']);
    expect(names(await store.traverse('p1', [a!.id], 2, 50))).toEqual(['a.ts-b.ts@1', 'b.ts-c.ts@2']);
    expect(names(await store.traverse('p1', [a!.id], 5, 50))).toEqual(['a.ts-b.ts@1', 'b.ts-c.ts@2', 'c.ts-d.ts@3']);
    // The other project's a.ts is another entity; p1's traversal never reaches z.ts.
    const [otherA] = await store.findByNames('p2', ['a.ts'], LIVE, 1, ITEM_MENTIONS_COUNTED);
    expect(otherA!.id).not.toBe(a!.id);
    expect(names(await store.traverse('p1', [otherA!.id], 3, 50))).toEqual([]);
  });

  it('links items to what they name; an archived item stops feeding salience', async () => {
    const item = await insertItem(database.db, 'p1', {
      title: 'Type check skip',
      facts: 'In test/test_cache.py `pytest.skip` needs a return for ty.',
    });
    const archived = await insertItem(database.db, 'p1', {
      title: 'Old',
      facts: 'test/test_cache.py was slow',
      status: 'archived',
    });
    const rows = await database.db
      .selectFrom('memory_items')
      .select(['id as itemId', 'title', 'facts', 'rationale', 'files'])
      .where('id', 'in', [item, archived])
      .execute();
    await store.linkItems(
      'p1',
      rows.map((r) => ({ itemId: r.itemId, entities: itemEntities(r) })),
      new Date(),
    );

    const [file] = await store.findByNames('p1', ['test_cache.py'], LIVE, 1, ITEM_MENTIONS_COUNTED);
    expect(file!.itemMentions).toBe(1);
    const [withArchived] = await store.findByNames(
      'p1',
      ['test_cache.py'],
      [...LIVE, 'archived'],
      1,
      ITEM_MENTIONS_COUNTED,
    );
    expect(withArchived!.itemMentions).toBe(2);
    const now = Date.now();
    expect(salience({ ...file!, lastSeenAt: file!.lastSeenAt.getTime() }, now)).toBeLessThan(
      salience({ ...withArchived!, lastSeenAt: withArchived!.lastSeenAt.getTime() }, now),
    );

    const linked = await store.itemsNaming('p1', [file!.id], LIVE, 10);
    expect(linked.map((l) => l.itemId)).toEqual([item]);
    // Linking again replaces, never duplicates.
    await store.linkItems(
      'p1',
      rows.map((r) => ({ itemId: r.itemId, entities: itemEntities(r) })),
      new Date(),
    );
    expect((await store.findByNames('p1', ['test_cache.py'], LIVE, 1, ITEM_MENTIONS_COUNTED))[0]!.itemMentions).toBe(1);
  });
});
