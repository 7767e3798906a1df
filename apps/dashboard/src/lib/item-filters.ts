/** What the items page's controls hold. */
export interface ItemFilters {
  search: string;
  type: string;
  status: string;
  tag: string;
  file: string;
  minConfidence: string;
  /** `''`, `newer-<days>` or `older-<days>`: updated within, or not for, that many days. */
  age: string;
}

export const NO_FILTERS: ItemFilters = {
  search: '',
  type: '',
  status: '',
  tag: '',
  file: '',
  minConfidence: '',
  age: '',
};

const DAY_MS = 86_400_000;

/** The query of GET /api/v2/memory-items for these filters (search aside), at `now`. */
export function listQuery(filters: ItemFilters, now: number): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.type) query.type = filters.type;
  if (filters.status) query.status = filters.status;
  if (filters.tag.trim()) query.tag = filters.tag.trim().toLowerCase();
  if (filters.file.trim()) query.file = filters.file.trim();
  if (filters.minConfidence) query.minConfidence = filters.minConfidence;
  const age = /^(newer|older)-(\d+)$/.exec(filters.age);
  if (age) {
    const cutoff = new Date(now - Number(age[2]) * DAY_MS).toISOString();
    query[age[1] === 'newer' ? 'updatedAfter' : 'updatedBefore'] = cutoff;
  }
  return query;
}

/** The query of GET /api/v2/search: it filters by type and status only. */
export function searchQuery(filters: ItemFilters): Record<string, string> {
  const query: Record<string, string> = { q: filters.search.trim(), limit: '50' };
  if (filters.type) query.type = filters.type;
  if (filters.status) query.status = filters.status;
  if (filters.status === 'archived' || filters.status === 'superseded') query.includeArchived = 'true';
  return query;
}
