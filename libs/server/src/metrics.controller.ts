import { Controller, Get, Header, Injectable, UseGuards } from '@nestjs/common';
import type { Config } from '@memex/config';
import { OperatorBearerGuard, type OperatorSecret } from './auth';
import { MetricsRegistry } from './metrics';

/**
 * /metrics tells whoever reads it what the deployment does (routes, queues, failures, secrets
 * found by kind), and the edge and the Ingress route `/` to brain-api: a scrape presents
 * `Authorization: Bearer` with METRICS_TOKEN, which a Prometheus can hold without holding the
 * admin token, or the admin token itself. Failed tokens are limited as the admin token's are.
 */
@Injectable()
export class MetricsTokenGuard extends OperatorBearerGuard {
  protected secret(config: Config): OperatorSecret {
    return {
      kind: 'metrics-token',
      accepted: [config.METRICS_TOKEN, config.MEMEX_ADMIN_TOKEN],
      how: 'Authorization: Bearer <METRICS_TOKEN or admin token>',
      enable: 'METRICS_TOKEN or MEMEX_ADMIN_TOKEN',
    };
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
