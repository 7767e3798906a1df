import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BrainApiModule } from '../../apps/brain-api/src';
import { HygieneWorkerModule } from '../../apps/hygiene-worker/src';
import { ProjectRepository } from '@memex/db';
import { request, type ErrorBody } from '../support/http';
import { insertItem, itemStatus } from '../support/items';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';
import { itServerOnly } from '../support/mode';
import { hygieneRuns } from '../support/hygiene-runs';

const ctx = useTestApp([BrainApiModule, HygieneWorkerModule], {
  env: { HYGIENE_INTERVAL_MS: '0', HYGIENE_CONCURRENCY: '2' },
});
const { url, db, startRun, finished } = hygieneRuns(ctx);

describe('hygiene access and bad input', () => {
  it('the admin token runs any project, and must name it', async () => {
    const missing = await request<ErrorBody>(url('/api/v2/hygiene/runs'), {
      key: ADMIN_TOKEN,
      body: { mode: 'apply' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    const unknown = await request<ErrorBody>(url('/api/v2/hygiene/runs'), {
      key: ADMIN_TOKEN,
      body: { mode: 'apply', projectId: '01JD0000000000000000000000' },
    });
    expect(unknown.status).toBe(404);
    const runId = await startRun('dry-run', ADMIN_TOKEN, ctx.project.projectId);
    expect((await finished(runId, ADMIN_TOKEN)).status).toBe('completed');
    // The project's own key sees the run too.
    expect((await request(url(`/api/v2/hygiene/runs/${runId}`), { key: ctx.project.apiKey })).status).toBe(200);
  });

  it("a project key reaches only its own project's runs", async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other');
    const denied = await request<ErrorBody>(url('/api/v2/hygiene/runs'), {
      key: other.apiKey,
      body: { mode: 'apply', projectId: ctx.project.projectId },
    });
    expect(denied.status).toBe(403);
    const runId = await startRun('dry-run');
    const hidden = await request<ErrorBody>(url(`/api/v2/hygiene/runs/${runId}`), { key: other.apiKey });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('RUN_NOT_FOUND');
    const list = await request<{ runs: Array<{ projectId: string }> }>(url('/api/v2/hygiene/runs'), {
      key: other.apiKey,
    });
    expect(list.body.runs).toEqual([]);
  });

  it("a project key cannot decide another project's proposals or revert its changes", async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('outsider');
    const p = ctx.project.projectId;
    await insertItem(db(), p, { type: 'CodeMapNode', title: 'Route: src/app/billing/page.tsx' });
    const twin = { type: 'Todo', title: 'Pin the node image digest', facts: 'Pin node:20 by digest.' };
    await insertItem(db(), p, twin);
    await insertItem(db(), p, twin);
    const run = await finished(await startRun('apply'));
    const change = run.changes.find((c) => c.rule === 'archive-code-map')!;
    const proposal = run.proposals.find((x) => x.kind === 'merge')!;
    for (const path of [
      `/api/v2/hygiene/proposals/${proposal.proposalId}/apply`,
      `/api/v2/hygiene/proposals/${proposal.proposalId}/reject`,
      `/api/v2/hygiene/changes/${change.changeId}/revert`,
    ]) {
      const res = await request<ErrorBody>(url(path), { key: other.apiKey, body: {} });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    const proposalRow = await db()
      .selectFrom('hygiene_proposals')
      .select('status')
      .where('id', '=', proposal.proposalId)
      .executeTakeFirstOrThrow();
    expect(proposalRow.status).toBe('pending');
    expect(await itemStatus(db(), change.itemId)).toBe('archived');
  });

  it.each([
    ['no credentials', undefined, { mode: 'apply' }, 401],
    ['a junk token', 'not-a-key-or-token', { mode: 'apply' }, 401],
    ['an unknown mode', 'project', { mode: 'tidy' }, 400],
    ['an unknown field', 'project', { mode: 'apply', force: true }, 400],
    ['a malformed project id', 'project', { mode: 'apply', projectId: 'x' }, 400],
  ])('answers %s with a JSON error', async (_name, who, body, status) => {
    const key = who === 'project' ? ctx.project.apiKey : who;
    const res = await request<ErrorBody>(url('/api/v2/hygiene/runs'), { key, body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toEqual(expect.any(String));
  });

  it.each([
    ['GET', '/api/v2/hygiene/runs/01JD0000000000000000000000', 404, 'RUN_NOT_FOUND'],
    ['GET', '/api/v2/hygiene/runs/nope', 400, 'VALIDATION_FAILED'],
    ['GET', '/api/v2/hygiene/runs/01JD0000000000000000000000?limit=0', 400, 'VALIDATION_FAILED'],
    ['POST', '/api/v2/hygiene/proposals/01JD0000000000000000000000/apply', 404, 'PROPOSAL_NOT_FOUND'],
    ['POST', '/api/v2/hygiene/proposals/01JD0000000000000000000000/reject', 404, 'PROPOSAL_NOT_FOUND'],
    ['POST', '/api/v2/hygiene/changes/01JD0000000000000000000000/revert', 404, 'CHANGE_NOT_FOUND'],
  ])('%s %s → %i %s', async (method, path, status, code) => {
    const res = await request<ErrorBody>(url(path), {
      method,
      key: ctx.project.apiKey,
      ...(method === 'POST' ? { body: {} } : {}),
    });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });
});

describe('queue board', () => {
  itServerOnly(
    'asks for the admin token, and shows every queue with it',
    "Bull Board reads BullMQ's queues in Redis",
    async () => {
      const anonymous = await fetch(url('/admin/queues'));
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(((await anonymous.json()) as ErrorBody).error.code).toBe('UNAUTHORIZED');
      const projectKey = await fetch(url('/admin/queues'), {
        headers: { authorization: `Bearer ${ctx.project.apiKey}` },
      });
      // A project key is not a wrong admin token: it opens its own project, not the board.
      expect(projectKey.status).toBe(403);

      const page = await fetch(url('/admin/queues'), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const basic = `Basic ${Buffer.from(`ops:${ADMIN_TOKEN}`).toString('base64')}`;
      const api = await fetch(url('/admin/queues/api/queues'), { headers: { authorization: basic } });
      expect(api.status).toBe(200);
      const { queues } = (await api.json()) as { queues: Array<{ name: string }> };
      expect(queues.map((q) => q.name).sort()).toEqual(['embedding', 'enrichment', 'hygiene']);
    },
  );
});

describe('memex hygiene (command line)', () => {
  const cli = join(__dirname, '..', '..', 'bin', 'memex');
  const run = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(cli, args, { env: { PATH: process.env.PATH!, MEMEX_URL: ctx.server.url, ...env } });

  it('runs a dry run and prints a readable table of what would change', async () => {
    await insertItem(db(), ctx.project.projectId, { type: 'CodeMapNode', title: 'Route: src/app/settings/page.tsx' });
    const { stdout } = await run(['hygiene', 'run', '--project', ctx.project.projectId, '--mode', 'dry-run'], {
      MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    expect(stdout).toMatch(/^Hygiene run \w{26} \(dry-run, operator\) on project \w{26}: completed, \d+ items scanned/);
    expect(stdout).toMatch(
      /Changes that would be made \(dry run\):\nCHANGE\s+RULE\s+ITEM\s+FROM → TO\s+TITLE\s+REASON/,
    );
    expect(stdout).toMatch(/archive-code-map\s+\w{26}\s+active → archived\s+Route: src\/app\/settings\/page\.tsx/);
  });

  it('fails with the API error and exit code 1', async () => {
    const failure = await run(['hygiene', 'run', '--mode', 'apply'], { MEMEX_ADMIN_TOKEN: ADMIN_TOKEN }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failure).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/VALIDATION_FAILED: projectId is required/),
    });
  });
});
