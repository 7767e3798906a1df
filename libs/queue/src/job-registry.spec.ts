import { JOBS, QUEUES, assertHandlers, catchUpJobId, jobRequest } from './job-registry';

const enrich = { queue: QUEUES.enrichment, name: JOBS.enrichSession.name };

describe('assertHandlers', () => {
  it('passes when every job of the queue has exactly one handler', () => {
    expect(() => assertHandlers([QUEUES.enrichment], [enrich])).not.toThrow();
  });

  it('refuses a job with no handler', () => {
    expect(() => assertHandlers([QUEUES.enrichment], [])).toThrow(/enrich-session has 0 handlers/);
  });

  it('refuses a job with two handlers', () => {
    expect(() => assertHandlers([QUEUES.enrichment], [enrich, enrich])).toThrow(/enrich-session has 2 handlers/);
  });

  it('refuses a handler for a job that does not exist', () => {
    expect(() => assertHandlers([QUEUES.enrichment], [enrich, { queue: 'enrichment', name: 'nope' }])).toThrow(
      /unknown job enrichment\/nope/,
    );
  });

  it('ignores queues the process does not consume', () => {
    expect(() => assertHandlers([], [])).not.toThrow();
  });
});

describe('enrichSession payload', () => {
  const ids = { projectId: '01JD0000000000000000000000', sessionId: '01JD0000000000000000000001' };
  it('accepts ids only', () => {
    expect(JOBS.enrichSession.schema.parse(ids)).toEqual(ids);
  });
  it('rejects anything beyond ids, so payloads never carry event content', () => {
    expect(JOBS.enrichSession.schema.safeParse({ ...ids, content: 'x' }).success).toBe(false);
    expect(JOBS.enrichSession.schema.safeParse({ projectId: 'nope', sessionId: ids.sessionId }).success).toBe(false);
  });
});

describe('hygiene payloads', () => {
  const projectId = '01JD0000000000000000000000';
  it('a pass names its project and mode; an operator run also its run', () => {
    const run = { projectId, mode: 'apply', trigger: 'operator', runId: '01JD0000000000000000000001' };
    expect(JOBS.hygienePass.schema.parse(run)).toEqual(run);
    expect(JOBS.hygienePass.schema.parse({ projectId, mode: 'dry-run', trigger: 'schedule' })).toBeTruthy();
  });
  it.each([
    { projectId, mode: 'tidy', trigger: 'operator' },
    { projectId, mode: 'apply', trigger: 'cron' },
    { projectId: 'x', mode: 'apply', trigger: 'operator' },
    { projectId, mode: 'apply', trigger: 'operator', extra: 1 },
  ])('refuses %o', (payload) => {
    expect(JOBS.hygienePass.schema.safeParse(payload).success).toBe(false);
  });
  it('a sweep carries nothing', () => {
    expect(JOBS.hygieneSweep.schema.safeParse({}).success).toBe(true);
    expect(JOBS.hygieneSweep.schema.safeParse({ projectId }).success).toBe(false);
  });
});

describe('jobRequest: one place a job is built', () => {
  const projectId = '01JD0000000000000000000000';
  const sessionId = '01JD0000000000000000000001';

  it('checks the payload and takes the queue, name and options from the registry', () => {
    const job = jobRequest('enrichSession', { projectId, sessionId });
    expect(job).toEqual({
      queue: 'enrichment',
      name: 'enrich-session',
      data: { projectId, sessionId },
      opts: JOBS.enrichSession.options,
    });
    expect(() => jobRequest('enrichSession', { projectId, sessionId: 'nope' })).toThrow();
  });

  it('deduplicates by the id the registry defines, only when asked, for the time given', () => {
    expect(
      jobRequest('enrichSession', { projectId, sessionId }, { dedupe: { ttlMs: 2000 }, delayMs: 2000 }).opts,
    ).toMatchObject({
      delay: 2000,
      deduplication: { id: `enrich-${sessionId}`, ttl: 2000 },
    });
    expect(jobRequest('syncEmbeddings', { projectId }, { dedupe: {} }).opts.deduplication).toEqual({
      id: `embed:${projectId}`,
    });
    expect(jobRequest('syncEmbeddings', { projectId }).opts.deduplication).toBeUndefined();
  });

  it('gives an operator’s hygiene run its own job id, and a scheduled pass a per-project dedup id', () => {
    const runId = '01JD0000000000000000000002';
    const operator = jobRequest(
      'hygienePass',
      { projectId, mode: 'apply', trigger: 'operator', runId },
      { dedupe: {} },
    );
    expect(operator.opts).toMatchObject({ jobId: `run-${runId}` });
    expect(operator.opts.deduplication).toBeUndefined();
    const scheduled = jobRequest('hygienePass', { projectId, mode: 'dry-run', trigger: 'schedule' }, { dedupe: {} });
    expect(scheduled.opts).toMatchObject({ deduplication: { id: `hygiene-scheduled:${projectId}` } });
  });

  it('lets the caller name the work instead', () => {
    const jobId = catchUpJobId('complete', sessionId, 42);
    expect(jobId).toBe(`complete-${sessionId}-42`);
    expect(jobRequest('enrichSession', { projectId, sessionId }, { jobId, dedupe: {} }).opts).toMatchObject({ jobId });
  });
});
