import type { HygieneItem, HygieneOptions, Transition } from './types';
import { DAY_MS, decimal, plural, wholeDays } from './format';

export const isLive = (status: string) => status === 'active' || status === 'stale';

/** The key of `staleAfterDays` for an item: Todo and BugFix age differently once resolved. */
export function staleKey(item: HygieneItem): keyof HygieneOptions['staleAfterDays'] {
  if (item.type === 'BugFix' || item.type === 'Todo') {
    return `${item.type}${item.resolvedAt === null ? 'Open' : 'Resolved'}`;
  }
  return item.type;
}

function staleLabel(item: HygieneItem): string {
  if (item.type === 'BugFix' || item.type === 'Todo') {
    return `${item.resolvedAt === null ? 'open' : 'resolved'} ${item.type}`;
  }
  return item.type;
}

/** Last change of what the item says or last confirmation of it by new evidence. */
export function lastTouched(item: HygieneItem): number {
  return Math.max(item.updatedAt, item.lastReinforcedAt ?? 0);
}

/** The stale-by-age limit in days when it has passed at `now`, else null. */
function staleByAge(item: HygieneItem, now: number, options: HygieneOptions): number | null {
  const limit = options.staleAfterDays[staleKey(item)];
  return limit !== null && now - lastTouched(item) >= limit * DAY_MS ? limit : null;
}

/**
 * The one lifecycle move of an item this pass, if any: the first rule that matches, in the
 * order of RULES. Conflicts are not decided here: they depend on the other items.
 */
/** Whether an operator overruled `rule` for an item (reverted its change): the next rule may still apply. */
export type HeldRule = (itemId: string, rule: Transition['rule']) => boolean;

export function lifecycleTransition(
  item: HygieneItem,
  now: number,
  options: HygieneOptions,
  held: HeldRule = () => false,
): Transition | null {
  const may = (rule: Transition['rule']) => !held(item.id, rule);
  const move = (to: Transition['to'], rule: Transition['rule'], reason: string): Transition => ({
    itemId: item.id,
    from: item.status,
    to,
    rule,
    reason,
  });
  const live = isLive(item.status);

  if (live && item.supersededBy !== null && may('supersede-replaced')) {
    return move('superseded', 'supersede-replaced', `replaced by item ${item.supersededBy}`);
  }
  if (live && item.type === 'CodeMapNode' && may('archive-code-map')) {
    return move('archived', 'archive-code-map', 'CodeMapNode items are rebuilt from the code, not kept as memory');
  }
  const age = now - item.createdAt;
  if (
    live &&
    item.confidence < options.lowConfidence &&
    age > options.lowConfidenceAfterDays * DAY_MS &&
    may('archive-low-confidence')
  ) {
    return move(
      'archived',
      'archive-low-confidence',
      `confidence ${decimal(item.confidence, options.lowConfidence)} below ${options.lowConfidence} and ` +
        `${plural(wholeDays(age), 'day')} old (limit ${options.lowConfidenceAfterDays})`,
    );
  }
  const sinceStatus = now - item.statusChangedAt;
  if (
    item.status === 'superseded' &&
    sinceStatus >= options.archiveSupersededAfterDays * DAY_MS &&
    may('archive-superseded')
  ) {
    return move(
      'archived',
      'archive-superseded',
      `superseded ${plural(wholeDays(sinceStatus), 'day')} ago (limit ${options.archiveSupersededAfterDays})`,
    );
  }
  if (
    item.status === 'stale' &&
    item.lastReinforcedAt !== null &&
    item.lastReinforcedAt > item.statusChangedAt &&
    staleByAge(item, now, options) === null &&
    may('reactivate-reinforced')
  ) {
    return move(
      'active',
      'reactivate-reinforced',
      `reinforced ${plural(wholeDays(now - item.lastReinforcedAt), 'day')} ago, after it went stale ` +
        `${plural(wholeDays(sinceStatus), 'day')} ago`,
    );
  }
  if (item.status === 'active' && may('stale-by-age')) {
    const limit = staleByAge(item, now, options);
    if (limit !== null) {
      return move(
        'stale',
        'stale-by-age',
        `not updated or reinforced for ${plural(wholeDays(now - lastTouched(item)), 'day')} ` +
          `(${staleLabel(item)} limit ${limit})`,
      );
    }
  }
  return null;
}
