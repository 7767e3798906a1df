/**
 * The error codes a client can cause. Each maps to exactly one HTTP status in the
 * server's exception filter, so a service never has to know about HTTP.
 */
export const DOMAIN_ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ADMIN_DISABLED: 403,
  NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  ITEM_NOT_FOUND: 404,
  ILLEGAL_STATUS_TRANSITION: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
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
