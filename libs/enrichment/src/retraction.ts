/**
 * An item rests on a conclusion the person rejected when its headline, the first evidence
 * span, which its title was drawn from, quotes the rejected message. Its other spans (the
 * prompt it answered, a commit) only support it and do not save it.
 */
export function restsOnRejected(spans: ReadonlyArray<{ eventId: string }>, rejected: ReadonlySet<string>): boolean {
  return spans.length > 0 && rejected.has(spans[0]!.eventId);
}
