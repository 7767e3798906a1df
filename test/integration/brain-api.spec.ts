import { Client } from 'pg';
import { BrainApiModule } from '../../apps/brain-api/src';
import { EnrichmentService } from '@memex/feature-enrichment';
import { EnrichmentWorkerModule } from '../../apps/enrichment-worker/src';
import { ProjectRepository } from '@memex/db';
import { PRODUCER_REDIS } from '@memex/server';
import { itServerOnly } from '../support/mode';
import { rawEvent, storeEvents } from '../support/events';
import { request, type ErrorBody } from '../support/http';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';
import { brainApi, type BrainBody, type Item } from '../support/brain-api';

const ctx = useTestApp([BrainApiModule, EnrichmentWorkerModule]);
const { url, key, create, patch, brain } = brainApi(ctx);

/** Runs `use` on a database connection of its own, as another process holds one; closed after. */
async function onOwnConnection(use: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ connectionString: ctx.database.url });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}

/** Waits (2 s at most) until the brain stops answering 304 to `etag`, then expects it to say `text`. */
async function expectAnnounced(etag: string | null, text: string): Promise<void> {
  await waitFor(async () => (await brain('', { 'if-none-match': etag! })).status === 200, 2000);
  expect((await brain()).text).toContain(text);
}

describe('brain', () => {
  let decision: Item;
  beforeAll(async () => {
    decision = await create({
      type: 'Decision',
      title: 'Use PostgreSQL for everything',
      facts: 'One datastore.',
      importance: 5,
    });
    await create({
      type: 'Convention',
      title: 'Name files in kebab-case',
      facts: 'user-profile.ts, not UserProfile.ts.',
    });
    await create({ type: 'Todo', title: 'Rotate the webhook secret', facts: 'Before launch.', importance: 3 });
  });

  it('serves the layered document with its metadata and an ETag', async () => {
    const res = await brain();
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as BrainBody;
    expect(body.document).toContain('## Project Brief');
    expect(body.document).toContain('**Use PostgreSQL for everything**');
    expect(body).toMatchObject({ itemsLoaded: 3, schemaKeys: expect.arrayContaining(['root/decisions']) });
    expect(body.layers.layer1).toMatchObject({ items: 3 });
    expect(body.tokenEstimate).toBeLessThanOrEqual(6000);
    expect(res.etag).toBe(`"${body.brainHash}"`);
  });

  itServerOnly(
    'answers a revalidation with the current ETag with 304 and no body, without reading item rows',
    'holds a lock from a second database connection',
    async () => {
      const first = await brain();
      // Hold every item row: a revalidation that read them would wait here.
      await onOwnConnection(async (locker) => {
        await locker.query('begin');
        await locker.query('lock table memory_items in access exclusive mode');
        try {
          const again = await brain('', { 'if-none-match': first.etag! });
          expect(again.status).toBe(304);
          expect(again.text).toBe('');
          expect(again.etag).toBe(first.etag);
        } finally {
          await locker.query('rollback');
        }
      });
    },
  );

  it('serves the document itself as markdown', async () => {
    const res = await brain('', { accept: 'text/markdown' });
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/markdown');
    expect(res.text.startsWith('# Project brain: test')).toBe(true);
  });

  it('keeps to the budget asked for, and refuses budgets outside 500–100,000', async () => {
    const small = JSON.parse((await brain('?tokenBudget=500')).text) as BrainBody;
    expect(small.tokenEstimate).toBeLessThanOrEqual(500);
    for (const bad of ['499', '100001', 'lots', '1.5', '0x1f4', '6e3', '500%20', '%2B500', '']) {
      const res = await request<ErrorBody>(url(`/api/v2/brain?tokenBudget=${bad}`), { key: key() });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^tokenBudget/);
    }
    expect((await request(url('/api/v2/brain?budget=5'), { key: key() })).status).toBe(400);
  });

  it('shows any change to the items in the next response: an edit, a deprecation, enrichment', async () => {
    const before = await brain();
    const edit = await patch<Item>(decision.itemId, { title: 'Use PostgreSQL for everything, queues included' });
    expect(edit.status).toBe(200);
    const afterEdit = await brain('', { 'if-none-match': before.etag! });
    expect(afterEdit.status).toBe(200);
    expect(afterEdit.text).toContain('queues included');

    const deprecate = await patch(decision.itemId, { action: 'deprecate', reason: 'we moved queues to Redis' });
    expect(deprecate.status).toBe(200);
    expect((await brain()).text).not.toContain('queues included');

    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'brain-follows', [
      rawEvent('prompt', 'Always validate webhook signatures before parsing the body.'),
    ]);
    await ctx.server.app.get(EnrichmentService).enrichSession(ctx.project.projectId, sessionId, 'run-brain');
    expect((await brain()).text).toContain('Always validate webhook signatures before parsing the body');
  });

  it('sees a change written to the database behind its back once PostgreSQL announces it', async () => {
    const before = await brain();
    await ctx.database.db
      .updateTable('memory_items')
      .set({ title: 'Renamed behind its back' })
      .where('project_id', '=', ctx.project.projectId)
      .where('type', '=', 'Convention')
      .execute();
    await ctx.database.db
      .updateTable('projects')
      .set((eb) => ({ memory_revision: eb('memory_revision', '+', 1) }))
      .where('id', '=', ctx.project.projectId)
      .execute();
    await expectAnnounced(before.etag, 'Renamed behind its back');
  });

  itServerOnly(
    'sees a change made by another process once PostgreSQL announces it, and reads revisions itself while it cannot listen',
    'another process and a listening connection to cut',
    async () => {
      const before = await brain();
      await onOwnConnection(async (other) => {
        const renameConvention = async (title: string) => {
          await other.query(`update memory_items set title = $2 where project_id = $1 and type = 'Convention'`, [
            ctx.project.projectId,
            title,
          ]);
          await other.query('update projects set memory_revision = memory_revision + 1 where id = $1', [
            ctx.project.projectId,
          ]);
        };
        await renameConvention('Renamed elsewhere');
        await expectAnnounced(before.etag, 'Renamed elsewhere');

        // The listening connection dies: nothing cached is trusted, every read asks the database.
        await other.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'memex-brain-revisions' and datname = current_database()`,
        );
        const cached = await brain();
        await renameConvention('Renamed while deaf');
        await expectAnnounced(cached.etag, 'Renamed while deaf');
      });
    },
  );

  it('does not answer 304 for a bad key or for another project, whatever the ETag', async () => {
    const current = await brain();
    const bad = await fetch(url('/api/v2/brain'), {
      headers: { authorization: 'Bearer mx_nope', 'if-none-match': current.etag! },
    });
    expect(bad.status).toBe(401);
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('etag-other');
    const theirs = await fetch(url('/api/v2/brain'), {
      headers: { authorization: `Bearer ${other.apiKey}`, 'if-none-match': current.etag! },
    });
    expect(theirs.status).toBe(200);
    expect(await theirs.text()).not.toContain('Name files in kebab-case');
  });

  it('gives the markdown and JSON representations different ETags, and says they vary by Accept', async () => {
    const json = await brain();
    const md = await brain('', { accept: 'text/markdown' });
    expect(md.etag).not.toBe(json.etag);
    const notModified = await fetch(url('/api/v2/brain'), {
      headers: { authorization: `Bearer ${key()}`, accept: 'text/markdown', 'if-none-match': md.etag! },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('vary')).toBe('accept');
    // The JSON tag does not validate the markdown representation.
    expect((await brain('', { accept: 'text/markdown', 'if-none-match': json.etag! })).status).toBe(200);
  });

  itServerOnly(
    'assembles budgets off the 500-token grid exactly, without caching them',
    'reads the cache keys in Redis',
    async () => {
      const odd = JSON.parse((await brain('?tokenBudget=1234')).text) as BrainBody;
      expect(odd.tokenEstimate).toBeLessThanOrEqual(1234);
      const keys = await ctx.server.app
        .get<string, { keys(p: string): Promise<string[]> }>(PRODUCER_REDIS)
        .keys(`${ctx.server.config.QUEUE_PREFIX}:brain:*`);
      expect(keys.some((k) => k.includes('budget-1234'))).toBe(false);
      expect(keys.some((k) => k.includes('budget-6000'))).toBe(true);
    },
  );

  it('serves the CLAUDE.md summary as JSON or markdown', async () => {
    const json = await request<{ document: string; tokenEstimate: number }>(url('/api/v2/brain/summary'), {
      key: key(),
    });
    expect(json.status).toBe(200);
    expect(json.body.document).toContain('## Brief');
    expect(json.body.tokenEstimate).toBeLessThanOrEqual(1000);
    const md = await fetch(url('/api/v2/brain/summary'), {
      headers: { authorization: `Bearer ${key()}`, accept: 'text/markdown' },
    });
    expect(md.headers.get('content-type')).toContain('text/markdown');
    expect(await md.text()).toBe(json.body.document);
  });

  it('refuses summary query parameters it does not take, as the brain does, even on revalidation', async () => {
    const current = await fetch(url('/api/v2/brain/summary'), { headers: { authorization: `Bearer ${key()}` } });
    const etag = current.headers.get('etag')!;
    for (const query of ['?tokenBudget=500', '?format=md', '?tokenBudget=0x1f4']) {
      for (const headers of [{}, { 'if-none-match': etag }] as Array<Record<string, string>>) {
        const res = await fetch(url(`/api/v2/brain/summary${query}`), {
          headers: { authorization: `Bearer ${key()}`, ...headers },
        });
        const body = (await res.json()) as ErrorBody;
        expect({ query, status: res.status, code: body.error.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
      }
    }
    expect(
      (
        await fetch(url('/api/v2/brain/summary'), {
          headers: { authorization: `Bearer ${key()}`, 'if-none-match': etag },
        })
      ).status,
    ).toBe(304);
  });

  it('needs a project key', async () => {
    expect((await request(url('/api/v2/brain'))).status).toBe(401);
  });
});
