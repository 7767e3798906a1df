import { Api } from '../api';
import { parseCommand } from '../args';
import { usageError } from '../cli-error';
import { emit, type CommandContext } from '../command';
import { cut, minute, table } from '../table';
import type { HistoryEntryView, ItemDetailView, ItemView } from '@memex/domain';

export const ITEM_USAGE = 'memex item <itemId> [--project <id>] [--json]';

/** What a history entry changed: the fields whose values differ before and after. */
export function changedFields(entry: Pick<HistoryEntryView, 'before' | 'after'>): string[] {
  if (!entry.before || !entry.after) return [];
  const { before, after } = entry;
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => key !== 'updatedAt' && JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .sort();
}

export function itemText(item: ItemView, history: HistoryEntryView[]): string {
  const line = (label: string, value: string | null | undefined) =>
    value === null || value === undefined || value === '' ? [] : [`${`${label}:`.padEnd(12)}${value}`];
  return [
    `${item.type} ${item.itemId} (${item.status}): ${item.title}`,
    '',
    ...line('facts', item.facts),
    ...line('rationale', item.rationale),
    ...line('impact', item.impact),
    ...line('files', item.files.join(', ')),
    ...line('tags', item.tags.join(', ')),
    ...line('confidence', item.confidence.toFixed(2)),
    ...line('importance', item.importance === null ? null : String(item.importance)),
    ...line('session', item.sessionId),
    ...line('created', `${minute(item.createdAt)} UTC`),
    ...line('updated', `${minute(item.updatedAt)} UTC`),
    ...line('superseded', item.supersededBy),
    '',
    history.length === 0
      ? 'History: none'
      : `History:\n${table(
          ['WHEN', 'CHANGE', 'BY', 'FIELDS', 'REASON'],
          history.map((h) => [
            minute(h.createdAt),
            h.change,
            `${h.actorType}:${h.actor}`,
            cut(changedFields(h).join(', ') || '-', 40),
            cut(h.reason ?? '-', 60),
          ]),
        )}`,
  ].join('\n');
}

/** `memex item <id>`: one item, everything it says, and its history. */
export async function runItem(args: string[], context: CommandContext): Promise<number> {
  const { values, positionals } = parseCommand(args, { values: ['project'] }, ITEM_USAGE);
  const [id, ...extra] = positionals;
  if (!id) throw usageError('memex item needs an item id', ITEM_USAGE);
  if (extra.length) throw usageError(`unexpected ${extra.join(' ')}`, ITEM_USAGE);
  const found = await new Api(context.connection, values.project).get<ItemDetailView>(
    `/api/v2/memory-items/${encodeURIComponent(id)}`,
  );
  emit(context, values.json, found, () => itemText(found.item, found.history));
  return 0;
}
