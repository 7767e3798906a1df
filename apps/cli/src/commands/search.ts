import type { SearchResponseView } from '@memex/domain';
import { Api } from '../api';
import { intFlag, parseCommand } from '../args';
import { usageError } from '../cli-error';
import { emit, type CommandContext } from '../command';
import { cut, table } from '../table';

export const SEARCH_USAGE =
  'memex search <query> [--limit <n>] [--type <type>] [--status <status>] [--include-archived] [--project <id>] [--json]';

/** `memex search <query>`: the project's memory ranked for a question in words. */
export async function runSearch(args: string[], context: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    { values: ['limit', 'type', 'status', 'project'], switches: ['include-archived'] },
    SEARCH_USAGE,
  );
  const query = positionals.join(' ').trim();
  if (!query) throw usageError('memex search needs a query', SEARCH_USAGE);
  const q = new URLSearchParams({ q: query });
  const limit = intFlag(values.limit, 'limit', SEARCH_USAGE);
  if (limit !== undefined) q.set('limit', String(limit));
  if (values.type) q.set('type', values.type);
  if (values.status) q.set('status', values.status);
  if (values['include-archived']) q.set('includeArchived', 'true');
  const found = await new Api(context.connection, values.project).get<SearchResponseView>(
    `/api/v2/search?${q.toString()}`,
  );
  emit(context, values.json, found, () =>
    found.results.length === 0
      ? `Nothing found for ${JSON.stringify(query)}.`
      : table(
          ['ITEM', 'TYPE', 'STATUS', 'SCORE', 'TITLE', 'SNIPPET'],
          found.results.map((r) => [
            r.itemId,
            r.item.type,
            r.item.status,
            r.score.toFixed(3),
            cut(r.item.title, 50),
            // The API marks matched words for HTML; a terminal shows the words.
            cut(r.snippet.replace(/<\/?mark>/g, ''), 70),
          ]),
        ),
  );
  return 0;
}
