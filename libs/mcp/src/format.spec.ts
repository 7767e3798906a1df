import { formatContextPack, formatDecisions, formatItem, formatSearchResults } from './format';
import { memoryErrorFrom, type ItemView } from './memory-port';

const item: ItemView = {
  itemId: '01JCX0000000000000000000AA',
  type: 'Decision',
  status: 'active',
  title: 'Use Postgres',
  facts: 'Postgres holds items.\nQdrant is optional.',
  rationale: 'One database to run.',
  files: ['libs/db/src/index.ts'],
  tags: [],
  confidence: 0.9,
  sessionId: 'manual',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};

describe('MCP formatting', () => {
  it('shows an item with its id, rationale and files', () => {
    const text = formatItem(item);
    expect(text).toContain('Decision · active · confidence 0.9 · updated 2026-11-21 · id 01JCX0000000000000000000AA');
    expect(text).toContain('Rationale: One database to run.');
    expect(text).toContain('Files: libs/db/src/index.ts');
    expect(formatItem({ ...item, rationale: null, files: [] })).not.toMatch(/Rationale|Files/);
  });

  it('says so when nothing matches or nothing is relevant', () => {
    expect(formatSearchResults('queues', [])).toBe('No memory items match "queues".');
    expect(formatContextPack({ content: ' ', tokenCount: 0, truncated: false, components: [] })).toMatch(/^Nothing/);
    expect(formatDecisions([])).toMatch(/No active decisions/);
  });

  it('lists results with their ids and one-line snippets', () => {
    const text = formatSearchResults('postgres', [
      {
        itemId: item.itemId,
        score: 0.03,
        snippet: 'uses <b>Postgres</b>\n for items',
        item: { type: 'Decision', status: 'active', title: 'Use Postgres', files: [] },
      },
    ]);
    expect(text).toBe(
      `1 item(s) for "postgres":\n1. [Decision, active] Use Postgres — id ${item.itemId}\n   uses <b>Postgres</b> for items`,
    );
  });

  it('puts a decision on one line with its reason', () => {
    expect(formatDecisions([item])).toContain('Postgres holds items. Qdrant is optional.\n  Why: One database to run.');
  });

  it('names API errors after the tool arguments', () => {
    expect(memoryErrorFrom('VALIDATION_FAILED', 'q: at most 32 words').message).toBe('query: at most 32 words');
  });
});
