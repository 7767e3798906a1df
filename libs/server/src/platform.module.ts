import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { Config } from '@memex/config';
import { ConfigModule } from './config.module';
import { BACKGROUND_PACE, backgroundPace, type ProcessShape } from './background-pace';
import { DatabaseModule } from './database.module';
import { OperatorCredentials, ProjectKeyResolver } from './auth';
import { AuthFailureLimiter } from './auth-limiter';
import { GlobalExceptionFilter } from './exception.filter';
import { EarlyAnswers } from './early-answers';
import { HealthChecks, HealthController } from './health';
import { jobLogFields } from './log-context';
import { prettyLogs } from './log-format';
import { MetricsRegistry } from './metrics';
import { MetricsController } from './metrics.controller';
import { QueueModule } from './queue.module';
import { ROUTE, type RouteOfRequest } from './bootstrap-http';
import { RedactionService } from './redaction';

const QUIET_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

function withRoute(req: IncomingMessage, _res: unknown, value: object): object {
  return { ...value, route: (req as RouteOfRequest)[ROUTE] ?? 'unmatched' };
}

/**
 * What every process needs once: configuration, Postgres, Redis producers, logging,
 * health, metrics and the one exception filter. An app's entry point (or the all-in-one
 * process) imports this beside the feature modules it runs.
 */
@Module({})
export class PlatformModule {
  static forRoot(config: Config, shape: ProcessShape = {}): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        QueueModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.LOG_LEVEL,
            // A person at a terminal reads lines, a collector reads JSON.
            ...(prettyLogs(config)
              ? {
                  transport: {
                    target: 'pino-pretty',
                    options: { singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,req.id' },
                  },
                }
              : {}),
            // Lines written while a worker runs a job carry its id.
            mixin: jobLogFields,
            genReqId: (req) => {
              const given = req.headers['x-request-id'];
              return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
            },
            // Keys and tokens never reach a log line.
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
            // The route template, never the URL: a query string (a search) or a path segment (a
            // client's id) can hold what a person typed, secrets included. The request is bound
            // to its logger before routing, so the route joins the line written when it ends.
            customSuccessObject: withRoute,
            customErrorObject: (req: IncomingMessage, res: unknown, _error: unknown, value: object) =>
              withRoute(req, res, value),
            serializers: {
              req: (req: { id: string; method: string }) => ({ id: req.id, method: req.method }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
            autoLogging: { ignore: (req) => QUIET_ROUTES.has((req.url ?? '').split('?')[0] ?? '') },
          },
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        EarlyAnswers,
        HealthChecks,
        MetricsRegistry,
        AuthFailureLimiter,
        ProjectKeyResolver,
        OperatorCredentials,
        RedactionService,
        { provide: BACKGROUND_PACE, useValue: backgroundPace(config, shape) },
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
      ],
      exports: [
        EarlyAnswers,
        MetricsRegistry,
        AuthFailureLimiter,
        ProjectKeyResolver,
        OperatorCredentials,
        RedactionService,
        BACKGROUND_PACE,
      ],
    };
  }
}
