import { Inject, Injectable, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Config } from '@memex/config';
import { ProjectRepository } from '@memex/db';
import { DomainError, hashApiKey, looksLikeApiKey, secretsEqual, ulidSchema } from '@memex/domain';
import { AuthFailureLimiter } from './auth-limiter';
import { CONFIG } from './config.module';
import { TtlCache } from './ttl-cache';

interface AuthenticatedRequest extends FastifyRequest {
  projectId?: string;
}

/** The token of `Authorization: Bearer <token>`, if the request carries one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Bearer project key → its project. Lookups are cached for a minute: a hook client posts
 * often, and a lookup per request would double the ingest path's round trips. Keys no
 * project has are remembered apart, for a few seconds, so a guess repeated costs no query
 * and junk keys never push good ones out of the cache. Failures are rate limited
 * (AuthFailureLimiter).
 */
@Injectable()
export class ProjectKeyResolver {
  private readonly cache = new TtlCache<string>(60_000, 10_000);
  private readonly unknown = new TtlCache<true>(10_000, 10_000);

  constructor(
    private readonly projects: ProjectRepository,
    private readonly limiter: AuthFailureLimiter,
  ) {}

  /** The project of the request's key; throws 401 without a valid one, 429 past the failure limits. */
  async resolve(request: FastifyRequest): Promise<string> {
    const token = bearerToken(request);
    if (!token) throw new DomainError('UNAUTHORIZED', 'missing Authorization: Bearer <api key> header');
    return this.limiter.attempt('project-key', request.ip, token, async () => {
      // A malformed key cannot match; skipping the lookup keeps junk off the database.
      const projectId = looksLikeApiKey(token) ? await this.lookup(hashApiKey(token)) : undefined;
      if (!projectId) throw new DomainError('UNAUTHORIZED', 'invalid or revoked API key');
      return projectId;
    });
  }

  private async lookup(keyHash: string): Promise<string | undefined> {
    const cached = this.cache.get(keyHash);
    if (cached) return cached;
    if (this.unknown.get(keyHash)) return undefined;
    const projectId = await this.projects.findProjectIdByKeyHash(keyHash);
    if (projectId) this.cache.set(keyHash, projectId);
    else this.unknown.set(keyHash, true);
    return projectId;
  }
}

/** Every query is then scoped to the key's project. */
@Injectable()
export class ProjectKeyGuard implements CanActivate {
  constructor(private readonly keys: ProjectKeyResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.projectId = await this.keys.resolve(request);
    return true;
  }
}

/**
 * The admin token check, shared by the guard and the queue board: throws the refusal.
 * `how` tells the caller how the token is presented.
 */
export function assertAdminToken(token: string | undefined, expected: string | undefined, how: string): void {
  if (!expected) {
    throw new DomainError('ADMIN_DISABLED', 'operator endpoints are disabled: set MEMEX_ADMIN_TOKEN to enable them');
  }
  if (!token) throw new DomainError('UNAUTHORIZED', `the admin token is required (${how})`);
  if (!secretsEqual(token, expected)) throw new DomainError('UNAUTHORIZED', 'invalid admin token');
}

/** Operator endpoints: `Authorization: Bearer $MEMEX_ADMIN_TOKEN`; disabled while the token is unset. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly limiter: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(request);
    await this.limiter.attempt('admin-token', request.ip, token, () =>
      assertAdminToken(token, this.config.MEMEX_ADMIN_TOKEN, 'Authorization: Bearer <admin token>'),
    );
    return true;
  }
}

/** The project the request's key belongs to; only valid behind ProjectKeyGuard or ProjectScopeGuard. */
export const ProjectId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const projectId = context.switchToHttp().getRequest<AuthenticatedRequest>().projectId;
  if (!projectId) throw new Error('ProjectId used on a route without ProjectKeyGuard or ProjectScopeGuard');
  return projectId;
});

/** Who is calling an endpoint open to both: a project key (its project only) or the admin token (any). */
export type Principal = { kind: 'project'; projectId: string } | { kind: 'admin' };

interface PrincipalRequest extends FastifyRequest {
  principal?: Principal;
}

/** Endpoints open to a project's key (its project) and to operators (any project). */
@Injectable()
export class ProjectOrAdminGuard implements CanActivate {
  constructor(
    private readonly keys: ProjectKeyResolver,
    @Inject(CONFIG) private readonly config: Config,
    private readonly limiter: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PrincipalRequest>();
    request.principal = await principalOf(request, this.keys, this.limiter, this.config.MEMEX_ADMIN_TOKEN);
    return true;
  }
}

/**
 * The admin token, or a project's key (401 for anything else). A key is told apart from the
 * admin token by its `mx_` prefix; without MEMEX_ADMIN_TOKEN set, only keys are accepted.
 */
async function principalOf(
  request: FastifyRequest,
  keys: ProjectKeyResolver,
  limiter: AuthFailureLimiter,
  admin: string | undefined,
): Promise<Principal> {
  const token = bearerToken(request);
  if (token && !looksLikeApiKey(token)) {
    await limiter.attempt('admin-token', request.ip, token, () => {
      if (!admin || !secretsEqual(token, admin)) {
        throw new DomainError('UNAUTHORIZED', 'invalid API key or admin token');
      }
    });
    return { kind: 'admin' };
  }
  return { kind: 'project', projectId: await keys.resolve(request) };
}

/** The header naming the project an admin-token request acts on, where a key would name its own. */
export const PROJECT_HEADER = 'x-memex-project';

/**
 * A project's reads and curation (brain, items, search, sessions, events): its key, or the
 * admin token with `X-Memex-Project: <projectId>`, so an operator signed in to the dashboard
 * works on any project without holding its key. The token check is the operator endpoints'.
 */
@Injectable()
export class ProjectScopeGuard implements CanActivate {
  constructor(
    private readonly keys: ProjectKeyResolver,
    private readonly projects: ProjectRepository,
    @Inject(CONFIG) private readonly config: Config,
    private readonly limiter: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const caller = await principalOf(request, this.keys, this.limiter, this.config.MEMEX_ADMIN_TOKEN);
    if (caller.kind === 'project') {
      request.projectId = caller.projectId;
      return true;
    }
    const named = request.headers[PROJECT_HEADER];
    const projectId = typeof named === 'string' ? named.trim() : '';
    if (!ulidSchema.safeParse(projectId).success) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'X-Memex-Project: the admin token acts on the project this header names (a project id)',
        {
          issues: [
            { path: 'X-Memex-Project', message: projectId ? 'must be a ULID' : 'required with the admin token' },
          ],
        },
      );
    }
    if (!(await this.projects.findById(projectId))) {
      throw new DomainError('NOT_FOUND', `no project ${projectId}`, { projectId });
    }
    request.projectId = projectId;
    return true;
  }
}

/** The caller; only valid behind ProjectOrAdminGuard. */
export const CallerPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<PrincipalRequest>().principal;
  if (!principal) throw new Error('CallerPrincipal used on a route without ProjectOrAdminGuard');
  return principal;
});
