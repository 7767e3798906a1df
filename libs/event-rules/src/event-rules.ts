import { hasUnstorableChars, isIsoInstant, jsonShape, utf8Bytes } from './text-guards';

/**
 * What ingest takes as a session event, as rules without zod: the API's schema
 * (`rawEventInputSchema`, libs/domain) is built on them, and a hook, whose process starts for
 * each call, checks transcript events with them without loading zod and every API schema
 * (about 80 ms of a hook's start-up).
 */
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

export const UNSTORABLE_MESSAGE = 'must not contain NUL (U+0000) or unpaired surrogate characters';

/** Client-chosen identifiers: printable, no spaces, so they stay safe in logs, URLs and job ids. */
export const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+=-]*$/;
export const CLIENT_ID_MESSAGE = 'must start with a letter or digit and hold only letters, digits and . _ : / @ + = -';

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

/** Why a value is refused, in the words of the API's validation errors. */
export interface EventProblem {
  /** `too_big` is a size limit (413 for a batch), `custom` anything else (400). */
  code: 'too_big' | 'custom';
  maximum?: number;
  message: string;
}

/** What is wrong with an event's content, if anything. */
export function contentProblem(value: string): EventProblem | undefined {
  if (utf8Bytes(value) > INGEST_LIMITS.maxContentBytes) {
    return {
      code: 'too_big',
      maximum: INGEST_LIMITS.maxContentBytes,
      message: `must be at most ${INGEST_LIMITS.maxContentBytes} bytes of UTF-8`,
    };
  }
  if (hasUnstorableChars(value)) return { code: 'custom', message: UNSTORABLE_MESSAGE };
  return undefined;
}

/** What is wrong with an event's metadata (a JSON object), if anything. */
export function metadataProblem(value: Record<string, unknown>): EventProblem | undefined {
  const shape = jsonShape(value);
  if (shape.depth > INGEST_LIMITS.maxMetadataDepth) {
    return { code: 'custom', message: `must be nested at most ${INGEST_LIMITS.maxMetadataDepth} levels deep` };
  }
  if (shape.hasUnstorableChars) return { code: 'custom', message: UNSTORABLE_MESSAGE };
  if (utf8Bytes(JSON.stringify(value)) > INGEST_LIMITS.maxMetadataBytes) {
    return {
      code: 'too_big',
      maximum: INGEST_LIMITS.maxMetadataBytes,
      message: `must serialize to at most ${INGEST_LIMITS.maxMetadataBytes} bytes of JSON`,
    };
  }
  return undefined;
}

const EVENT_FIELDS = new Set(['eventId', 'type', 'timestamp', 'content', 'metadata']);

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Whether ingest would take `value` as an event: exactly what `rawEventInputSchema` accepts
 * (a spec checks the two agree), answered without building an error.
 */
export function isIngestableEvent(value: unknown): boolean {
  if (!isPlainRecord(value)) return false;
  for (const key of Object.keys(value)) if (!EVENT_FIELDS.has(key)) return false;
  const { eventId, type, timestamp, content, metadata } = value;
  return (
    typeof eventId === 'string' &&
    eventId.length >= 1 &&
    eventId.length <= INGEST_LIMITS.maxIdLength &&
    CLIENT_ID.test(eventId) &&
    typeof type === 'string' &&
    (EVENT_TYPES as readonly string[]).includes(type) &&
    typeof timestamp === 'string' &&
    isIsoInstant(timestamp) &&
    typeof content === 'string' &&
    contentProblem(content) === undefined &&
    (metadata === undefined || (isPlainRecord(metadata) && metadataProblem(metadata) === undefined))
  );
}
