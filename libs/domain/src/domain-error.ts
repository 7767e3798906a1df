/**
 * The error codes a client can cause. Each maps to exactly one HTTP status in the
 * server's exception filter, so a service never has to know about HTTP.
 */
export const DOMAIN_ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  /** A body whose bytes are not text (not UTF-8, or compressed without saying so). */
  MALFORMED_BODY: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ADMIN_DISABLED: 403,
  NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  ITEM_NOT_FOUND: 404,
  EVENT_NOT_FOUND: 404,
  ILLEGAL_STATUS_TRANSITION: 409,
  CONFLICT: 409,
  RUN_NOT_FOUND: 404,
  PROPOSAL_NOT_FOUND: 404,
  CHANGE_NOT_FOUND: 404,
  PROPOSAL_DECIDED: 409,
  PROPOSAL_OUTDATED: 409,
  CHANGE_NOT_REVERTIBLE: 409,
  ITEM_CHANGED_SINCE: 409,
  INPUT_REQUIRED: 422,
  /** An assistant's memory whose quotes are not in what Memex captured of its sessions. */
  EVIDENCE_NOT_FOUND: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNSUPPORTED_CONTENT_ENCODING: 415,
  /** Too many failed authentication attempts from an address or with a key; `details.retryAfterSeconds` says when to try again. */
  RATE_LIMITED: 429,
  /** Not the client's doing, but theirs to retry: the queue is unreachable and nothing was started. */
  QUEUE_UNAVAILABLE: 503,
  /** The database connection was lost or could not be had: nothing the client sent was at fault. */
  DATABASE_UNAVAILABLE: 503,
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS;

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return DOMAIN_ERROR_STATUS[this.code];
  }
}
