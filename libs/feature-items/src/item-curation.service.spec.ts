import type { ItemEditTransaction, MemoryItemAdminRepository } from '@memex/db';
import type { BulkItemsBody, ItemUpdate, MemoryItem, PatchItemBody } from '@memex/domain';
import type { RedactionService } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import { ItemCurationService } from './item-curation.service';

const PROJECT = '01JD00000000000000000PROJ1';

function item(itemId: string, over: Partial<MemoryItem> = {}): MemoryItem {
  return { itemId, type: 'Todo', status: 'active', resolvedAt: null, title: itemId, ...over } as MemoryItem;
}

/** The admin repository's edit, over items in memory: locks what it is asked for, records each update. */
function setUp(stored: MemoryItem[]) {
  const updates: Array<{ itemId: string; update: ItemUpdate; change: string }> = [];
  const locked: string[][] = [];
  const tx = fake<ItemEditTransaction>(
    {
      lock: async (ids: string[]) => {
        locked.push(ids);
        const found = ids.map((id) => stored.find((i) => i.itemId === id));
        if (found.some((i) => !i)) throw Object.assign(new Error('not found'), { code: 'ITEM_NOT_FOUND' });
        return found as MemoryItem[];
      },
      update: async (itemId: string, update: ItemUpdate, change: string) => {
        updates.push({ itemId, update, change });
        return { ...stored.find((i) => i.itemId === itemId)!, ...update } as MemoryItem;
      },
    },
    'tx',
  );
  const items = fake<MemoryItemAdminRepository>(
    {
      edit: async <T>(_p: string, _who: unknown, work: (t: ItemEditTransaction) => Promise<T>) => work(tx),
      delete: async (_p: string, itemId: string) => ({ itemId, unlinked: ['I9'], expiredProposals: 0 }),
    },
    'items',
  );
  const redaction = fake<RedactionService>(
    { value: async <T>(_p: string, v: T) => JSON.parse(JSON.stringify(v).replaceAll('SECRET', '[REDACTED]')) as T },
    'redaction',
  );
  return { service: new ItemCurationService(items, redaction), items, updates, locked };
}

describe('ItemCurationService', () => {
  it('edits an item as it is locked, the edit redacted, under the reason the person gave', async () => {
    const { service, items, updates, locked } = setUp([item('I1')]);
    await service.patch(PROJECT, 'I1', { facts: 'the token is SECRET', reason: 'typo' } as PatchItemBody);
    expect(locked).toEqual([['I1']]);
    expect(updates).toEqual([
      { itemId: 'I1', update: expect.objectContaining({ facts: 'the token is [REDACTED]' }), change: 'edited' },
    ]);
    expect(items.edit).toHaveBeenCalledWith(PROJECT, { actor: 'api', reason: 'typo' }, expect.any(Function));
  });

  it('names the history entry after the action a patch carries, and moves the status by the domain rule', async () => {
    const { service, updates } = setUp([item('I1')]);
    await service.patch(PROJECT, 'I1', { action: 'resolve' } as PatchItemBody);
    expect(updates[0]).toMatchObject({ change: 'resolve', update: { resolvedAt: expect.any(Date) } });
  });

  it('applies a bulk action to each item once, all in one edit', async () => {
    const { service, items, updates } = setUp([item('I1'), item('I2')]);
    const answer = await service.bulk(PROJECT, { ids: ['I1', 'I2', 'I1'], action: 'archive' } as BulkItemsBody);
    expect(answer.updated).toBe(2);
    expect(updates.map((u) => [u.itemId, u.change, u.update.status])).toEqual([
      ['I1', 'archive', 'archived'],
      ['I2', 'archive', 'archived'],
    ]);
    expect(items.edit).toHaveBeenCalledTimes(1);
  });

  it('fails a bulk action on an unknown id before any update', async () => {
    const { service, updates } = setUp([item('I1')]);
    await expect(
      service.bulk(PROJECT, { ids: ['I1', 'I404'], action: 'archive' } as BulkItemsBody),
    ).rejects.toMatchObject({ code: 'ITEM_NOT_FOUND' });
    expect(updates).toEqual([]);
  });

  it('deletes for good and says so', async () => {
    const { service } = setUp([item('I1')]);
    expect(await service.remove(PROJECT, 'I1')).toEqual({
      itemId: 'I1',
      unlinked: ['I9'],
      expiredProposals: 0,
      deleted: true,
    });
  });
});
