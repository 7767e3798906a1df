import type { Proposal, QualityProblem } from './types';

/** Longest fingerprint stored as it reads; longer ones are hashed (a unique key must stay small). */
export const FINGERPRINT_MAX = 200;

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;

/** FNV-1a, 64 bits, over the UTF-16 code units of `text`, as 16 hex digits. */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash = BigInt.asUintN(64, (hash ^ BigInt(text.charCodeAt(i))) * FNV_PRIME);
  }
  return hash.toString(16).padStart(16, '0');
}

const problemCode = (p: QualityProblem) => (p.code === 'too-long' ? `too-long.${p.field}` : p.code);
const sorted = (values: string[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * What makes two proposals the same, so one found again by a later pass is recognised:
 * kind, rule, the set of items and, for an edit, the set of problems (not their measured
 * lengths, which change as the item is edited). Not the keeper or the similarity either: the
 * same group is the same proposal whichever member is kept.
 */
export function proposalFingerprint(p: Proposal): string {
  const ids = sorted([...new Set(p.itemIds)]).join(',');
  const body = p.kind === 'edit' ? `${ids}|${sorted([...new Set(p.problems.map(problemCode))]).join(',')}` : ids;
  const readable = `${p.kind}:${p.rule}:${body}`;
  if (readable.length <= FINGERPRINT_MAX) return readable;
  return `${p.kind}:${p.rule}:${p.itemIds.length}#${fnv1a64(body)}`;
}
