import type { Config } from '@memex/config';
import type { MemoryItemAdminRepository, ProjectRepository } from '@memex/db';
import { MemorySharedCache } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import { BrainService, cacheableBudget } from './brain.service';
import type { RevisionCache } from './revision-cache';

const PROJECT = '01JD00000000000000000PROJ1';
const NOW = new Date('2026-11-26T10:00:00Z');

function setUp() {
  let revision = 7;
  const items = fake<MemoryItemAdminRepository>({ forBrain: async () => ({ items: [], archived: 0 }) }, 'items');
  const projects = fake<ProjectRepository>(
    { findById: async () => ({ id: PROJECT, name: 'shop-api', memoryRevision: 7 }) },
    'projects',
  );
  const revisions = fake<RevisionCache>({ revision: async () => revision }, 'revisions');
  const cache = new MemorySharedCache();
  const service = new BrainService(projects, items, revisions, cache, { QUEUE_PREFIX: 'memex' } as Config);
  return { service, items, cache, bump: () => (revision += 1) };
}

describe('BrainService', () => {
  it('caches a brain by revision: asked again, it reads no items; after a change, it assembles anew', async () => {
    const { service, items, bump } = setUp();
    const first = await service.brain(PROJECT, 6000, NOW);
    expect(first.document).toContain('shop-api');
    expect(await service.brain(PROJECT, 6000, NOW)).toEqual(first);
    expect(items.forBrain).toHaveBeenCalledTimes(1);
    bump();
    await service.brain(PROJECT, 6000, NOW);
    expect(items.forBrain).toHaveBeenCalledTimes(2);
  });

  it('knows the current ETag only once a brain of the current revision is cached', async () => {
    const { service, bump } = setUp();
    expect(await service.currentHash(PROJECT, 'budget-6000', NOW)).toBeNull();
    const brain = await service.brain(PROJECT, 6000, NOW);
    expect(await service.currentHash(PROJECT, 'budget-6000', NOW)).toBe(brain.brainHash);
    bump();
    expect(await service.currentHash(PROJECT, 'budget-6000', NOW)).toBeNull();
  });

  it('assembles a budget off the grid every time and caches nothing for it, so no client can fill the cache', async () => {
    const { service, items } = setUp();
    expect(cacheableBudget(1234)).toBe(false);
    await service.brain(PROJECT, 1234, NOW);
    await service.brain(PROJECT, 1234, NOW);
    expect(items.forBrain).toHaveBeenCalledTimes(2);
    expect(await service.currentHash(PROJECT, 'budget-1234', NOW)).toBeNull();
  });

  it('assembles once for concurrent misses of one brain', async () => {
    const { service, items } = setUp();
    const brains = await Promise.all([1, 2, 3].map(() => service.brain(PROJECT, 2000, NOW)));
    expect(new Set(brains.map((b) => b.brainHash)).size).toBe(1);
    expect(items.forBrain).toHaveBeenCalledTimes(1);
  });

  it('keeps a brain for its UTC day only: ages in it change daily', async () => {
    const { service, items } = setUp();
    await service.brain(PROJECT, 6000, NOW);
    await service.brain(PROJECT, 6000, new Date('2026-11-27T00:00:01Z'));
    expect(items.forBrain).toHaveBeenCalledTimes(2);
  });
});
