import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionLoss } from '@memex/db';
import { DomainError } from '@memex/domain';

export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

const HTTP_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
};

/** Fastify's own client errors (body parsing, limits, media types), by its error code. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
};

/** What a 503 tells the client to wait: a lost connection is replaced at once, an outage takes longer. */
export const RETRY_AFTER_SECONDS = 2;

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

function domainResponse(error: DomainError): ErrorResponse {
  const retryAfter = error.status === 503 ? RETRY_AFTER_SECONDS : retryAfterOf(error);
  return {
    status: error.status,
    body: { error: { code: error.code, message: error.message, details: error.details } },
    // A dependency is away, or the client is refused for a while: it is told when to try again.
    headers: retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {},
  };
}

/** A lost database connection as a client reads it (HTTP, or an MCP tool's error). */
export function databaseUnavailable(): DomainError {
  return new DomainError('DATABASE_UNAVAILABLE', 'the database connection was lost; try again shortly');
}

/**
 * Turns anything thrown into `{ error: { code, message, details } }`. Client errors keep
 * their status; a lost database connection is a 503; whatever is left is a 500 whose details
 * stay in the log, not the reply.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) return domainResponse(error);
  if (isConnectionLoss(error)) return domainResponse(databaseUnavailable());
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return {
      status,
      body: { error: { code: HTTP_CODES[status] ?? `HTTP_${status}`, message: error.message, details: {} } },
      headers: {},
    };
  }
  const candidate = error as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof candidate?.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    const status = candidate.statusCode;
    const code =
      (typeof candidate.code === 'string' && FASTIFY_CODES[candidate.code]) ||
      // A JSON.parse failure carries no Fastify code, only its status.
      (error instanceof SyntaxError ? 'MALFORMED_JSON' : (HTTP_CODES[status] ?? `HTTP_${status}`));
    const message = typeof candidate.message === 'string' ? candidate.message : 'bad request';
    return { status, body: { error: { code, message, details: {} } }, headers: {} };
  }
  return {
    status: 500,
    body: { error: { code: 'INTERNAL_ERROR', message: 'internal error', details: {} } },
    headers: {},
  };
}

/** Seconds a refused client should wait (429 RATE_LIMITED), for the Retry-After header. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!(error instanceof DomainError) || error.code !== 'RATE_LIMITED') return undefined;
  const seconds = error.details.retryAfterSeconds;
  return typeof seconds === 'number' ? seconds : undefined;
}

const logger = new Logger('HttpErrors');

/**
 * Only what identifies an error: database errors carry `where` / `detail` fields that can
 * quote the row (event content) being written.
 */
function describeError(error: unknown): Record<string, unknown> {
  const e = error as { name?: string; message?: string; code?: string; stack?: string };
  return { type: e?.name, message: e?.message, code: e?.code, stack: e?.stack };
}

export function logServerError(error: unknown, request: FastifyRequest): void {
  logger.error(
    { err: describeError(error), reqId: request.id, route: request.routeOptions?.url, method: request.method },
    'unhandled error while serving a request',
  );
}

/** A dependency away is expected in operation: a warning naming it, without a stack. */
function logUnavailable(error: unknown, request: FastifyRequest): void {
  const e = error as { message?: string; code?: string };
  logger.warn(
    { err: { message: e?.message, code: e?.code }, reqId: request.id, route: request.routeOptions?.url },
    'a dependency was unavailable while serving a request',
  );
}

@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const { status, body, headers } = toErrorResponse(exception);
    if (status === 503) logUnavailable(exception, http.getRequest<FastifyRequest>());
    else if (status >= 500) logServerError(exception, http.getRequest<FastifyRequest>());
    void reply.headers(headers).status(status).send(body);
  }
}
