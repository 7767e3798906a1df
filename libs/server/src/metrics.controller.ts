import {
  Controller,
  Get,
  Header,
  Inject,
  Injectable,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Config } from '@memex/config';
import { OperatorCredentials, bearerToken } from './auth';
import { CONFIG } from './config.module';
import { MetricsRegistry } from './metrics';

/**
 * /metrics tells whoever reads it what the deployment does (routes, queues, failures, secrets
 * found by kind), and the edge and the Ingress route `/` to brain-api: a scrape presents
 * `Authorization: Bearer` with METRICS_TOKEN, which a Prometheus can hold without holding the
 * admin token, or the admin token itself. Failed tokens are limited as the admin token's are.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly operators: OperatorCredentials,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    await this.operators.verify(request.ip, bearerToken(request), {
      kind: 'metrics-token',
      accepted: [this.config.METRICS_TOKEN, this.config.MEMEX_ADMIN_TOKEN],
      how: 'Authorization: Bearer <METRICS_TOKEN or admin token>',
      enable: 'METRICS_TOKEN or MEMEX_ADMIN_TOKEN',
    });
    return true;
  }
}

@Controller()
@UseGuards(MetricsTokenGuard)
export class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
