import type { MemoryItem } from '@memex/domain';
import { ageDays } from './scoring';

export type Layer = 1 | 2 | 3;

/** Implementation facts and fixed bugs older than this leave the brain for the archive. */
export const ARCHIVE_AFTER_DAYS = 90;

const open = (item: MemoryItem) => item.resolvedAt === null;

/**
 * Where an item goes (brain-assembly.md). Review items are in no layer: they wait for a
 * person. Layer 0 is built from the items of the other layers.
 */
export function classify(item: MemoryItem, now: Date): Layer | 'excluded' {
  if (item.status === 'review') return 'excluded';
  if (item.status === 'superseded' || item.status === 'archived') return 3;
  if (item.type === 'CodeMapNode') return 3;
  const age = ageDays(item, now);
  if (item.confidence < 0.4 && age > 14) return 3;
  if (item.type === 'ImplementationFact' && age > ARCHIVE_AFTER_DAYS) return 3;
  if (item.type === 'BugFix' && !open(item) && age > ARCHIVE_AFTER_DAYS) return 3;
  if (item.type === 'Todo' && !open(item)) return 3;
  if (item.status === 'stale') return 2;

  const importance = item.importance ?? 3;
  const layer1 =
    (age <= 30 && importance >= 3) ||
    (item.type === 'Decision' && age <= 30) ||
    (item.type === 'BugFix' && open(item) && (importance >= 4 || age <= 7)) ||
    (item.type === 'Todo' && open(item)) ||
    (item.type === 'Convention' && age <= 14) ||
    (importance >= 4 && age <= 60);
  return layer1 ? 1 : 2;
}
