import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import { retryOnConnectionLoss } from '@memex/db';

const RETRIED = Symbol('retriedOnConnectionLoss');

/** A route that only reads although it is not a GET (a query sent as a body): retried like one. */
export const ReadOnlyRoute = (): MethodDecorator => SetMetadata(RETRIED, true);

/**
 * Runs a read again, once, when the database connection under it was lost (a restart, a
 * failover, a terminated backend): the client then never sees the loss. Writes are not
 * retried here, since the lost statement may have committed; a write that is safe to repeat
 * retries itself where it knows why. What still fails becomes a 503 in the exception filter.
 */
@Injectable()
export class ConnectionLossRetryInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const { method } = context.switchToHttp().getRequest<FastifyRequest>();
    const reads = method === 'GET' || method === 'HEAD' || this.reflector.get<boolean>(RETRIED, context.getHandler());
    if (!reads) return next.handle();
    // Each subscription to next.handle() runs the handler afresh.
    return defer(() => retryOnConnectionLoss(() => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}
