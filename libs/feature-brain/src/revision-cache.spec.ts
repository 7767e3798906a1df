import { ItemChanges, type MemoryItemAdminRepository, type NotificationSource } from '@memex/db';
import { fake } from '../../../test/support/fakes';
import { RevisionCache } from './revision-cache';

/** A notification channel a spec drives: what PostgreSQL would send, and the connection's loss. */
function channel() {
  let handlers: { onMessage(payload: string): void; onLost(error: Error): void } | undefined;
  const source: NotificationSource = {
    listen: async (_channel, h) => {
      handlers = h;
      return async () => undefined;
    },
  };
  return { source, send: (p: string) => handlers!.onMessage(p), lose: () => handlers!.onLost(new Error('gone')) };
}

async function setUp() {
  let stored = 5;
  const items = fake<MemoryItemAdminRepository>({ revision: async () => stored }, 'items');
  const changes = new ItemChanges();
  const notifications = channel();
  const cache = new RevisionCache(items, notifications.source, changes);
  await cache.onModuleInit();
  return { cache, items, changes, notifications, store: (n: number) => (stored = n) };
}

describe('RevisionCache', () => {
  it('reads a revision once, then answers from memory while it listens', async () => {
    const { cache, items } = await setUp();
    expect(await cache.revision('P1')).toBe(5);
    expect(await cache.revision('P1')).toBe(5);
    expect(items.revision).toHaveBeenCalledTimes(1);
    await cache.onApplicationShutdown();
  });

  it('takes the revisions PostgreSQL announces, never going back to an older one', async () => {
    const { cache, notifications } = await setUp();
    await cache.revision('P1');
    notifications.send('P1:9');
    expect(await cache.revision('P1')).toBe(9);
    notifications.send('P1:7');
    expect(await cache.revision('P1')).toBe(9);
    await cache.onApplicationShutdown();
  });

  it("reads again after this process's own change, before its notification comes back", async () => {
    const { cache, changes, store } = await setUp();
    await cache.revision('P1');
    store(6);
    changes.announce(['P1']);
    expect(await cache.revision('P1')).toBe(6);
    await cache.onApplicationShutdown();
  });

  it('reads every revision from the database while the notifications are lost', async () => {
    const { cache, items, notifications, store } = await setUp();
    await cache.revision('P1');
    notifications.lose();
    store(8);
    expect(await cache.revision('P1')).toBe(8);
    expect(await cache.revision('P1')).toBe(8);
    expect(items.revision).toHaveBeenCalledTimes(3);
    await cache.onApplicationShutdown();
  });
});
