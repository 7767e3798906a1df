import { NOTHING, addCounts, type Redacted, type RedactionCounts } from './finding';
import type { Redactor } from './redactor';

/** What a client sends as a batch (ingest's body, the hook's spool entry): the parts that are text. */
interface EventBatchLike {
  branch?: string;
  events: ReadonlyArray<{ content: string; metadata?: Record<string, unknown> }>;
}

/**
 * A batch of session events with each event's content and metadata, and the branch,
 * redacted. Ids, types and times are the client's identifiers and stay as sent. The one
 * place that says what of an event is redacted, for ingest and for the hook's spool alike.
 */
export async function redactEventBatch<B extends EventBatchLike>(redactor: Redactor, batch: B): Promise<Redacted<B>> {
  const branchMayChange = batch.branch !== undefined && redactor.mayChange(batch.branch);
  const first = batch.events.findIndex((e) => redactor.mayChange(e.content) || redactor.mayChange(e.metadata));
  // The usual batch: nothing to look at, nothing copied.
  if (first < 0 && !branchMayChange) return { value: batch, counts: NOTHING };
  const counts: RedactionCounts = {};
  const events: Array<B['events'][number]> = batch.events.slice(0, Math.max(0, first));
  for (const event of first < 0 ? [] : batch.events.slice(first)) {
    if (!redactor.mayChange(event.content) && !redactor.mayChange(event.metadata)) {
      events.push(event);
      continue;
    }
    const content = await redactor.text(event.content);
    addCounts(counts, content.counts);
    let metadata = event.metadata;
    if (metadata) {
      const redacted = await redactor.value(metadata);
      addCounts(counts, redacted.counts);
      metadata = redacted.value;
    }
    const same = content.value === event.content && metadata === event.metadata;
    events.push(same ? event : { ...event, content: content.value, ...(metadata ? { metadata } : {}) });
  }
  let branch = batch.branch;
  if (branch !== undefined && branchMayChange) {
    const redacted = await redactor.text(branch);
    addCounts(counts, redacted.counts);
    branch = redacted.value;
  }
  return { value: { ...batch, ...(branch !== undefined ? { branch } : {}), events }, counts };
}
