import { useState, type FormEvent } from 'react';
import { ColumnHeads } from '../column-heads';
import {
  ErrorMessage,
  Notice,
  PageTitle,
  Pager,
  StatusBadge,
  formatDate,
  useAction,
  useCursorPages,
  useLoad,
} from '../components';
import { NO_FILTERS, listQuery, searchQuery, type ItemFilters } from '../lib/item-filters';
import { Link } from '../router';
import { useSignedIn } from '../session-context';
import { ITEM_ACTIONS, ITEM_STATUSES, ITEM_TYPES, type Item, type SearchResult } from '../types';

type Row = Pick<Item, 'itemId' | 'type' | 'status' | 'title' | 'confidence' | 'updatedAt'> & { snippet?: string };

const PAGE = 50;

/** A choice of a filter's select: its value and what it says, or one word that is both. */
type Choice = string | { value: string; label: string };

const CONFIDENCES: Choice[] = [
  { value: '0.4', label: '≥ 0.4' },
  { value: '0.6', label: '≥ 0.6' },
  { value: '0.8', label: '≥ 0.8' },
  { value: '1', label: '1.0' },
];

const AGES: Choice[] = [
  { value: 'newer-1', label: 'in the last day' },
  { value: 'newer-7', label: 'in the last 7 days' },
  { value: 'newer-30', label: 'in the last 30 days' },
  { value: 'older-30', label: 'over 30 days ago' },
  { value: 'older-90', label: 'over 90 days ago' },
];

interface FilterField {
  field: Exclude<keyof ItemFilters, 'search'>;
  id: string;
  label: string;
  /** A select's choices after `any` (the empty value: no filter); none for a text box. */
  choices?: readonly Choice[];
  any?: string;
  /** The hybrid search filters by type and status only: these are off while it searches. */
  listOnly?: boolean;
}

/** The filters beside the search box, in the order they stand. */
const FILTER_FIELDS: FilterField[] = [
  { field: 'type', id: 'f-type', label: 'Type', choices: ITEM_TYPES },
  { field: 'status', id: 'f-status', label: 'Status', choices: ITEM_STATUSES },
  { field: 'tag', id: 'f-tag', label: 'Tag', listOnly: true },
  { field: 'file', id: 'f-file', label: 'File', listOnly: true },
  { field: 'minConfidence', id: 'f-confidence', label: 'Confidence', choices: CONFIDENCES, listOnly: true },
  { field: 'age', id: 'f-age', label: 'Last changed', any: 'any time', choices: AGES, listOnly: true },
];

/** Search marks come as <mark>…</mark> around text from memory: split on them, never parse HTML. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/<mark>|<\/mark>/);
  return <span className="snippet">{parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}</span>;
}

/** The items of the project: the hybrid search, or the list with its filters, a page at a time from the server. */
export function ItemsPage({ sessionId }: { sessionId?: string }) {
  const { api } = useSignedIn();
  const [draft, setDraft] = useState<ItemFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<ItemFilters>(NO_FILTERS);
  const pages = useCursorPages();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkAction, setBulkAction] = useState<string>('approve');
  const action = useAction();
  const { cursor } = pages;
  const searching = filters.search.trim().length > 0;

  const page = useLoad(async (): Promise<{ rows: Row[]; nextCursor: string | null }> => {
    if (searching) {
      const found = await api<{ results: SearchResult[] }>('/api/v2/search', { query: searchQuery(filters) });
      return { rows: found.results.map((r) => ({ ...r.item, snippet: r.snippet })), nextCursor: null };
    }
    const listed = await api<{ items: Item[]; nextCursor: string | null }>('/api/v2/memory-items', {
      query: { ...listQuery(filters, Date.now()), sessionId, cursor, limit: PAGE },
    });
    return { rows: listed.items, nextCursor: listed.nextCursor };
  }, [filters, cursor, sessionId]);

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters(draft);
    pages.reset();
    setSelected(new Set());
  }

  function toggle(id: string) {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  }

  const rows = page.data?.rows ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.itemId));

  async function runBulk() {
    const ok = await action.run(async () => {
      const done = await api<{ updated: number }>('/api/v2/memory-items/bulk', {
        body: { ids: [...selected], action: bulkAction },
      });
      return `${bulkAction}: ${done.updated} item${done.updated === 1 ? '' : 's'} changed.`;
    });
    if (ok) {
      setSelected(new Set());
      void page.reload();
    }
  }

  const set = (field: keyof ItemFilters) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [field]: e.target.value });
  const searchTyped = draft.search.trim() !== '';

  return (
    <main id="main">
      <div className="title-row">
        <PageTitle>{sessionId ? `Items of session ${sessionId}` : 'Items'}</PageTitle>
        <Link to="/items/new" className="button">
          New item
        </Link>
      </div>
      <form className="filters" onSubmit={apply} aria-label="Search and filters">
        <div className="field wide">
          <label htmlFor="f-search">Search</label>
          <input
            id="f-search"
            type="search"
            value={draft.search}
            onChange={set('search')}
            placeholder='words, "a phrase", -excluded'
          />
        </div>
        {FILTER_FIELDS.map(({ field, id, label, choices, any = 'any', listOnly }) => {
          const control = { id, value: draft[field], onChange: set(field), disabled: listOnly && searchTyped };
          return (
            <div key={id} className="field">
              <label htmlFor={id}>{label}</label>
              {choices ? (
                <select {...control}>
                  <option value="">{any}</option>
                  {choices.map((c) =>
                    typeof c === 'string' ? (
                      <option key={c}>{c}</option>
                    ) : (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ),
                  )}
                </select>
              ) : (
                <input {...control} />
              )}
            </div>
          );
        })}
        <button type="submit">{searchTyped ? 'Search' : 'Apply filters'}</button>
      </form>
      {searching ? (
        <p className="hint">
          Hybrid search: the 50 best matches, filtered by type and status (tag, file, confidence and age apply to the
          list).
        </p>
      ) : null}
      <ErrorMessage error={page.error ?? action.error} />
      {action.notice ? <Notice text={action.notice} /> : null}
      <div className="bulk" role="group" aria-label="Bulk actions on the selected items">
        <span>{selected.size} selected</span>
        <label htmlFor="bulk-action" className="visually-hidden">
          Action for the selected items
        </label>
        <select id="bulk-action" value={bulkAction} onChange={(e) => setBulkAction(e.target.value)}>
          {ITEM_ACTIONS.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
        <button type="button" disabled={selected.size === 0 || action.busy} onClick={() => void runBulk()}>
          Apply to selected
        </button>
      </div>
      {page.loading ? <p role="status">Loading…</p> : null}
      <table className="items" aria-busy={page.loading}>
        <caption className="visually-hidden">Memory items</caption>
        <ColumnHeads
          lead={
            <th scope="col" className="select">
              <input
                type="checkbox"
                aria-label="Select every item on this page"
                checked={allSelected}
                onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.itemId)))}
              />
            </th>
          }
          columns={['Title', 'Type', 'Status', { num: 'Confidence' }, 'Updated']}
        />
        <tbody>
          {rows.map((row) => (
            <tr key={row.itemId}>
              <td className="select">
                <input
                  type="checkbox"
                  aria-label={`Select ${row.title}`}
                  checked={selected.has(row.itemId)}
                  onChange={() => toggle(row.itemId)}
                />
              </td>
              <td>
                <Link to={`/items/${row.itemId}`}>{row.title}</Link>
                {row.snippet ? <Snippet text={row.snippet} /> : null}
              </td>
              <td>{row.type}</td>
              <td>
                <StatusBadge status={row.status} />
              </td>
              <td className="num">{row.confidence.toFixed(2)}</td>
              <td>{formatDate(row.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!page.loading && rows.length === 0 ? <p>No items match.</p> : null}
      <Pager pages={pages} nextCursor={page.data?.nextCursor} hidden={searching} />
    </main>
  );
}
