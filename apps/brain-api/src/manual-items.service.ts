import { Injectable } from '@nestjs/common';
import { MemoryItemAdminRepository } from '@memex/db';
import type { CreateItemBody, MemoryItem } from '@memex/domain';
import { dedupHintFor, schemaKeyFor } from '@memex/enrichment';
import { RevisionCache } from './revision-cache';

/** Items written by a person or an assistant (the API and MCP's memex_remember), not extracted. */
@Injectable()
export class ManualItemService {
  constructor(
    private readonly items: MemoryItemAdminRepository,
    private readonly revisions: RevisionCache,
  ) {}

  async create(projectId: string, body: CreateItemBody, who: { actor: string; reason: string }): Promise<MemoryItem> {
    const item = await this.items.create(
      projectId,
      {
        ...body,
        schemaKey: body.schemaKey ?? schemaKeyFor(body.type, body.files),
        dedupHint: body.dedupHint ?? dedupHintFor(body.type, body.title, body.files),
      },
      who,
    );
    this.revisions.forget(projectId);
    return item;
  }
}
