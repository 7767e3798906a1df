import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { toErrorResponse } from '@memex/server';
import { DomainError } from '@memex/domain';

export const DASHBOARD_PATH = '/ui';

/** Assets are named by their content hash: a browser may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The page may load only its own scripts and styles, and talk only to this server: item text
 * rendered by mistake as HTML could still run nothing and send nothing elsewhere.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** apps/dashboard/dist, looked for upwards from here: the same from the sources (jest) and from dist/ (the image). */
export function findDashboardBundle(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const bundle = join(dir, 'apps', 'dashboard', 'dist');
    if (existsSync(join(bundle, 'index.html'))) return bundle;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The dashboard at /ui: the files Vite built, and index.html for every other path under it,
 * so a deep link (/ui/items/<id>) opens the app there. A Fastify plugin beside Nest's routes,
 * as the queue board is. Without a bundle, /ui says how to build one.
 */
@Injectable()
export class DashboardUi implements OnModuleInit {
  private readonly logger = new Logger(DashboardUi.name);

  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    const root = findDashboardBundle(__dirname);
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    if (!root) this.logger.warn('the dashboard is not built (npm run build:dashboard); /ui answers 404');
    void fastify.register(
      async (scope) => {
        scope.addHook('onSend', async (_request, reply) => {
          void reply.headers(SECURITY_HEADERS);
        });
        const notBuilt = (_request: FastifyRequest, reply: FastifyReply) => {
          const { status, body } = toErrorResponse(
            new DomainError('NOT_FOUND', 'the dashboard is not built: run `npm run build:dashboard` and restart'),
          );
          return reply.code(status).send(body);
        };
        if (!root) {
          scope.get('/', notBuilt);
          scope.setNotFoundHandler(notBuilt);
          return;
        }
        const index = async (_request: FastifyRequest, reply: FastifyReply) =>
          reply
            .header('cache-control', 'no-cache')
            .type('text/html; charset=utf-8')
            .send(await readFile(join(root, 'index.html')));
        await scope.register(fastifyStatic, {
          root,
          prefix: '/',
          index: false,
          decorateReply: false,
          cacheControl: false,
          setHeaders: (reply, path) => {
            void reply.header('cache-control', path.includes(`${sep}assets${sep}`) ? IMMUTABLE : 'no-cache');
          },
        });
        scope.get('/', index);
        // Not a file: an app route (index.html), unless it asks for an asset, which must not
        // come back as HTML (an old page asking for an asset a new build no longer has).
        scope.setNotFoundHandler(async (request, reply) => {
          if (request.url.startsWith(`${DASHBOARD_PATH}/assets/`) || request.method !== 'GET') {
            const { status, body } = toErrorResponse(new DomainError('NOT_FOUND', `no file ${request.url}`));
            return reply.code(status).send(body);
          }
          return index(request, reply);
        });
      },
      { prefix: DASHBOARD_PATH },
    );
  }
}
