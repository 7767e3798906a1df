import type { HygieneReviewRepository, HygieneRunRepository, HygieneRunRow, ProjectRepository } from '@memex/db';
import type { JobQueue } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import { HygieneReviewService } from './hygiene-review.service';

const P1 = '01JD00000000000000000PROJ1';
const P2 = '01JD00000000000000000PROJ2';
const RUN = {
  id: 'run-1',
  project_id: P1,
  mode: 'dry-run',
  trigger: 'operator',
  requested_by: 'project-key',
  status: 'queued',
  error: null,
  items_scanned: null,
  counts: null,
  created_at: new Date('2026-11-26T10:00:00Z'),
  started_at: null,
  finished_at: null,
} as unknown as HygieneRunRow;

function setUp({ projectExists = true } = {}) {
  const runs = fake<HygieneRunRepository>(
    { create: async () => RUN, markFailed: async () => undefined, list: async () => [RUN] },
    'runs',
  );
  const review = fake<HygieneReviewRepository>({}, 'review');
  const projects = fake<ProjectRepository>(
    { findById: async () => (projectExists ? { id: P1, name: 'shop', memoryRevision: 1 } : undefined) },
    'projects',
  );
  const jobs = fake<JobQueue>({ enqueue: async () => undefined }, 'jobs');
  return { service: new HygieneReviewService(runs, review, projects, jobs), runs, jobs };
}

const key = { kind: 'project' as const, projectId: P1 };
const admin = { kind: 'admin' as const };

describe('HygieneReviewService.start', () => {
  it('a project key starts a run of its own project, recorded before its job is queued', async () => {
    const { service, runs, jobs } = setUp();
    expect(await service.start(key, { mode: 'dry-run' })).toEqual({
      runId: 'run-1',
      projectId: P1,
      mode: 'dry-run',
      status: 'queued',
    });
    expect(runs.create).toHaveBeenCalledWith({
      projectId: P1,
      mode: 'dry-run',
      trigger: 'operator',
      requestedBy: 'project-key',
    });
    expect(jobs.enqueue).toHaveBeenCalledWith('hygienePass', {
      projectId: P1,
      mode: 'dry-run',
      trigger: 'operator',
      runId: 'run-1',
    });
    expect(runs.create.mock.invocationCallOrder[0]).toBeLessThan(jobs.enqueue.mock.invocationCallOrder[0]!);
  });

  it('refuses another project to a project key, and needs an existing project with the admin token', async () => {
    const { service, runs } = setUp();
    await expect(service.start(key, { mode: 'apply', projectId: P2 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(service.start(admin, { mode: 'apply' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      setUp({ projectExists: false }).service.start(admin, { mode: 'apply', projectId: P1 }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(runs.create).not.toHaveBeenCalled();
  });

  it('marks the run failed and answers QUEUE_UNAVAILABLE when its job cannot be queued', async () => {
    const { service, runs, jobs } = setUp();
    jobs.enqueue.mockRejectedValueOnce(new Error('Redis away'));
    await expect(service.start(key, { mode: 'dry-run' })).rejects.toMatchObject({
      code: 'QUEUE_UNAVAILABLE',
      details: { runId: 'run-1', cause: 'Redis away' },
    });
    expect(runs.markFailed).toHaveBeenCalledWith('run-1', 'the queue was unreachable; nothing ran');
  });
});

describe('HygieneReviewService.list', () => {
  it("lists a key's own project, and with the admin token the project named or every project", async () => {
    const { service, runs } = setUp();
    expect((await service.list(key, undefined, 20)).runs[0]).toMatchObject({
      runId: 'run-1',
      createdAt: '2026-11-26T10:00:00.000Z',
    });
    await service.list(admin, P2, 20);
    await service.list(admin, undefined, 20);
    expect(runs.list.mock.calls.map(([scope]) => scope)).toEqual([P1, P2, null]);
    await expect(service.list(key, P2, 20)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
