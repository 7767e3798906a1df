import { Injectable, Logger } from '@nestjs/common';
import { MemoryItemAdminRepository } from '@memex/db';
import { bulkAction, patchedItem, type BulkItemsBody, type MemoryItem, type PatchItemBody } from '@memex/domain';
import { RedactionService } from '@memex/server';

const ACTOR = 'api';

/**
 * A person's changes to items (edit, approve, deprecate, archive, restore, resolve, delete):
 * each decided by the domain's rules on the item as it is locked, and written whole or not at
 * all. What a person writes is redacted like an event.
 */
@Injectable()
export class ItemCurationService {
  private readonly logger = new Logger(ItemCurationService.name);

  constructor(
    private readonly items: MemoryItemAdminRepository,
    private readonly redaction: RedactionService,
  ) {}

  async patch(projectId: string, itemId: string, sent: PatchItemBody): Promise<MemoryItem> {
    const patch = await this.redaction.value(projectId, sent);
    const now = new Date();
    return this.items.edit(projectId, { actor: ACTOR, reason: patch.reason ?? null }, async (tx) => {
      const [current] = await tx.lock([itemId]);
      return tx.update(itemId, patchedItem(current!, patch, now), patch.action ?? 'edited');
    });
  }

  /** All or nothing: one illegal move (409) or unknown id (404) and no item changes. */
  async bulk(projectId: string, sent: BulkItemsBody): Promise<{ updated: number; items: MemoryItem[] }> {
    const body = await this.redaction.value(projectId, sent);
    const now = new Date();
    const items = await this.items.edit(projectId, { actor: ACTOR, reason: body.reason ?? null }, async (tx) => {
      const updated: MemoryItem[] = [];
      for (const current of await tx.lock([...new Set(body.ids)])) {
        updated.push(await tx.update(current.itemId, bulkAction(current, body.action, now), body.action));
      }
      return updated;
    });
    return { updated: items.length, items };
  }

  /** For good, with its history: see MemoryItemAdminRepository.delete. */
  async remove(projectId: string, itemId: string) {
    const deleted = await this.items.delete(projectId, itemId, { actor: ACTOR, reason: null });
    // The one trace a deletion leaves: who removed which id, never what it said.
    this.logger.log({ projectId, itemId, unlinked: deleted.unlinked.length }, 'memory item deleted');
    return { ...deleted, deleted: true as const };
  }
}
