import type { Migration } from 'kysely';
import * as initial from './0001_initial';
import * as llmUsage from './0002_llm_usage';
import * as revisionNotify from './0003_revision_notify';
import * as hygiene from './0004_hygiene';
import * as search from './0005_search';
import * as approvalIndex from './0006_approval_index';
import * as itemSalience from './0007_item_salience';
import * as modelUsage from './0009_model_usage';
import * as dashboardIndexes from './0010_dashboard_indexes';
import * as entities from './0011_entities';
import * as taskEventIndex from './0012_task_event_index';
import * as codeWords from './0013_code_words';
import * as packIndexes from './0014_pack_indexes';
import * as enrichmentLeases from './0015_enrichment_leases';
import * as entityCursors from './0016_entity_cursors';
import * as modelReservations from './0017_model_reservations';
import * as ginWithoutPendingList from './0018_gin_without_pending_list';
import * as itemEvidenceRefs from './0019_item_evidence_refs';
import * as sessionStops from './0020_session_stops';
import * as sessionEnds from './0021_session_ends';

/**
 * Listed in code rather than read from a folder, so the same list works from TypeScript
 * under jest and from the compiled bundle. Names sort in the order they apply.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_llm_usage': llmUsage,
  '0003_revision_notify': revisionNotify,
  '0004_hygiene': hygiene,
  '0005_search': search,
  '0006_approval_index': approvalIndex,
  '0007_item_salience': itemSalience,
  '0009_model_usage': modelUsage,
  '0010_dashboard_indexes': dashboardIndexes,
  '0011_entities': entities,
  '0012_task_event_index': taskEventIndex,
  '0013_code_words': codeWords,
  '0014_pack_indexes': packIndexes,
  '0015_enrichment_leases': enrichmentLeases,
  '0016_entity_cursors': entityCursors,
  '0017_model_reservations': modelReservations,
  '0018_gin_without_pending_list': ginWithoutPendingList,
  '0019_item_evidence_refs': itemEvidenceRefs,
  '0020_session_stops': sessionStops,
  '0021_session_ends': sessionEnds,
};
