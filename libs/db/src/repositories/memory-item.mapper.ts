import type { Selectable } from 'kysely';
import type { ItemType, MemoryItem } from '@memex/domain';
import type { MemoryItemsTable } from '../schema';

export function toMemoryItem(row: Selectable<MemoryItemsTable>): MemoryItem {
  return {
    itemId: row.id,
    projectId: row.project_id,
    type: row.type as ItemType,
    title: row.title,
    facts: row.facts,
    rationale: row.rationale,
    impact: row.impact,
    files: row.files,
    schemaKey: row.schema_key,
    commitRange: row.commit_range,
    confidence: row.confidence,
    status: row.status,
    evidenceRefs: row.evidence_refs,
    evidenceSpans: row.evidence_spans,
    dedupHint: row.dedup_hint,
    tags: row.tags,
    importance: row.importance,
    salience: row.salience,
    sessionId: row.session_id,
    mergedFrom: row.merged_from,
    supersededBy: row.superseded_by,
    lastReinforcedAt: row.last_reinforced_at,
    resolvedAt: row.resolved_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
