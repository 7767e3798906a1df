import { shellWord } from '@memex/claude-hooks';
import { Api } from '../api';
import { intFlag, parseFlags } from '../args';
import { emit, type CommandContext } from '../command';
import { cut, minute, table } from '../table';
import type { ItemPageView as ItemsPage } from '@memex/domain';

export const ITEMS_USAGE =
  'memex items [--type <type>] [--status <status>] [--text <words>] [--limit <n>] [--cursor <itemId>] [--all] [--project <id>] [--json]';

/** The API's largest page, for --all. */
const ALL_PAGE = 200;

/** `memex items`: the project's items, newest first, a page at a time (or every page with --all). */
export async function runItems(args: string[], context: CommandContext): Promise<number> {
  const values = parseFlags(
    args,
    { values: ['type', 'status', 'text', 'limit', 'cursor', 'project'], switches: ['all'] },
    ITEMS_USAGE,
  );
  const limit = intFlag(values.limit, 'limit', ITEMS_USAGE);
  const filters = new URLSearchParams();
  if (values.type) filters.set('type', values.type);
  if (values.status) filters.set('status', values.status);
  if (values.text) filters.set('text', values.text);
  const api = new Api(context.connection, values.project);
  const fetchPage = (cursor: string | undefined, pageLimit: number | undefined) => {
    const q = new URLSearchParams(filters);
    if (pageLimit !== undefined) q.set('limit', String(pageLimit));
    if (cursor) q.set('cursor', cursor);
    const query = q.toString();
    return api.get<ItemsPage>(`/api/v2/memory-items${query ? `?${query}` : ''}`);
  };
  let page = await fetchPage(values.cursor, values.all ? (limit ?? ALL_PAGE) : limit);
  if (values.all) {
    const items = [...page.items];
    while (page.nextCursor) {
      page = await fetchPage(page.nextCursor, limit ?? ALL_PAGE);
      items.push(...page.items);
    }
    page = { items, nextCursor: null };
  }
  const shown = page;
  emit(context, values.json, shown, () => {
    if (shown.items.length === 0) return 'No items.';
    const again = [...filters.entries()].flatMap(([k, v]) => [`--${k}`, shellWord(v)]);
    if (limit !== undefined) again.push('--limit', String(limit));
    const more = shown.nextCursor
      ? ['', `More: memex items ${[...again, '--cursor', shown.nextCursor].join(' ')}`]
      : [];
    return [
      table(
        ['ITEM', 'TYPE', 'STATUS', 'CONF', 'UPDATED', 'TITLE'],
        shown.items.map((i) => [
          i.itemId,
          i.type,
          i.status,
          i.confidence.toFixed(2),
          minute(i.updatedAt),
          cut(i.title, 60),
        ]),
      ),
      ...more,
    ].join('\n');
  });
  return 0;
}
