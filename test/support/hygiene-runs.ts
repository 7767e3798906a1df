import { request, type ErrorBody } from './http';
import type { TestAppContext } from './use-test-app';
import { waitFor } from './wait';

/** What the hygiene API answers, as the tests read it. */
export type Change = {
  changeId: string;
  itemId: string;
  rule: string;
  from: string;
  to: string;
  applied: boolean;
  reason: string;
  revertedAt: string | null;
};
export type Proposal = {
  proposalId: string;
  kind: string;
  rule: string;
  itemIds: string[];
  status: string;
  detail: Record<string, unknown>;
};
export type Run = {
  runId: string;
  status: string;
  mode: string;
  counts: Record<string, number>;
  itemsScanned: number;
  startedAt: string;
  finishedAt: string;
  changes: Change[];
  proposals: Proposal[];
  nextChangesAfter: string | null;
};

export const changeOf = (run: Run, itemId: string) => run.changes.find((c) => c.itemId === itemId);

/** Hygiene passes of the file's test app, started and waited for through the API. */
export function hygieneRuns(ctx: TestAppContext) {
  const url = (path: string) => `${ctx.server.url}${path}`;
  const db = () => ctx.database.db;

  async function startRun(mode: string, key = ctx.project.apiKey, projectId?: string): Promise<string> {
    const res = await request<{ runId: string; status: string }>(url('/api/v2/hygiene/runs'), {
      key,
      body: { mode, ...(projectId ? { projectId } : {}) },
    });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('queued');
    return res.body.runId;
  }

  async function finished(runId: string, key = ctx.project.apiKey, query = ''): Promise<Run> {
    let run: Run | undefined;
    await waitFor(async () => {
      const res = await request<Run>(url(`/api/v2/hygiene/runs/${runId}${query}`), { key });
      expect(res.status).toBe(200);
      run = res.body;
      return run.status === 'completed' || run.status === 'failed';
    });
    return run!;
  }

  /** Asks for a change to be reverted, with the file's project key: the answer, whatever it is. */
  function revert<T = ErrorBody>(changeId: string | undefined, body: { reason?: string } = {}) {
    return request<T>(url(`/api/v2/hygiene/changes/${changeId}/revert`), { key: ctx.project.apiKey, body });
  }

  return { url, db, startRun, finished, revert };
}
