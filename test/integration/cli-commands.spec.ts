import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { MEMEX_BIN, runCli } from '../support/processes';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);
const FIXTURE = join(__dirname, '..', 'fixtures', 'claude-code', 'session-discount-fix.jsonl');
const SESSION = '7c1e2a90-5b3d-4f7e-9a61-2d8c4b0e1f35';

/** The CLI against the test app with the project's key, and no local project to fall back on. */
function memex(args: string[], env: Record<string, string> = {}) {
  return runCli(args, {
    MEMEX_URL: ctx.server.url,
    MEMEX_API_KEY: ctx.project.apiKey,
    MEMEX_LOCAL_STATE_DIR: mkdtempSync(join(tmpdir(), 'memex-none-')),
    ...env,
  });
}

async function rememberJson(type: string, title: string, facts: string): Promise<{ itemId: string }> {
  const run = await memex(['remember', '--type', type, '--title', title, '--facts', facts, '--json']);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as { itemId: string };
}

async function eventCount(): Promise<number> {
  const row = await ctx.database.db
    .selectFrom('raw_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('project_id', '=', ctx.project.projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('memex remember, item, items', () => {
  it('writes an item by hand and shows it with its history', async () => {
    const run = await memex([
      'remember',
      '--type',
      'Decision',
      '--title',
      'Money is stored in integer cents',
      '--facts',
      'Every amount column is a bigint of cents; floats rounded totals wrong.',
      '--file',
      'src/money.ts',
      '--tag',
      'billing',
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [, itemId] = /^Remembered Decision (\w{26}) \(active\): Money is stored in integer cents$/.exec(
      run.stdout.trim(),
    )!;

    const shown = await memex(['item', itemId!]);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain(`Decision ${itemId} (active): Money is stored in integer cents`);
    expect(shown.stdout).toMatch(/^facts:\s+Every amount column is a bigint of cents/m);
    expect(shown.stdout).toMatch(/^files:\s+src\/money\.ts$/m);
    expect(shown.stdout).toMatch(/^tags:\s+billing$/m);
    expect(shown.stdout).toMatch(/History:\nWHEN\s+CHANGE\s+BY\s+FIELDS\s+REASON\n[- ]+\n\S+ \S+\s+created\s+user:api/);

    const json = JSON.parse((await memex(['item', itemId!, '--json'])).stdout) as {
      item: { itemId: string; confidence: number };
      history: Array<{ change: string }>;
    };
    expect(json.item).toMatchObject({ itemId, confidence: 1 });
    expect(json.history.map((h) => h.change)).toEqual(['created']);
  });

  it('lists items a page at a time, filtered, and says how to get the next page', async () => {
    const first = await rememberJson('Convention', 'Branches are named after tickets', 'feature/SHOP-123-short-name.');
    const second = await rememberJson(
      'Convention',
      'Commits follow conventional commits',
      'feat:, fix:, chore: prefixes.',
    );

    const page = await memex(['items', '--type', 'Convention', '--limit', '1']);
    expect(page).toMatchObject({ code: 0, stderr: '' });
    const lines = page.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ITEM\s+TYPE\s+STATUS\s+CONF\s+UPDATED\s+TITLE$/);
    // Newest first.
    expect(lines[2]).toMatch(new RegExp(`^${second.itemId}\\s+Convention\\s+active\\s+1\\.00\\s+.*Commits follow`));
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe(`More: memex items --type Convention --limit 1 --cursor ${second.itemId}`);

    const next = await memex(['items', '--type', 'Convention', '--limit', '1', '--cursor', second.itemId]);
    expect(next.stdout).toContain(first.itemId);
    expect(next.stdout).not.toContain('More:');

    const all = JSON.parse(
      (await memex(['items', '--type', 'Convention', '--limit', '1', '--all', '--json'])).stdout,
    ) as {
      items: Array<{ itemId: string }>;
      nextCursor: string | null;
    };
    expect(all).toEqual({
      items: [expect.objectContaining({ itemId: second.itemId }), expect.objectContaining({ itemId: first.itemId })],
      nextCursor: null,
    });

    const none = await memex(['items', '--status', 'archived']);
    expect(none).toMatchObject({ code: 0, stdout: 'No items.\n' });
  });

  it('fails with the API error, a non-zero exit code and nothing on stdout', async () => {
    const badStatus = await memex(['items', '--status', 'gone']);
    expect(badStatus.code).toBe(1);
    expect(badStatus.stdout).toBe('');
    expect(badStatus.stderr).toMatch(/^memex items: VALIDATION_FAILED: status: /);

    const unknown = await memex(['item', '01ARZ3NDEKTSV4RRFFQ69G5FAV']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^memex item: ITEM_NOT_FOUND: no item 01ARZ3NDEKTSV4RRFFQ69G5FAV in this project/);

    const incomplete = await memex(['remember', '--type', 'Decision']);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toMatch(
      /^memex remember: memex remember needs --title, --facts\n\nusage: memex remember/,
    );

    const down = await memex(['items'], { MEMEX_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^memex items: Memex is not reachable at http:\/\/127\.0\.0\.1:9/);

    const bogus = await memex(['frobnicate']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^memex: unknown command frobnicate\n\nusage: memex <command>/);
  });

  it('acts on the project --project names with the admin token, and says it needs one', async () => {
    const admin = { MEMEX_API_KEY: '', MEMEX_ADMIN_TOKEN: ADMIN_TOKEN };
    const run = await memex(['items', '--json', '--project', ctx.project.projectId], admin);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { items: unknown[] }).items.length).toBeGreaterThan(0);

    const without = await memex(['items'], admin);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/VALIDATION_FAILED: X-Memex-Project: the admin token acts on the project/);
  });
});

describe('memex search and brain', () => {
  beforeAll(async () => {
    await rememberJson(
      'BugFix',
      'Cart discount crashed on an empty rule',
      'applyDiscount now skips rules with no items.',
    );
  });

  it('finds items for a question in words', async () => {
    const run = await memex(['search', 'cart', 'discount']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^ITEM\s+TYPE\s+STATUS\s+SCORE\s+TITLE\s+SNIPPET$/m);
    expect(run.stdout).toMatch(/^\w{26}\s+BugFix\s+active\s+\d\.\d{3}\s+Cart discount crashed on an empty rule/m);

    const json = JSON.parse((await memex(['search', 'cart discount', '--json', '--type', 'BugFix'])).stdout) as {
      results: Array<{ item: { title: string } }>;
    };
    expect(json.results[0]?.item.title).toBe('Cart discount crashed on an empty rule');

    const nothing = await memex(['search', 'kubernetes']);
    expect(nothing.stdout).toBe('Nothing found for "kubernetes".\n');
    const empty = await memex(['search']);
    expect(empty.code).toBe(2);
  });

  it("prints the brain's markdown, or the API's JSON, within a token budget", async () => {
    const run = await memex(['brain', '--tokens', '1000']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('Money is stored in integer cents');
    const json = JSON.parse((await memex(['brain', '--json'])).stdout) as { document: string; brainHash: string };
    expect(json.document).toContain('Money is stored in integer cents');
    expect(json.brainHash).toMatch(/\S/);

    const tooSmall = await memex(['brain', '--tokens', '5']);
    expect(tooSmall.code).toBe(1);
    expect(tooSmall.stderr).toMatch(/^memex brain: VALIDATION_FAILED: tokenBudget: /);
  });
});

describe('memex import', () => {
  it('sends the transcripts of a folder as the hooks would, and sends nothing new the second time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memex-import-'));
    copyFileSync(FIXTURE, join(dir, `${SESSION}.jsonl`));
    // Last written an hour ago: the session is over.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(dir, `${SESSION}.jsonl`), anHourAgo, anHourAgo);
    // A subagent's transcript and other files are not sessions.
    writeFileSync(join(dir, 'agent-1f2e.jsonl'), '{"type":"user","uuid":"a","message":{"content":"x"}}\n');
    writeFileSync(join(dir, 'notes.txt'), 'not a transcript');
    const before = await eventCount();

    const first = await memex(['import', dir]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const [line, summary] = first.stdout.trim().split('\n');
    const [, events] = new RegExp(`^${SESSION}: (\\d+) events \\(\\1 new, 0 already there\\)$`).exec(line!)!;
    expect(Number(events)).toBeGreaterThan(5);
    expect(summary).toBe(`Imported 1 session(s) from ${dir}: ${events} events, ${events} new, 0 already there.`);
    const after = await eventCount();
    expect(after - before).toBe(Number(events));
    const session = await ctx.database.db
      .selectFrom('sessions')
      .select(['completed_at', 'branch', 'ended_seq', 'last_event_seq'])
      .where('external_id', '=', SESSION)
      .executeTakeFirstOrThrow();
    expect(session.completed_at).not.toBeNull();
    expect(session.branch).toBe('main');
    // A transcript not written for a while has ended: its last turn is read however it stops.
    expect(session.ended_seq).toBe(session.last_event_seq);

    const again = await memex(['import', dir, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      dir,
      events: Number(events),
      accepted: 0,
      duplicates: Number(events),
      sessions: [{ sessionId: SESSION, accepted: 0, duplicates: Number(events) }],
    });
    expect(await eventCount()).toBe(after);
  });

  it('completes a session whose transcript is still being written without saying it ended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memex-import-live-'));
    const live = 'd1f0c3a2-6e4b-4c8d-9f10-3b5a7c9e2d41';
    const line = (uuid: string, type: string, content: unknown) =>
      JSON.stringify({ type, uuid, timestamp: new Date().toISOString(), message: { role: type, content } });
    writeFileSync(
      join(dir, `${live}.jsonl`),
      `${line('0b7e2c1a-1111-4a2b-8c3d-000000000001', 'user', 'add a retry to the export job')}\n${line(
        '0b7e2c1a-1111-4a2b-8c3d-000000000002',
        'assistant',
        [{ type: 'text', text: 'Reading the export job first.' }],
      )}\n`,
    );
    expect(await memex(['import', dir])).toMatchObject({ code: 0, stderr: '' });
    const session = await ctx.database.db
      .selectFrom('sessions')
      .select(['completed_at', 'ended_seq'])
      .where('external_id', '=', live)
      .executeTakeFirstOrThrow();
    expect(session.completed_at).not.toBeNull();
    expect(session.ended_seq).toBeNull();
  });

  it("reads this project's folder under Claude Code's projects by default, and says when there is none", async () => {
    const config = mkdtempSync(join(tmpdir(), 'memex-claude-'));
    const folder = join(config, 'projects', '-home-dev-projects-shop-api');
    mkdirSync(folder, { recursive: true });
    copyFileSync(FIXTURE, join(folder, `${SESSION}.jsonl`));
    const run = await memex(['import'], {
      CLAUDE_CONFIG_DIR: config,
      CLAUDE_PROJECT_DIR: '/home/dev/projects/shop-api',
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`Imported 1 session(s) from ${folder}:`);

    const missing = await memex(['import'], { CLAUDE_CONFIG_DIR: config, CLAUDE_PROJECT_DIR: '/home/dev/other' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `memex import: no transcripts at ${join(config, 'projects', '-home-dev-other')} (Claude Code has not run in this project?)\n`,
    );
  });
});

describe('bin/memex without its build', () => {
  /** A checkout whose build is missing: the launcher alone. */
  const unbuilt = () => {
    const root = mkdtempSync(join(tmpdir(), 'memex-unbuilt-'));
    mkdirSync(join(root, 'bin'));
    copyFileSync(MEMEX_BIN, join(root, 'bin', 'memex'));
    return join(root, 'bin', 'memex');
  };

  it('lets a hook pass with one line on stderr, and tells a person how to build it', async () => {
    const bin = unbuilt();
    const hook = spawnSync(process.execPath, [bin, 'hook', 'Stop'], { input: '{"session_id":"s"}', encoding: 'utf8' });
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe('');
    expect(hook.stderr).toMatch(
      /^memex hook: the CLI is not built \(no build\/cli\/apps\/cli\/src\/main\.js\); run `npm ci` or `npm run build:cli` in .+; nothing recorded\n$/,
    );

    const status = spawnSync(process.execPath, [bin, 'status'], { encoding: 'utf8' });
    expect(status.status).toBe(1);
    expect(status.stderr).toMatch(/^memex: the CLI is not built .*run `npm ci` or `npm run build:cli`/);
  });
});
