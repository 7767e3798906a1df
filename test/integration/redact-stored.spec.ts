import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { BrainApiModule } from '../../apps/brain-api/src';
import { ProjectRepository } from '@memex/db';
import { newId } from '@memex/domain';
import { randomOf } from '../../libs/redaction/src/secret-corpus.fixture';
import { dumpDatabase } from '../support/dump';
import { rawEvent, storeEvents } from '../support/events';
import { request, type ErrorBody } from '../support/http';
import { insertItem } from '../support/items';
import { runCli } from '../support/processes';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';

const ctx = useTestApp([BrainApiModule]);
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Secrets stored before redaction existed: written straight to the tables, past the API. */
const github = `ghp_${randomOf(ALNUM, 36)}`;
const stripe = `sk_live_${randomOf(ALNUM, 24)}`;
const password = `Pw-${randomOf(ALNUM, 14)}`;
/** A format the rules learnt later (issue 29): stored data is cleaned of it by the same rules. */
const pgPassword = `hunter${randomOf('0123456789', 2)}-Blue`;
const secrets = [github, stripe, password, pgPassword];

let itemId: string;
let otherProject: string;

function memex(args: string[], credentials: Record<string, string>) {
  return runCli(['redact', ...args], {
    MEMEX_URL: ctx.server.url,
    MEMEX_LOCAL_STATE_DIR: mkdtempSync(join(tmpdir(), 'memex-none-')),
    ...credentials,
  });
}

/** The brain as the assistant reads it (markdown escapes taken out, so `sk\_live` reads as `sk_live`). */
async function brainDocument(): Promise<string> {
  const res = await request<{ document: string }>(`${ctx.server.url}/api/v2/brain`, { key: ctx.project.apiKey });
  return res.body.document.replace(/\\(?=[\\`*_{}[\]()#+\-.!|<>])/g, '');
}

beforeAll(async () => {
  const { projectId } = ctx.project;
  await storeEvents(ctx.server.app, projectId, 'legacy-session', [
    rawEvent('prompt', `use GH_TOKEN=${github} to push, then PGPASSWORD=${pgPassword} psql -h db app`),
    rawEvent('tool_call', 'Bash', { tool: 'Bash', input: { command: `psql postgres://app:${password}@db/app` } }),
    rawEvent('prompt', 'nothing secret here'),
  ]);
  await sql`update sessions set branch = ${`wip/${github}`} where external_id = 'legacy-session'`.execute(
    ctx.database.db,
  );
  itemId = await insertItem(ctx.database.db, projectId, {
    type: 'Decision',
    title: `Billing uses ${stripe}`,
    facts: `Connect with postgres://billing:${password}@db/billing`,
  });
  await sql`update memory_items set evidence_spans = ${JSON.stringify([{ eventId: 'e1', quote: `key ${stripe}` }])}::jsonb,
    tags = ${['billing']}::text[] where id = ${itemId}`.execute(ctx.database.db);
  const snapshot = JSON.stringify({ title: `Billing uses ${stripe}` });
  await sql`insert into item_history (project_id, item_id, change, before, after, actor_type, actor, reason)
    values (${projectId}, ${itemId}, 'edited', ${snapshot}::jsonb, ${snapshot}::jsonb, 'user', 'api', ${`had ${github}`})`.execute(
    ctx.database.db,
  );
  const runId = newId();
  await sql`insert into hygiene_runs (id, project_id, mode, trigger, requested_by, status)
    values (${runId}, ${projectId}, 'apply', 'operator', 'admin-token', 'completed')`.execute(ctx.database.db);
  await sql`insert into hygiene_proposals (id, project_id, run_id, kind, rule, item_ids, fingerprint, detail, reason, status)
    values (${newId()}, ${projectId}, ${runId}, 'edit', 'weak', ${[itemId]}::text[], 'fp', ${JSON.stringify({ problems: [`title names ${stripe}`] })}::jsonb, 'weak title', 'pending')`.execute(
    ctx.database.db,
  );
  await sql`insert into hygiene_changes (id, project_id, run_id, item_id, rule, before, after, reason, applied)
    values (${newId()}, ${projectId}, ${runId}, ${itemId}, 'stale', ${snapshot}::jsonb, ${snapshot}::jsonb, 'stale', true)`.execute(
    ctx.database.db,
  );
  // What the entity store derived from those events before they were redacted.
  await sql`insert into entities (project_id, kind, name, base, first_seen_at, last_seen_at)
    values (${projectId}, 'symbol', ${github}, ${github}, now(), now())`.execute(ctx.database.db);
  await sql`insert into error_occurrences (project_id, session_id, event_id, signature, occurred_at, command)
    values (${projectId}, 'legacy', 'legacy-e2', 'connection refused', now(), ${`psql postgres://app:${password}@db/app`})`.execute(
    ctx.database.db,
  );
  otherProject = (await ctx.server.app.get(ProjectRepository).createWithKey(`team ${github}`)).projectId;
});

describe('memex redact', () => {
  it('reports what it would redact, by table and rule, and changes nothing without --apply', async () => {
    const before = await dumpDatabase(ctx.database.db);
    // The brain as it was cached: the secret is in it.
    expect(await brainDocument()).toContain(stripe);

    const run = await memex([], { MEMEX_API_KEY: ctx.project.apiKey });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^events\s+3\s+2\s+github-token 1, password 2$/m);
    expect(run.stdout).toMatch(/^items\s+1\s+1\s+stripe-key 2, password 1$/m);
    expect(run.stdout).toMatch(/^history\s+1\s+1\s+stripe-key 2, github-token 1$/m);
    expect(run.stdout).toMatch(/^hygiene-changes\s+1\s+1\s+stripe-key 2$/m);
    expect(run.stdout).toMatch(/^hygiene-proposals\s+1\s+1\s+stripe-key 1$/m);
    expect(run.stdout).toMatch(/^sessions\s+1\s+1\s+github-token 1$/m);
    // A project key sees its own project only: the other project's name is not counted.
    expect(run.stdout).toMatch(/^projects\s+1\s+0\s+-$/m);
    expect(run.stdout).toMatch(/^entities\s+1\s+1\s+github-token 2$/m);
    expect(run.stdout).toMatch(/^error-occurrences\s+1\s+1\s+password 1$/m);
    expect(run.stdout).toContain('Would redact (dry run; --apply rewrites): 16 secret(s) in 9 row(s).');
    expect(await dumpDatabase(ctx.database.db)).toBe(before);
  });

  it('rewrites every table of every project with --apply, bumps the revision and records it in history', async () => {
    const revision = async () =>
      (
        await ctx.database.db
          .selectFrom('projects')
          .select('memory_revision')
          .where('id', '=', ctx.project.projectId)
          .executeTakeFirstOrThrow()
      ).memory_revision;
    const revisionBefore = await revision();

    const run = await memex(['--apply'], { MEMEX_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Redacted: 17 secret(s) in 10 row(s).');

    const dump = await dumpDatabase(ctx.database.db);
    for (const secret of secrets) expect(dump).not.toContain(secret);
    const item = await ctx.database.db
      .selectFrom('memory_items')
      .selectAll()
      .where('id', '=', itemId)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({
      title: 'Billing uses [REDACTED:stripe-key]',
      facts: 'Connect with postgres://billing:[REDACTED:password]@db/billing',
      evidence_spans: [{ eventId: 'e1', quote: 'key [REDACTED:stripe-key]' }],
    });
    expect(await revision()).toBe(revisionBefore + 1);
    const history = await ctx.database.db
      .selectFrom('item_history')
      .select(['change', 'actor_type', 'reason'])
      .where('item_id', '=', itemId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(history).toEqual({
      change: 'redacted',
      actor_type: 'operator',
      reason: 'secrets replaced by memex redact: stripe-key ×2, password ×1',
    });
    // The cached brain went with the old revision.
    const brain = await brainDocument();
    expect(brain).toContain('[REDACTED:stripe-key]');
    expect(brain).not.toContain(stripe);
    const project = await ctx.database.db
      .selectFrom('projects')
      .select('name')
      .where('id', '=', otherProject)
      .executeTakeFirstOrThrow();
    expect(project.name).toBe('team [REDACTED:github-token]');
    // An entity named by a secret is gone (its redacted name could be another's); an error's command is rewritten.
    const derived = await sql<{ entities: number; command: string }>`
      select (select count(*)::int from entities where project_id = ${ctx.project.projectId}) as entities,
             (select command from error_occurrences where event_id = 'legacy-e2') as command`.execute(ctx.database.db);
    expect(derived.rows[0]).toEqual({ entities: 0, command: 'psql postgres://app:[REDACTED:password]@db/app' });
  });

  it('finds nothing the second time', async () => {
    const run = await memex(['--apply', '--json'], { MEMEX_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ mode: 'apply', secrets: 0, changed: 0, skipped: 0 });
  });
});

describe('POST /api/v2/redaction/pass', () => {
  const pass = (body: unknown, key = ctx.project.apiKey) =>
    request<Record<string, unknown>>(`${ctx.server.url}/api/v2/redaction/pass`, { key, body });

  it('steps a page at a time through each table, naming where to go on', async () => {
    const first = await pass({ limit: 1 });
    expect(first.body).toMatchObject({
      table: 'projects',
      scanned: 1,
      nextCursor: `projects:${ctx.project.projectId}`,
    });
    const second = await pass({ limit: 1, cursor: first.body.nextCursor });
    expect(second.body).toMatchObject({ table: 'projects', scanned: 0, nextCursor: 'sessions:' });
    const proposals = await pass({ cursor: 'hygiene-proposals:' });
    expect(proposals.body).toMatchObject({ table: 'hygiene-proposals', nextCursor: 'entities:' });
    const last = await pass({ cursor: 'error-occurrences:' });
    expect(last.body).toMatchObject({ table: 'error-occurrences', nextCursor: null });
  });

  it('keeps a project key to its own project and refuses a malformed cursor', async () => {
    const other = await pass({ projectId: otherProject });
    expect([other.status, (other.body as unknown as ErrorBody).error.code]).toEqual([403, 'FORBIDDEN']);
    const bad = await pass({ cursor: 'users:1' });
    expect([bad.status, (bad.body as unknown as ErrorBody).error.message]).toEqual([
      400,
      expect.stringMatching(/^cursor: /),
    ]);
    const unknown = await pass({ projectId: newId() }, ADMIN_TOKEN);
    expect(unknown.status).toBe(404);
  });
});
