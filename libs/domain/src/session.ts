import { z } from 'zod';
import { clientIdSchema } from './raw-event';
import { ulidSchema } from './ids';

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
