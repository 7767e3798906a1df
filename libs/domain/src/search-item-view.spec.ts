import { SEARCH_ITEM_FIELDS, toSearchItemView, type SearchItem } from './api-views';

describe('toSearchItemView', () => {
  it('answers with the search fields only, the date as ISO text', () => {
    const hit = {
      itemId: '01J0000000000000000000000A',
      type: 'Decision',
      status: 'active',
      title: 'Outbox for every email',
      confidence: 0.9,
      importance: 4,
      schemaKey: 'root/decisions',
      files: ['src/outbox.ts'],
      tags: ['email'],
      updatedAt: new Date('2026-11-21T09:30:00Z'),
      // What a search row also holds: never part of the answer's item.
      facts: 'Handlers write to the outbox table.',
      snippet: '…',
    } satisfies SearchItem & { facts: string; snippet: string };
    const view = toSearchItemView(hit);
    expect(Object.keys(view).sort()).toEqual([...SEARCH_ITEM_FIELDS].sort());
    expect(view.updatedAt).toBe('2026-11-21T09:30:00.000Z');
    expect(view.title).toBe('Outbox for every email');
  });
});
