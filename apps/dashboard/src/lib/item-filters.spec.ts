import { NO_FILTERS, listQuery, searchQuery } from './item-filters';

const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('listQuery', () => {
  it('sends nothing for empty filters', () => {
    expect(listQuery(NO_FILTERS, NOW)).toEqual({});
  });

  it('turns an age into an updated-before or -after instant', () => {
    expect(listQuery({ ...NO_FILTERS, age: 'newer-7' }, NOW)).toEqual({ updatedAfter: '2026-11-14T12:00:00.000Z' });
    expect(listQuery({ ...NO_FILTERS, age: 'older-30' }, NOW)).toEqual({ updatedBefore: '2026-10-22T12:00:00.000Z' });
  });

  it('trims text filters and lowercases a tag', () => {
    expect(listQuery({ ...NO_FILTERS, tag: ' Auth ', file: ' src/a.ts ', type: 'Decision' }, NOW)).toEqual({
      tag: 'auth',
      file: 'src/a.ts',
      type: 'Decision',
    });
  });
});

describe('searchQuery', () => {
  it('includes archived items when the status asked for is one of them', () => {
    expect(searchQuery({ ...NO_FILTERS, search: ' cache ', status: 'archived' })).toEqual({
      q: 'cache',
      limit: '50',
      status: 'archived',
      includeArchived: 'true',
    });
  });
});
