import { Injectable } from '@nestjs/common';
import { MemoryItemAdminRepository, QuoteRepository } from '@memex/db';
import { DomainError, type CreateItemBody, type MemoryItem, type RememberBody } from '@memex/domain';
import { dedupHintFor, normalizeWhitespace, schemaKeyFor } from '@memex/enrichment';
import { RedactionService } from '@memex/server';

/** An assistant's own memories: confident (it stated them and the words check out), never displaced by extraction. */
const REMEMBERED = { confidence: 0.9, salience: 1 } as const;

/** Items written by a person (the API) or an assistant (MCP's memex_remember), not extracted. */
@Injectable()
export class ManualItemService {
  constructor(
    private readonly items: MemoryItemAdminRepository,
    private readonly quotes: QuoteRepository,
    private readonly redaction: RedactionService,
  ) {}

  /** Secrets in what a person or an assistant writes are redacted as an event's would be. */
  async create(
    projectId: string,
    sent: CreateItemBody & { sessionId?: string; salience?: number },
    who: { actor: string; reason: string },
  ): Promise<MemoryItem> {
    const body = await this.redaction.value(projectId, sent);
    const item = await this.items.create(
      projectId,
      {
        ...body,
        schemaKey: body.schemaKey ?? schemaKeyFor(body.type, body.files),
        dedupHint: body.dedupHint ?? dedupHintFor(body.type, body.title, body.files),
      },
      who,
    );
    return item;
  }

  /**
   * A memory an assistant recorded, kept only with the words that show it: each quote must
   * stand verbatim (whitespace folded) in an event of the project's recent sessions, the check
   * every extracted item passes. The item belongs to the session those words came from.
   */
  async remember(projectId: string, body: RememberBody): Promise<MemoryItem> {
    // Events are stored redacted: a quote holding a secret is looked for as it was stored.
    const quotes = [...new Set((await this.redaction.value(projectId, body.quotes)).map(normalizeWhitespace))];
    const found = await this.quotes.find(projectId, quotes);
    if (found.length === 0) {
      throw new DomainError(
        'EVIDENCE_NOT_FOUND',
        "none of the quotes stands verbatim in this project's recent sessions: quote your own words or the person's exactly, as they were said",
        { quotes: quotes.length },
      );
    }
    const { quotes: _quotes, ...content } = body;
    return this.create(
      projectId,
      {
        ...content,
        impact: null,
        tags: [],
        importance: body.type === 'Decision' || body.type === 'Convention' ? 4 : 3,
        ...REMEMBERED,
        evidence: found.map((f) => ({ eventId: f.eventId, quote: f.quote })),
        sessionId: found[0]!.sessionId,
      },
      { actor: 'mcp', reason: `remembered by an assistant (${found.length} of ${quotes.length} quotes found)` },
    );
  }
}
