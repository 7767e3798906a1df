/** The API's answers as the dashboard reads them (dates arrive as ISO strings). */
// The domain's own lists (zod-free modules), so a new type, status or action shows up here too.
export { AUTHORED_ITEM_TYPES, ITEM_STATUSES, ITEM_TYPES, MANUAL_SESSION_ID } from '../../../libs/domain/src/item-kinds';
export { ITEM_ACTIONS, type ItemAction } from '../../../libs/domain/src/item-actions';

// The API's answers as the server declares them (type-only: nothing of zod reaches the bundle).
export type {
  HistoryEntryView as HistoryEntry,
  ItemView as Item,
  SearchResultView as SearchResult,
  SessionView as Session,
  StoredEventView as StoredEvent,
} from '../../../libs/domain/src/api-views';

import type { BrainView } from '../../../libs/domain/src/brain-views';
/** What the brain page reads of `GET /api/v2/brain`. */
export type BrainMeta = Pick<BrainView, 'tokenEstimate' | 'itemsLoaded' | 'brainHash' | 'layers'>;

export type {
  ChangePageView,
  HygieneChangeView,
  HygieneProposalView,
  HygieneRunView as Run,
  ProposalItemView as ProposalItem,
} from '../../../libs/domain/src/hygiene-views';
import type { ChangePageView, HygieneProposalView, ProposalItemView } from '../../../libs/domain/src/hygiene-views';

/** A proposal as the review page lists it: with its items as they are now. */
export type Proposal = HygieneProposalView & { items: ProposalItemView[] };
/** A change as the review page lists it. */
export type Change = ChangePageView['changes'][number];

export type { ProjectSummaryView as Project } from '../../../libs/domain/src/api-views';
