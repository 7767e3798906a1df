import { Inject, Injectable } from '@nestjs/common';
import type { Config } from '@memex/config';
import { assembleBrain, assembleSummary } from '@memex/brain';
import type { BrainView, SummaryView } from '@memex/domain';
import { MemoryItemAdminRepository, ProjectRepository } from '@memex/db';
import { RevisionCache } from './revision-cache';
import { CONFIG, SHARED_CACHE, TtlCache, type SharedCache } from '@memex/server';

/** Entries of old revisions are useless: keep them only as long as a working session revalidates. */
const CACHE_TTL_SECONDS = 15 * 60;

/**
 * Only budgets on this grid are cached (the default 6,000 among them): any other budget gets
 * its exact brain, assembled for it, so no client can fill Redis (which runs with
 * `noeviction`) by walking through budgets.
 */
export function cacheableBudget(budget: number): boolean {
  return budget % 500 === 0;
}

/**
 * Assembles and caches brains. The cache key holds the project's memory revision (bumped by
 * every change to its items), the options and the UTC day (ages in the document change
 * daily), so a cached brain is never stale and a revalidation reads one project row and one
 * small cache key (Redis in server mode), never item rows. Cache trouble only costs speed: the brain is assembled anyway.
 */
@Injectable()
export class BrainService {
  /**
   * Hashes of brains this process has seen, by their full cache key. The key holds the
   * revision, so an entry can never be stale; it saves revalidations a Redis round trip.
   */
  private readonly hashes = new TtlCache<string>(3_600_000, 20_000);
  /** Brains being built, so concurrent misses for one key assemble once. */
  private readonly building = new Map<string, Promise<unknown>>();

  constructor(
    private readonly projects: ProjectRepository,
    private readonly items: MemoryItemAdminRepository,
    private readonly revisions: RevisionCache,
    @Inject(SHARED_CACHE) private readonly cache: SharedCache,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  private async key(projectId: string, kind: string, now: Date): Promise<string> {
    const revision = await this.revisions.revision(projectId);
    return `${this.config.QUEUE_PREFIX}:brain:${projectId}:${revision}:${kind}:${now.toISOString().slice(0, 10)}`;
  }

  /** The current ETag, when a brain for the current revision is cached. */
  async currentHash(projectId: string, kind: string, now = new Date()): Promise<string | null> {
    const key = await this.key(projectId, kind, now);
    const known = this.hashes.get(key);
    if (known) return known;
    const hash = await this.cache.get(`${key}:hash`);
    if (hash) this.hashes.set(key, hash);
    return hash;
  }

  async brain(projectId: string, tokenBudget: number, now = new Date()): Promise<BrainView> {
    const assemble = async () => {
      const [{ items, archived }, project] = await Promise.all([
        this.items.forBrain(projectId),
        this.projects.findById(projectId),
      ]);
      const { included: _included, ...brain } = assembleBrain(
        items,
        { tokenBudget, projectName: project?.name, archivedElsewhere: archived },
        now,
      );
      return { value: brain, hash: brain.brainHash };
    };
    if (!cacheableBudget(tokenBudget)) return (await assemble()).value;
    return this.cached(projectId, `budget-${tokenBudget}`, now, assemble);
  }

  async summary(projectId: string, now = new Date()): Promise<SummaryView> {
    return this.cached(projectId, 'summary', now, async () => {
      const [{ items }, project] = await Promise.all([
        this.items.forBrain(projectId),
        this.projects.findById(projectId),
      ]);
      const summary = assembleSummary(items, now, { projectName: project?.name });
      return { value: summary, hash: summary.brainHash };
    });
  }

  private async cached<T>(
    projectId: string,
    kind: string,
    now: Date,
    build: () => Promise<{ value: T; hash: string }>,
  ): Promise<T> {
    const key = await this.key(projectId, kind, now);
    const hit = await this.cache.get(key);
    if (hit) return JSON.parse(hit) as T;
    const pending = this.building.get(key);
    if (pending) return pending as Promise<T>;
    const work = this.build(key, build).finally(() => this.building.delete(key));
    this.building.set(key, work);
    return work;
  }

  private async build<T>(key: string, build: () => Promise<{ value: T; hash: string }>): Promise<T> {
    const { value, hash } = await build();
    this.hashes.set(key, hash);
    await this.cache.setMany(
      [
        [key, JSON.stringify(value)],
        [`${key}:hash`, hash],
      ],
      CACHE_TTL_SECONDS,
    );
    return value;
  }
}
