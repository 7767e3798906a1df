import { type EngineEvent, type ExistingHint } from './candidate';
import { selectRelatedHints } from './hints';

function event(content: string, metadata: Record<string, unknown> | null = null): EngineEvent {
  return { seq: 1, eventId: 'evt-1', type: 'prompt', timestamp: new Date('2026-11-21T09:30:00Z'), content, metadata };
}

function hint(dedupHint: string, title = 'Untitled'): ExistingHint {
  return { dedupHint, type: 'Decision', title };
}

const hints = {
  one: hint('decision:kysely:queries', 'Untitled'), // kysely
  three: hint('bugfix:auth:token-refresh', 'Untitled'), // auth, token, refresh
  two: hint('convention:webhook:retry', 'Untitled'), // webhook, retry
  none: hint('todo:billing:invoices', 'Untitled'),
};

const BATCH = [event('Kysely handles auth token refresh and the webhook retry')];

describe('selectRelatedHints', () => {
  it('ranks hints by how many of their words occur in the batch', () => {
    const ranked = selectRelatedHints([hints.one, hints.three, hints.two], BATCH, 10);
    expect(ranked).toEqual([hints.three, hints.two, hints.one]);
  });

  it('returns at most `limit` hints, the best ones', () => {
    const all = [hints.one, hints.three, hints.two];
    expect(selectRelatedHints(all, BATCH, 2)).toEqual([hints.three, hints.two]);
    expect(selectRelatedHints(all, BATCH, 1)).toEqual([hints.three]);
    expect(selectRelatedHints(all, BATCH, 0)).toEqual([]);
  });

  it('leaves out hints sharing no word with the batch', () => {
    expect(selectRelatedHints([hints.none, hints.one], BATCH, 10)).toEqual([hints.one]);
    expect(selectRelatedHints([hints.none], BATCH, 10)).toEqual([]);
  });

  it('keeps the given order among hints with the same score', () => {
    const a = hint('decision:kysely:general');
    const b = hint('decision:webhook:general');
    const c = hint('decision:auth:general');
    expect(selectRelatedHints([a, b, c], BATCH, 10)).toEqual([a, b, c]);
    expect(selectRelatedHints([c, b, a], BATCH, 10)).toEqual([c, b, a]);
    expect(selectRelatedHints([b, hints.three, c, a], BATCH, 10)).toEqual([hints.three, b, c, a]);
  });

  it('counts significant words of the title', () => {
    const titled = hint('decision:storage:general', 'Webhook retries use exponential backoff');
    const batch = [event('The backoff for the webhook is exponential')];
    expect(selectRelatedHints([hints.two, titled], batch, 10)).toEqual([titled, hints.two]);
  });

  it('counts a word once even when topic, key and title all repeat it', () => {
    const repeated = hint('decision:kysely:kysely', 'Kysely');
    const broader = hint('decision:kysely:retry');
    expect(selectRelatedHints([repeated, broader], BATCH, 10)).toEqual([broader, repeated]);
  });

  it('does not count the category segment of a hint', () => {
    const batch = [event('The bugfix landed in the release branch')];
    expect(selectRelatedHints([hint('bugfix:payments:ledger')], batch, 10)).toEqual([]);
  });

  it('counts the directory words of an event metadata path', () => {
    const batch = [event('Updated the file.', { path: 'apps/billing/invoices/render.ts' })];
    expect(selectRelatedHints([hints.one, hints.none], batch, 10)).toEqual([hints.none]);
  });

  it('ignores a metadata path that is not a string', () => {
    const batch = [event('Updated the file.', { path: ['billing', 'invoices'] })];
    expect(selectRelatedHints([hints.none], batch, 10)).toEqual([]);
  });

  it('gathers words from every event of the batch', () => {
    const batch = [event('About kysely.'), event('About the webhook retry.')];
    expect(selectRelatedHints([hints.one, hints.two], batch, 10)).toEqual([hints.two, hints.one]);
  });

  it('only reads the first 4000 characters of an event', () => {
    const late = [event(`${'filler '.repeat(600)} kysely`)];
    expect(late[0]!.content.indexOf('kysely')).toBeGreaterThan(4000);
    expect(selectRelatedHints([hints.one], late, 10)).toEqual([]);
  });

  it('returns nothing for no hints or no events', () => {
    expect(selectRelatedHints([], BATCH, 10)).toEqual([]);
    expect(selectRelatedHints([hints.one], [], 10)).toEqual([]);
  });
});
