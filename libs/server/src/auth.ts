import {
  Controller,
  Inject,
  Injectable,
  UseGuards,
  applyDecorators,
  createParamDecorator,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Config } from '@memex/config';
import { ProjectRepository } from '@memex/db';
import { DomainError, hashApiKey, looksLikeApiKey, secretsEqual, ulidSchema } from '@memex/domain';
import { AuthFailureLimiter, type CredentialKind } from './auth-limiter';
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
    return this.resolveKey(request.ip, token);
  }

  /** The project of a key presented from `address`, however it was presented. */
  async resolveKey(address: string, token: string): Promise<string> {
    return this.limiter.attempt('project-key', address, token, async () => {
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

/** What an operator endpoint accepts, and how a client is told to present it. */
export interface OperatorSecret {
  kind: Exclude<CredentialKind, 'project-key'>;
  /** The secrets that open it (unset ones are skipped); none set: the endpoint is disabled. */
  accepted: ReadonlyArray<string | undefined>;
  /** How the secret is presented, for the 401's message. */
  how: string;
  /** What to set to enable the endpoint, for the 403's message. */
  enable: string;
}

/** The secret check itself: throws the refusal (403 disabled, 401 missing or wrong). */
export function assertOperatorSecret(token: string | undefined, secret: OperatorSecret): void {
  const accepted = secret.accepted.filter((a): a is string => Boolean(a));
  if (accepted.length === 0) {
    throw new DomainError('ADMIN_DISABLED', `operator endpoints are disabled: set ${secret.enable} to enable them`);
  }
  if (!token) throw new DomainError('UNAUTHORIZED', `the admin token is required (${secret.how})`);
  // Every accepted secret is compared, so the time taken says nothing of which one was close.
  const matches = accepted.map((a) => secretsEqual(token, a));
  if (!matches.includes(true)) throw new DomainError('UNAUTHORIZED', 'invalid admin token');
}

/**
 * Operator endpoints' credential check (the admin guard, /metrics, the queue board), under the
 * failure limits. A project key is told apart by its `mx_` prefix and checked as a key: a valid
 * one is 403 FORBIDDEN (it opens its own project's endpoints, not this one), never a wrong
 * admin token counted against it; a wrong one fails as a key.
 */
@Injectable()
export class OperatorCredentials {
  constructor(
    private readonly keys: ProjectKeyResolver,
    private readonly limiter: AuthFailureLimiter,
  ) {}

  async verify(address: string, token: string | undefined, secret: OperatorSecret): Promise<void> {
    if (token && looksLikeApiKey(token)) {
      await this.keys.resolveKey(address, token);
      throw new DomainError(
        'FORBIDDEN',
        "a project key opens its own project's endpoints; this one is for operators (the admin token)",
      );
    }
    await this.limiter.attempt(secret.kind, address, token, () => assertOperatorSecret(token, secret));
  }
}

/** The admin endpoints' secret: the admin token alone. */
export function adminSecret(config: Config, how: string): OperatorSecret {
  return { kind: 'admin-token', accepted: [config.MEMEX_ADMIN_TOKEN], how, enable: 'MEMEX_ADMIN_TOKEN' };
}

/**
 * A guard of operator endpoints that take `Authorization: Bearer`: the token is verified as
 * operator credentials against the secret the subclass reads from the configuration.
 */
@Injectable()
export abstract class OperatorBearerGuard implements CanActivate {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly operators: OperatorCredentials,
  ) {}

  protected abstract secret(config: Config): OperatorSecret;

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    await this.operators.verify(request.ip, bearerToken(request), this.secret(this.config));
    return true;
  }
}

/** Operator endpoints: `Authorization: Bearer $MEMEX_ADMIN_TOKEN`; disabled while the token is unset. */
@Injectable()
export class AdminTokenGuard extends OperatorBearerGuard {
  protected secret(config: Config): OperatorSecret {
    return adminSecret(config, 'Authorization: Bearer <admin token>');
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
class ProjectScopeGuard implements CanActivate {
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

/**
 * A controller of a project's reads and curation, at `/api/v2/<path>` behind ProjectScopeGuard:
 * every such route answers to the project's key or to the admin token naming the project.
 */
export const ProjectScopedController = (path?: string) =>
  applyDecorators(Controller(path ? `api/v2/${path}` : 'api/v2'), UseGuards(ProjectScopeGuard));

/** The caller; only valid behind ProjectOrAdminGuard. */
export const CallerPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<PrincipalRequest>().principal;
  if (!principal) throw new Error('CallerPrincipal used on a route without ProjectOrAdminGuard');
  return principal;
});
