import { JOBS, QUEUES, assertHandlers } from './job-registry';

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
