import type { LoggerService } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '@memex/config';
import { Logger } from 'nestjs-pino';
import { BACKGROUND_PACE, requestActivity, type BackgroundPace } from './background-pace';
import { DomainError, INGEST_LIMITS, decodeJsonBody } from '@memex/domain';
import { toErrorResponse } from './exception.filter';
import { EarlyAnswers } from './early-answers';
import { MetricsRegistry } from './metrics';

/** Where a request's route template is kept on the raw request, for its log line (see PlatformModule). */
export const ROUTE = Symbol('memex.route');
export interface RouteOfRequest {
  [ROUTE]?: string;
}

/** Answers an HTTP parse error (before Fastify has a request) in the API's error shape, then closes. */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({
    error: {
      code: status === 408 ? 'REQUEST_TIMEOUT' : status === 431 ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST',
      message: 'malformed HTTP request',
      details: {},
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A CONNECT request: 405 in the API's error shape, then the socket closes. */
function answerConnect(socket: Socket): void {
  const body = JSON.stringify({
    error: { code: 'METHOD_NOT_ALLOWED', message: 'CONNECT is not served here', details: {} },
  });
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Nest's own start-up lines: which module loaded, every route mapped. Noise at info, to a person or a collector. */
const WIRING = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** The app's logger, without Nest's wiring lines at info (warnings and errors from Nest still pass). */
class FrameworkQuietLogger implements LoggerService {
  constructor(private readonly inner: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && WIRING.has(context)) return;
    this.inner.log(message, ...params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug(message, ...params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose(message, ...params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.inner.fatal(message, ...params);
  }
}

/** Builds a Fastify-backed Nest app around `rootModule`, ready to `listen`. */
export async function createHttpApp(rootModule: unknown, config: Config): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: INGEST_LIMITS.maxBatchBytes,
    requestIdHeader: false,
    // The client's address (rate limits key on it) from X-Forwarded-For of the proxies trusted.
    trustProxy: config.TRUST_PROXY,
    // Fastify's default is to throw on these keys; spelled out because it is a security property.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A socket idle this long between requests is dropped; keeps stuck clients from holding connections.
    keepAliveTimeout: 65_000,
    // A body that stops arriving must not hold its socket (and a shutdown) forever.
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    // Node checks that timeout only every connectionsCheckingInterval (30 s by default), and
    // only while headersTimeout is not longer than it.
    http: {
      connectionsCheckingInterval: Math.max(250, Math.min(5000, config.HTTP_REQUEST_TIMEOUT_MS / 4)),
      headersTimeout: Math.min(60_000, config.HTTP_REQUEST_TIMEOUT_MS),
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    },
    clientErrorHandler,
    // Client ids in paths may be up to 200 characters (Fastify's default stops at 100).
    routerOptions: { maxParamLength: INGEST_LIMITS.maxIdLength + 56 },
    // Router errors (a malformed URL, an over-long parameter) never reach Nest's filter.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      const { status, body, headers } = toErrorResponse(error);
      void reply.headers(headers).code(status).send(body);
    },
  });
  // Added before NestFactory.create registers Nest's middleware, so it runs first; the
  // answers are the app's, known once it is created (requests only come after listen).
  const early: { answers?: EarlyAnswers } = {};
  adapter.getInstance().addHook('onRequest', async (request, reply) => {
    if (early.answers && (await early.answers.run(request, reply))) return reply;
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    bufferLogs: true,
    abortOnError: false,
    // Our own JSON parser below: Nest's would turn a parse error into an anonymous 400.
    bodyParser: false,
  });
  early.answers = app.get(EarlyAnswers);
  app.useLogger(new FrameworkQuietLogger(app.get(Logger)));
  app.enableShutdownHooks();
  const fastify = app.getHttpAdapter().getInstance();
  // Node hands CONNECT (a proxy tunnel) to a 'connect' listener and, with none, drops the
  // socket without a word: the API answers it as any method it does not serve.
  fastify.server.on('connect', (_request: IncomingMessage, socket: Socket) => answerConnect(socket));

  // A response finished while shutting down closes its socket: an idle keep-alive
  // connection would otherwise hold the server open until keepAliveTimeout.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });

  // Routing is done by the time hooks run; the log line is written when the response ends.
  fastify.addHook('onRequest', async (request) => {
    (request.raw as RouteOfRequest)[ROUTE] = request.routeOptions.url;
  });
  // Background work on this thread gives way while requests are answered (BackgroundPace);
  // where nothing waits for them, requests pay nothing for the count.
  if (app.get<BackgroundPace>(BACKGROUND_PACE).watchesRequests) {
    fastify.addHook('onRequest', async (_request, reply) => {
      requestActivity.inFlight += 1;
      requestActivity.lastStartedAt = Date.now();
      // 'close' comes once, whether the answer finished or the client went away.
      reply.raw.once('close', () => (requestActivity.inFlight -= 1));
    });
  }

  const metrics = app.get(MetricsRegistry);
  // The API speaks JSON only: any other media type is a 415, not a string to validate.
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  // Read as bytes: decoded on the way in, bytes that are not UTF-8 would no longer add up to
  // Content-Length and get Fastify's misleading size error instead of saying what is wrong.
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: INGEST_LIMITS.maxBatchBytes },
    (request, body, done) => {
      let text: string;
      try {
        const encoding = request.headers['content-encoding'];
        text = decodeJsonBody(body as Buffer, Array.isArray(encoding) ? encoding.join(',') : encoding);
      } catch (error) {
        done(error as DomainError, undefined);
        return;
      }
      void parseJson(request, text, (error, value) => {
        if (error) done(new DomainError('MALFORMED_JSON', error.message), undefined);
        else done(null, value);
      });
    },
  );
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
  return app;
}
