import { SearchModule } from '@memex/feature-search';
import type { Kysely } from 'kysely';
import { EntityRepository, KYSELY, ProjectRepository, type DB, type EntityWindow } from '@memex/db';
import { lookupName } from '@memex/entities';
import { request } from '../../../test/support/http';
import { insertItem } from '../../../test/support/items';
import { useTestApp } from '../../../test/support/use-test-app';

// A context pack reads only its own project's entity store: an entity's live items are the
// project's own (a link row to another project's item does not count), and which error
// signatures a word picks is decided among the project's own, whatever another project holds.
const ctx = useTestApp([SearchModule]);

type Component = { type: string; source: string; content: string };
const FILE = 'src/cart/totals.ts';
const SIGNATURE = 'TypeError: totalsGuard.map is not a function';

/** One failure per signature, each named by its own event, as a window of the worker records it. */
function failures(signatures: string[], file?: string): EntityWindow {
  const at = new Date('2026-03-01T00:00:00Z');
  const named = (kind: string, name: string, eventId: string) => ({
    kind,
    name,
    base: lookupName({ kind: kind as 'file', name }),
    eventId,
    occurredAt: at,
    edited: false,
  });
  return {
    mentions: [...signatures.map((s, i) => named('error', s, `e${i}`)), ...(file ? [named('file', file, 'read')] : [])],
    relations: [],
    errors: signatures.map((signature, i) => ({
      eventId: `e${i}`,
      signature,
      occurredAt: at,
      command: 'npm test',
      fix: null,
      fixEventIds: [],
    })),
    at,
  };
}

async function pack(apiKey: string, query: string) {
  const res = await request<{ components: Component[] }>(`${ctx.server.url}/api/v2/context-pack`, {
    key: apiKey,
    body: { query, maxTokens: 2000 },
  });
  expect(res.status).toBe(200);
  return res.body.components;
}

describe('a context pack reads its own project only', () => {
  let other: { projectId: string; apiKey: string };
  let ownItem: string;
  let otherItem: string;

  beforeAll(async () => {
    const store = ctx.server.app.get(EntityRepository);
    const db = ctx.server.app.get<Kysely<DB>>(KYSELY);
    const own = ctx.project.projectId;
    other = await ctx.server.app.get(ProjectRepository).createWithKey('other');

    // Both projects name the same file and hold an error with the word `totalsguard`; the
    // other project holds sixty such errors, enough to make the word common there.
    await store.recordWindow(own, 'own-session', failures([SIGNATURE], FILE));
    await store.recordWindow(
      other.projectId,
      'other-session',
      failures(
        Array.from({ length: 60 }, (_, i) => `RangeError: totalsGuard.map${i} is not a function`),
        FILE,
      ),
    );

    const linked = (projectId: string, title: string) =>
      insertItem(db, projectId, { title, facts: `Changed ${FILE}.` });
    ownItem = await linked(own, 'Totals guard');
    otherItem = await linked(other.projectId, 'Other totals');
    const otherMore = await linked(other.projectId, 'Other totals again');
    const entities = [{ kind: 'file', name: FILE, base: lookupName({ kind: 'file', name: FILE }) }];
    await store.linkItems(own, [{ itemId: ownItem, entities }], new Date());
    await store.linkItems(
      other.projectId,
      [otherItem, otherMore].map((itemId) => ({ itemId, entities })),
      new Date(),
    );
    // A stray link row from this project's entity to the other project's item (an import or
    // a bug could leave one): the item is not this project's, and must not count here.
    const [file] = await store.findByNames(own, ['totals.ts'], ['active'], 1, 100);
    await db.insertInto('item_entities').values({ project_id: own, item_id: otherItem, entity_id: file!.id }).execute();
  });

  it("counts an entity's live items in its own project only", async () => {
    const components = await pack(ctx.project.apiKey, 'what changed in totals.ts?');
    const file = components.find((c) => c.type === 'entity' && c.content.includes('totals.ts'));
    expect(file?.content).toMatch(/named 1 time, in 1 item,/);
    const items = components.filter((c) => c.type === 'semantic').map((c) => c.source);
    expect(items).toContain(ownItem);
    expect(items).not.toContain(otherItem);

    const theirs = await pack(other.apiKey, 'what changed in totals.ts?');
    expect(theirs.find((c) => c.type === 'entity' && c.content.includes('totals.ts'))?.content).toMatch(
      /named 1 time, in 2 items,/,
    );
  });

  it("chooses error patterns among its own signatures: another project's make no word common here", async () => {
    const components = await pack(ctx.project.apiKey, 'why does totalsguard keep failing?');
    expect(components.filter((c) => c.type === 'pattern').map((c) => c.source)).toEqual([SIGNATURE]);

    // In the other project the word is held by sixty signatures: too common to pick any.
    const theirs = await pack(other.apiKey, 'why does totalsguard keep failing?');
    expect(theirs.filter((c) => c.type === 'pattern')).toEqual([]);
  });
});
