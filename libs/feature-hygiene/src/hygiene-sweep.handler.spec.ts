import type { Config } from '@memex/config';
import type { HygieneRunRepository, ProjectRepository } from '@memex/db';
import type { JobQueue } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import { HygieneSweepHandler } from './hygiene-sweep.handler';

type LostRun = Awaited<ReturnType<HygieneRunRepository['queuedSince']>>[number];

function setUp(projectPages: string[][], lostPages: LostRun[][]) {
  const projects = fake<ProjectRepository>({ pageIds: async () => projectPages.shift() ?? [] }, 'projects');
  const runs = fake<HygieneRunRepository>(
    { queuedSince: async () => lostPages.shift() ?? [], pruneIdle: async () => 4 },
    'runs',
  );
  const jobs = fake<JobQueue>({ enqueueMany: async () => undefined }, 'jobs');
  const handler = new HygieneSweepHandler(projects, runs, jobs, { HYGIENE_SCHEDULED_MODE: 'apply' } as Config);
  return { handler, projects, runs, jobs };
}

describe('HygieneSweepHandler', () => {
  it('asks one scheduled pass per project, page after page, each deduplicated by its project', async () => {
    const { handler, projects, jobs } = setUp([['P1', 'P2'], ['P3'], []], []);
    expect(await handler.handle({})).toEqual({ projects: 3, prunedRuns: 4, requeuedRuns: 0 });
    expect(projects.pageIds.mock.calls.map(([after]) => after)).toEqual([null, 'P2', 'P3']);
    expect(jobs.enqueueMany).toHaveBeenCalledWith(
      'hygienePass',
      [
        { projectId: 'P1', mode: 'apply', trigger: 'schedule' },
        { projectId: 'P2', mode: 'apply', trigger: 'schedule' },
      ],
      { dedupe: {} },
    );
  });

  it("sends an operator's run that lost its job round again, as the same run", async () => {
    const lost = [{ id: 'run-9', project_id: 'P1', mode: 'dry-run' }] as LostRun[];
    const { handler, runs, jobs } = setUp([[]], [lost, []]);
    expect((await handler.handle({})).requeuedRuns).toBe(1);
    expect(runs.queuedSince).toHaveBeenCalledWith(15, null, 500);
    expect(jobs.enqueueMany).toHaveBeenCalledWith('hygienePass', [
      { projectId: 'P1', mode: 'dry-run', trigger: 'operator', runId: 'run-9' },
    ]);
  });
});
