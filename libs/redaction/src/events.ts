import { addCounts, type Redacted, type RedactionCounts } from './finding';
import type { RedactionSlice, Redactor } from './redactor';

/** What a client sends as a batch (ingest's body, the hook's spool entry): the parts that are text. */
interface EventBatchLike {
  branch?: string;
  events: ReadonlyArray<{ content: string; metadata?: Record<string, unknown> }>;
}

/**
 * A batch of session events with each event's content and metadata, and the branch,
 * redacted. Ids, types and times are the client's identifiers and stay as sent. The one
 * place that says what of an event is redacted, for ingest and for the hook's spool alike.
 * Event by event, giving way between them once the batch has run a slice (RedactionSlice), so a batch of large events does
 * not hold its process for the whole batch.
 */
export async function redactEventBatch<B extends EventBatchLike>(redactor: Redactor, batch: B): Promise<Redacted<B>> {
  const counts: RedactionCounts = {};
  // Copied from the first event that changes: the usual batch holds nothing and is returned as it is.
  let events: Array<B['events'][number]> | undefined;
  const slice = redactor.slice();
  for (const [i, event] of batch.events.entries()) {
    await slice.breathe();
    const redacted = await redactEvent(redactor, event, counts, slice);
    if (redacted !== event) events ??= batch.events.slice(0, i);
    events?.push(redacted);
  }
  let branch = batch.branch;
  if (branch !== undefined && redactor.mayChange(branch)) {
    const redacted = await redactor.text(branch, slice);
    addCounts(counts, redacted.counts);
    branch = redacted.value;
  }
  if (!events && branch === batch.branch) return { value: batch, counts };
  return { value: { ...batch, ...(branch !== undefined ? { branch } : {}), events: events ?? batch.events }, counts };
}

/** The event with its content and metadata redacted, or the event itself when nothing changed. */
async function redactEvent<E extends EventBatchLike['events'][number]>(
  redactor: Redactor,
  event: E,
  counts: RedactionCounts,
  slice: RedactionSlice,
): Promise<E> {
  if (!redactor.mayChange(event.content) && !redactor.mayChange(event.metadata)) return event;
  const content = await redactor.text(event.content, slice);
  addCounts(counts, content.counts);
  let metadata = event.metadata;
  if (metadata) {
    const redacted = await redactor.value(metadata, slice);
    addCounts(counts, redacted.counts);
    metadata = redacted.value;
  }
  if (content.value === event.content && metadata === event.metadata) return event;
  return { ...event, content: content.value, ...(metadata ? { metadata } : {}) };
}
