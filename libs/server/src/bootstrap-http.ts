import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { DomainError, INGEST_LIMITS } from '@memex/domain';
import { toErrorResponse } from './exception.filter';
import { MetricsRegistry } from './metrics';

/** Builds a Fastify-backed Nest app around `rootModule`, ready to `listen`. */
export async function createHttpApp(rootModule: unknown): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: INGEST_LIMITS.maxBatchBytes,
    requestIdHeader: false,
    // Fastify's default is to throw on these keys; spelled out because it is a security property.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A socket idle this long between requests is dropped; keeps stuck clients from holding connections.
    keepAliveTimeout: 65_000,
    // Client ids in paths may be up to 200 characters (Fastify's default stops at 100).
    routerOptions: { maxParamLength: INGEST_LIMITS.maxIdLength + 56 },
    // Router errors (a malformed URL, an over-long parameter) never reach Nest's filter.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      const { status, body } = toErrorResponse(error);
      void reply.code(status).send(body);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    bufferLogs: true,
    abortOnError: false,
    // Our own JSON parser below: Nest's would turn a parse error into an anonymous 400.
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const fastify = app.getHttpAdapter().getInstance();

  // A response finished while shutting down closes its socket: an idle keep-alive
  // connection would otherwise hold the server open until keepAliveTimeout.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });

  const metrics = app.get(MetricsRegistry);
  // The API speaks JSON only: any other media type is a 415, not a string to validate.
  fastify.removeAllContentTypeParsers();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: INGEST_LIMITS.maxBatchBytes },
    (request, body, done) => {
      void parseJson(request, body as string, (error, value) => {
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
