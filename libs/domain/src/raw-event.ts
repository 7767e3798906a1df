import { z } from 'zod';
import { UNSTORABLE_MESSAGE, storable } from './storable';
import { hasUnstorableChars, isIsoInstant, jsonShape, utf8Bytes } from './text-guards';

export const EVENT_TYPES = [
  'prompt',
  'response',
  'tool_call',
  'tool_result',
  'file_edit',
  'command',
  'commit',
  'error',
  'note',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const INGEST_LIMITS = {
  maxEventsPerBatch: 500,
  maxBatchBytes: 5 * 1024 * 1024,
  maxContentBytes: 100 * 1024,
  maxMetadataBytes: 16 * 1024,
  maxMetadataDepth: 8,
  maxIdLength: 200,
  maxBranchLength: 255,
} as const;

/** Client-chosen identifiers: printable, no spaces, so they stay safe in logs, URLs and job ids. */
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+=-]*$/;

/**
 * Text made into an id ingest accepts, the same way every time: characters an id may not hold
 * become `_`, a leading non-alphanumeric run is dropped, and it is cut to `maxLength`.
 */
export function asClientId(text: string, maxLength: number = INGEST_LIMITS.maxIdLength): string | undefined {
  const id = text
    .replace(/[^A-Za-z0-9._:/@+=-]/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, maxLength);
  return id || undefined;
}

export const clientIdSchema = z
  .string()
  .min(1)
  .max(INGEST_LIMITS.maxIdLength)
  .regex(CLIENT_ID, 'must start with a letter or digit and hold only letters, digits and . _ : / @ + = -');

export const timestampSchema = z
  .string()
  .refine(isIsoInstant, 'must be an ISO-8601 date-time with a zone, e.g. 2026-11-21T09:30:00Z');

const contentSchema = z.string().superRefine((value, ctx) => {
  if (utf8Bytes(value) > INGEST_LIMITS.maxContentBytes) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: INGEST_LIMITS.maxContentBytes,
      inclusive: true,
      input: undefined,
      message: `must be at most ${INGEST_LIMITS.maxContentBytes} bytes of UTF-8`,
    });
  } else if (hasUnstorableChars(value)) {
    ctx.addIssue({
      code: 'custom',
      input: undefined,
      message: UNSTORABLE_MESSAGE,
    });
  }
});

const metadataSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const shape = jsonShape(value);
  if (shape.depth > INGEST_LIMITS.maxMetadataDepth) {
    ctx.addIssue({
      code: 'custom',
      input: undefined,
      message: `must be nested at most ${INGEST_LIMITS.maxMetadataDepth} levels deep`,
    });
    return;
  }
  if (shape.hasUnstorableChars) {
    ctx.addIssue({
      code: 'custom',
      input: undefined,
      message: UNSTORABLE_MESSAGE,
    });
    return;
  }
  if (utf8Bytes(JSON.stringify(value)) > INGEST_LIMITS.maxMetadataBytes) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: INGEST_LIMITS.maxMetadataBytes,
      inclusive: true,
      input: undefined,
      message: `must serialize to at most ${INGEST_LIMITS.maxMetadataBytes} bytes of JSON`,
    });
  }
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
