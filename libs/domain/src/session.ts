import { z } from 'zod';
import { clientIdSchema } from './raw-event';
import { ulidSchema } from './ids';
import { queryInteger } from './query-params';

/** A coding session as stored: the client's id is unique within its project only. */
export const sessionSchema = z.object({
  id: ulidSchema,
  projectId: ulidSchema,
  externalId: clientIdSchema,
  branch: z.string().nullable(),
  createdAt: z.date(),
  lastEventAt: z.date(),
  /** Sequence number of the newest stored event of the session. */
  lastEventSeq: z.number().int().min(0),
  /** Every event with seq ≤ the cursor has been enriched. */
  enrichmentCursor: z.number().int().min(0),
  completedAt: z.date().nullable(),
});
export type Session = z.infer<typeof sessionSchema>;

export const sessionParamsSchema = z.strictObject({ sessionId: clientIdSchema });

/**
 * Completing a session asks for its enrichment now; `ended` says the session is over (Claude
 * Code's SessionEnd, `memex import` of a transcript not written for 10 minutes), so a last turn that stops on a tool's event
 * is read as it is. A body is optional: `{}`, `null` and none complete without ending.
 */
export const completeSessionBodySchema = z
  .strictObject({ ended: z.boolean().optional() })
  .nullish()
  .transform((body) => ({ ended: body?.ended ?? false }));
export type CompleteSessionBody = z.output<typeof completeSessionBodySchema>;

/** A page of the project's sessions, newest first; `cursor` is the last id of the previous page. */
export const listSessionsQuerySchema = z.strictObject({
  cursor: ulidSchema.optional(),
  limit: queryInteger(1, 100).default(25),
});
export type ListSessionsQuery = z.infer<typeof listSessionsQuerySchema>;

/** An event by the id its client gave it (evidence quotes name events so). */
export const eventParamsSchema = z.strictObject({ eventId: clientIdSchema });
