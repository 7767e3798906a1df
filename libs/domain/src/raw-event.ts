import { z } from 'zod';
import {
  CLIENT_ID,
  CLIENT_ID_MESSAGE,
  EVENT_TYPES,
  INGEST_LIMITS,
  contentProblem,
  isIsoInstant,
  metadataProblem,
  type EventProblem,
} from '@memex/event-rules';
import { storable } from './storable';

export { EVENT_TYPES, INGEST_LIMITS, asClientId, type EventType } from '@memex/event-rules';

/** A problem found by a rule of @memex/event-rules, as a zod issue. */
function issueOf(problem: EventProblem): z.core.$ZodRawIssue {
  return problem.code === 'too_big'
    ? {
        code: 'too_big',
        origin: 'string',
        maximum: problem.maximum ?? 0,
        inclusive: true,
        input: undefined,
        message: problem.message,
      }
    : { code: 'custom', input: undefined, message: problem.message };
}

export const clientIdSchema = z.string().min(1).max(INGEST_LIMITS.maxIdLength).regex(CLIENT_ID, CLIENT_ID_MESSAGE);

export const timestampSchema = z
  .string()
  .refine(isIsoInstant, 'must be an ISO-8601 date-time with a zone, e.g. 2026-11-21T09:30:00Z');

const contentSchema = z.string().superRefine((value, ctx) => {
  const problem = contentProblem(value);
  if (problem) ctx.addIssue(issueOf(problem));
});

const metadataSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = metadataProblem(value);
  if (problem) ctx.addIssue(issueOf(problem));
});

export const rawEventInputSchema = z.strictObject({
  eventId: clientIdSchema,
  type: z.enum(EVENT_TYPES),
  timestamp: timestampSchema,
  content: contentSchema,
  metadata: metadataSchema.optional(),
});
export type RawEventInput = z.infer<typeof rawEventInputSchema>;

export const eventBatchSchema = z.strictObject({
  sessionId: clientIdSchema,
  branch: storable(z.string().min(1).max(INGEST_LIMITS.maxBranchLength)).optional(),
  events: z.array(rawEventInputSchema).min(1).max(INGEST_LIMITS.maxEventsPerBatch),
});
export type EventBatch = z.infer<typeof eventBatchSchema>;

/** Which batch issues are size limits (413) rather than a malformed body (400). */
export function isBatchSizeIssue(issue: z.core.$ZodIssue): boolean {
  if (issue.code !== 'too_big') return false;
  const [first, , third] = issue.path;
  return (
    (issue.path.length === 1 && first === 'events') ||
    (first === 'events' && (third === 'content' || third === 'metadata'))
  );
}

export const acceptedBatchSchema = z.object({
  accepted: z.number().int().min(0),
  duplicates: z.number().int().min(0),
});
export type AcceptedBatch = z.infer<typeof acceptedBatchSchema>;
