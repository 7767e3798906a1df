import { ITEM_LIMITS, MAX_EVIDENCE_SPANS, type ReinforceSaying, type ReinforceTarget } from '@memex/domain';
import { reinforce, resolvedAtOf } from './reinforce';

const AT = new Date('2026-11-21T09:30:00Z');
const EARLIER = new Date('2026-11-01T00:00:00Z');
const span = (eventId: string, quote = 'q') => ({ eventId, quote });

const target = (over: Partial<ReinforceTarget> = {}): ReinforceTarget => ({
  title: 'Release script publishes with `npm publish`',
  status: 'active',
  files: ['src/a.ts'],
  evidenceSpans: [span('e1')],
  salience: 0.4,
  resolvedAt: null,
  ...over,
});

const saying = (over: Partial<ReinforceSaying> = {}): ReinforceSaying => ({
  type: 'Decision',
  title: 'Release script publishes packages with `npm publish`',
  facts: 'Newer words.',
  files: ['src/b.ts', 'src/a.ts'],
  spans: [span('e2')],
  salience: 0.3,
  resolved: false,
  ...over,
});

describe('reinforce', () => {
  it('takes the newer facts and confidence, and the files and evidence of both', () => {
    expect(reinforce(target(), saying(), 0.9, AT)).toEqual({
      title: 'Release script publishes with `npm publish`',
      facts: 'Newer words.',
      confidence: 0.9,
      status: 'active',
      files: ['src/a.ts', 'src/b.ts'],
      evidenceRefs: ['e1', 'e2'],
      evidenceSpans: [span('e1'), span('e2')],
      salience: 0.4,
      lastReinforcedAt: AT,
      resolvedAt: null,
    });
  });

  it('takes the newer title where it says what the point has become, and keeps its own otherwise', () => {
    const now = saying({
      type: 'ImplementationFact',
      title: 'The release script now uses `bun publish` instead of `npm publish`',
    });
    expect(reinforce(target(), now, 0.9, AT).title).toBe(now.title);
    expect(reinforce(target(), saying({ type: 'ImplementationFact' }), 0.9, AT).title).toBe(
      'Release script publishes with `npm publish`',
    );
    // An item a person wrote keeps the title they gave it.
    expect(reinforce(target({ salience: null }), now, 0.9, AT).title).toBe(
      'Release script publishes with `npm publish`',
    );
  });

  it('brings a stale item back to active, and leaves other statuses as they are', () => {
    expect(reinforce(target({ status: 'stale' }), saying(), 0.8, AT).status).toBe('active');
    expect(reinforce(target({ status: 'review' }), saying(), 0.8, AT).status).toBe('review');
  });

  it('keeps the stronger salience, and none for an item that has none (written by a person)', () => {
    expect(reinforce(target({ salience: 0.2 }), saying({ salience: 0.7 }), 0.8, AT).salience).toBe(0.7);
    expect(reinforce(target({ salience: null }), saying({ salience: 0.7 }), 0.8, AT).salience).toBeNull();
  });

  it('caps files at their limit and evidence at the newest spans, a span said twice once', () => {
    const many = Array.from({ length: MAX_EVIDENCE_SPANS }, (_, i) => span(`old${i}`));
    const files = Array.from({ length: ITEM_LIMITS.files }, (_, i) => `f${i}.ts`);
    const r = reinforce(
      target({ evidenceSpans: many, files }),
      saying({ spans: [span('old0'), span('new')], files: ['extra.ts'] }),
      0.8,
      AT,
    );
    expect(r.evidenceSpans).toHaveLength(MAX_EVIDENCE_SPANS);
    expect(r.evidenceSpans.at(-1)).toEqual(span('new'));
    expect(r.evidenceSpans.filter((s) => s.eventId === 'old0')).toHaveLength(0);
    expect(r.files).toEqual(files);
  });

  it('keeps as many evidence refs as spans however often an item is said again: the events its kept spans quote', () => {
    let item = target();
    for (let i = 0; i < 3 * MAX_EVIDENCE_SPANS; i += 1) {
      const r = reinforce(item, saying({ spans: [span(`s${i}`, 'a'), span(`s${i}`, 'b')] }), 0.8, AT);
      item = { ...item, evidenceSpans: r.evidenceSpans, title: r.title };
      expect(r.evidenceRefs).toEqual([...new Set(r.evidenceSpans.map((s) => s.eventId))]);
    }
    const last = reinforce(item, saying({ spans: [span('last', 'a'), span('last', 'b')] }), 0.8, AT);
    expect(last.evidenceRefs).toHaveLength(MAX_EVIDENCE_SPANS / 2);
    expect(last.evidenceRefs.at(-1)).toBe('last');
    expect(last.evidenceRefs).not.toContain('e1');
  });

  it('resolves a fix or todo said resolved at the window, once, and never a decision', () => {
    expect(reinforce(target(), saying({ type: 'Todo', resolved: true }), 0.8, AT).resolvedAt).toEqual(AT);
    expect(
      reinforce(target({ resolvedAt: EARLIER }), saying({ type: 'BugFix', resolved: true }), 0.8, AT).resolvedAt,
    ).toEqual(EARLIER);
    expect(reinforce(target(), saying({ type: 'Decision', resolved: true }), 0.8, AT).resolvedAt).toBeNull();
    expect(resolvedAtOf('Todo', false, AT)).toBeNull();
  });
});
