import { ITEM_TYPES } from '@memex/domain';
import { detectIntent, typeWeight, type Intent } from './intent';

describe('detectIntent', () => {
  it.each([
    ['Fix the login redirect', 'fix'],
    ['why does the ERROR banner show?', 'fix'],
    ['tests fail on CI', 'fix'],
    ['the worker crashed overnight', 'fix'],
    ['NullPointerException in the parser', 'fix'],
    ['TypeError: x is undefined', 'fix'],
    ['an exception in the parser', 'fix'],
    ['Explain the queue design', 'explain'],
    ['How does token refresh work', 'explain'],
    ['what is the brain document', 'explain'],
    ['Why postgres?', 'explain'],
    ['walk me through enrichment', 'explain'],
    ['where are sessions stored?', 'question'],
    ['add a retry to the webhook sender', 'action'],
  ])('%s → %s', (query, intent) => {
    expect(detectIntent(query)).toBe(intent);
  });

  it('matches whole words only', () => {
    expect(detectIntent('add a prefix to debugger output')).toBe('action');
    expect(detectIntent('somewhat isolated errorless mode')).toBe('action');
    expect(detectIntent('the anywhy module')).toBe('action');
  });
});

describe('typeWeight', () => {
  const top = (intent: Intent) => [...ITEM_TYPES].sort((a, b) => typeWeight(intent, b) - typeWeight(intent, a));

  it('puts BugFix first for a fix and CodeMapNode last', () => {
    expect(top('fix')[0]).toBe('BugFix');
    expect(top('fix').at(-1)).toBe('CodeMapNode');
    expect(typeWeight('fix', 'BugFix')).toBeGreaterThan(typeWeight('fix', 'ImplementationFact'));
  });

  it('favours architecture and decisions to explain, and conventions, todos and facts to act', () => {
    expect(top('explain').slice(0, 2).sort()).toEqual(['ArchitectureNote', 'Decision']);
    expect(top('question').slice(0, 3).sort()).toEqual(['ArchitectureNote', 'Convention', 'Decision']);
    expect(top('action').slice(0, 3).sort()).toEqual(['Convention', 'ImplementationFact', 'Todo']);
    expect(typeWeight('explain', 'BugFix')).toBeLessThan(1);
  });

  it('has a positive weight for every intent and type', () => {
    for (const intent of ['fix', 'explain', 'question', 'action'] as const) {
      for (const type of ITEM_TYPES) expect(typeWeight(intent, type)).toBeGreaterThan(0);
    }
  });
});
