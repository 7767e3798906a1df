import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import {
  ProjectRepository,
  RawEventRepository,
  createDatabase,
  createEmbeddedDatabase,
  createPool,
  migrateInProcess,
  openEmbeddedPool,
  parentsFirst,
  type DB,
} from '@memex/db';
import { hashApiKey, type RawEventInput } from '@memex/domain';
import type { Kysely } from 'kysely';
import { insertItem } from '../support/items';
import { describeServerOnly } from '../support/mode';
import { runCli } from '../support/processes';
import { databaseUrl, dropDatabase, uniqueName } from '../support/test-database';
import { rawEvent } from '../support/events';

describe('parentsFirst', () => {
  it('orders tables so that every foreign key points at a table before it, whatever the input order', () => {
    const edges = [
      { child: 'items', parent: 'projects' },
      { child: 'history', parent: 'items' },
      { child: 'items', parent: 'items' },
      { child: 'keys', parent: 'projects' },
    ];
    expect(parentsFirst(['history', 'keys', 'items', 'projects'], edges)).toEqual([
      'projects',
      'items',
      'history',
      'keys',
    ]);
  });
});

describeServerOnly('memex move', 'moves into a PostgreSQL server', () => {
  const home = mkdtempSync(join(tmpdir(), 'memex-move-'));
  const name = uniqueName('memex_move');
  const url = databaseUrl(name);
  let project: { projectId: string; apiKey: string };
  const counts: Record<string, number> = {};

  beforeAll(async () => {
    // An embedded home with a project, its events and items, one superseded by a later one.
    const source = await createEmbeddedDatabase(join(home, 'pgdata'));
    const pool = await openEmbeddedPool(join(home, 'pgdata'));
    const events = new RawEventRepository(pool);
    const store = (projectId: string, sessionId: string, batch: RawEventInput[]) =>
      events.storeBatch(projectId, { sessionId, events: batch }, new Date());
    try {
      await migrateInProcess(source);
      project = await new ProjectRepository(source).createWithKey('laptop');
      await store(project.projectId, 'session-1', [
        rawEvent('prompt', 'We decided to keep invoices in cents.'),
        rawEvent('response', 'Done: amounts are integers of cents now.'),
      ]);
      const newer = await insertItem(source, project.projectId, { title: 'Invoices in cents' });
      await insertItem(source, project.projectId, {
        title: 'Invoices in euros',
        status: 'superseded',
        supersededBy: newer,
      });
      for (const table of ['projects', 'api_keys', 'sessions', 'raw_events', 'memory_items']) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(source);
        counts[table] = rows[0]!.n;
      }
    } finally {
      await pool.end();
      await source.destroy();
    }
  });

  afterAll(async () => {
    rmSync(home, { recursive: true, force: true });
    await dropDatabase(name);
  });

  it('refuses while a Memex runs on the home', async () => {
    // This test's own process stands for the running one.
    writeFileSync(join(home, 'memex.pid'), String(process.pid));
    const run = await runCli(['move', '--to', url], { MEMEX_HOME: home });
    rmSync(join(home, 'memex.pid'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`another Memex (process ${process.pid}) is running on ${home}`);
  });

  it('copies everything into the server, keys and links included, and says how to switch', async () => {
    const run = await runCli(['move', '--to', url], { MEMEX_HOME: home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('the counts match on both sides');
    expect(run.stdout).toContain(`MEMEX_LOCAL_STATE_DIR=${home} npm start`);
    const target: Kysely<DB> = createDatabase({ url, poolSize: 1 });
    try {
      for (const [table, n] of Object.entries(counts)) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(target);
        expect({ table, n: rows[0]!.n }).toEqual({ table, n });
      }
      // The key still opens its project; the supersession still points at the newer item.
      expect(await new ProjectRepository(target).findProjectIdByKeyHash(hashApiKey(project.apiKey))).toBe(
        project.projectId,
      );
      const old = await target
        .selectFrom('memory_items as m')
        .innerJoin('memory_items as n', 'n.id', 'm.superseded_by')
        .select(['m.title as old', 'n.title as newer'])
        .executeTakeFirstOrThrow();
      expect(old).toEqual({ old: 'Invoices in euros', newer: 'Invoices in cents' });
      // New rows get ids after the copied ones.
      const targetPool = createPool({ url, poolSize: 1 });
      try {
        await new RawEventRepository(targetPool).storeBatch(
          project.projectId,
          { sessionId: 'session-1', events: [rawEvent('prompt', 'One more thing.')] },
          new Date(),
        );
      } finally {
        await targetPool.end();
      }
      const seqs = await target.selectFrom('raw_events').select('seq').orderBy('seq').execute();
      expect(new Set(seqs.map((s) => s.seq)).size).toBe(counts.raw_events! + 1);
    } finally {
      await target.destroy();
    }
  });

  it('refuses to move into a database that already holds projects', async () => {
    const run = await runCli(['move', '--to', url], { MEMEX_HOME: home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the target already holds 1 project(s): move into an empty database');
  });
});
