import { Inject, Injectable, Logger } from '@nestjs/common';
import { SearchRepository, type SearchFilter, type SearchHit } from '@memex/db';
import {
  DomainError,
  ITEM_STATUSES,
  MAX_QUERY_WORDS,
  queryWords,
  type ContextPackBody,
  type ItemStatus,
  type SearchMode,
  type SearchQuery,
  type SearchResponseView,
} from '@memex/domain';
import { EMBEDDER, VECTOR_STORE, type Embedder, type VectorStore } from '@memex/retrieval';
import { anyOfWords, assembleContextPack, reciprocalRankFusion, splitWebQuery } from '@memex/search';
import { RedactionService } from '@memex/server';

/** How deep each source ranks before fusion. */
const DEPTH = 50;
const RRF_K = 60;
/** Items a context pack chooses from. */
const PACK_CANDIDATES = 30;
const RECENT_EVENTS = 20;
/**
 * Below this cosine a vector hit is noise (hashed features collide a little), and would still
 * earn a rank in the fusion: it is dropped.
 */
const MIN_VECTOR_SCORE = 0.05;

/** What search shows by default: superseded and archived items only when asked for. */
const LIVE: readonly ItemStatus[] = ['active', 'stale', 'review'];

function statusesFor(status: ItemStatus | undefined, includeArchived: boolean): readonly ItemStatus[] {
  if (status) {
    if ((status === 'superseded' || status === 'archived') && !includeArchived) {
      throw new DomainError('VALIDATION_FAILED', `status=${status} needs includeArchived=true`, {
        issues: [{ path: 'status', message: 'superseded and archived items are searched with includeArchived=true' }],
      });
    }
    return [status];
  }
  return includeArchived ? ITEM_STATUSES : LIVE;
}

export interface RankedHit {
  hit: SearchHit;
  score: number;
  ranks: { fullText: number | null; vector: number | null };
}

/** Hybrid retrieval: full text and vectors ranked apart, fused by reciprocal rank fusion (k = 60). */
@Injectable()
export class SearchService {
  private readonly logger = new Logger(SearchService.name);

  constructor(
    private readonly search: SearchRepository,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionService,
  ) {}

  /**
   * A query holding a secret is redacted before it is searched, embedded (perhaps by a remote
   * model) or echoed: stored text holds only placeholders, so the secret itself could match
   * nothing anyway.
   */
  async query(projectId: string, sent: SearchQuery): Promise<SearchResponseView> {
    const started = performance.now();
    const q = { ...sent, q: await this.redaction.text(projectId, sent.q) };
    const statuses = statusesFor(q.status, q.includeArchived);
    const { sought, excluded } = splitWebQuery(q.q);
    const results = await this.ranked(
      projectId,
      { fullText: q.q, vector: sought },
      q.mode,
      { statuses, types: q.type ? [q.type] : undefined, excluded },
      q.limit,
    );
    return {
      query: q.q,
      mode: q.mode,
      results: results.map(({ hit, score, ranks }) => ({
        itemId: hit.itemId,
        score: Math.round(score * 1e6) / 1e6,
        ranks,
        snippet: hit.snippet,
        item: {
          itemId: hit.itemId,
          type: hit.type,
          status: hit.status,
          title: hit.title,
          confidence: hit.confidence,
          importance: hit.importance,
          schemaKey: hit.schemaKey,
          files: hit.files,
          tags: hit.tags,
          updatedAt: hit.updatedAt.toISOString(),
        },
      })),
      tookMs: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  async contextPack(projectId: string, sent: ContextPackBody) {
    const started = performance.now();
    const body = { ...sent, query: await this.redaction.text(projectId, sent.query) };
    const { filters } = body;
    const statuses = filters.includeArchived ? ITEM_STATUSES : LIVE;
    // A prompt may be long; its first words are what retrieval uses (see MAX_QUERY_WORDS). It
    // is a sentence, not a query: full text takes items sharing any of its words, ranked by
    // how many and how often, as requiring every word would rarely match anything.
    const words = queryWords(body.query).slice(0, MAX_QUERY_WORDS);
    const [ranked, recent] = await Promise.all([
      words.length > 0
        ? this.ranked(
            projectId,
            { fullText: anyOfWords(words), vector: words.join(' ') },
            'hybrid',
            { statuses, types: filters.types },
            PACK_CANDIDATES,
          )
        : Promise.resolve([]),
      filters.includeRecent === false ? Promise.resolve([]) : this.search.recentEvents(projectId, RECENT_EVENTS),
    ]);
    const pack = assembleContextPack({
      query: body.query,
      maxTokens: body.maxTokens,
      now: Date.now(),
      candidates: ranked.map(({ hit, score }) => ({
        itemId: hit.itemId,
        type: hit.type,
        title: hit.title,
        facts: hit.facts,
        rationale: hit.rationale,
        files: hit.files,
        status: hit.status,
        relevance: score,
      })),
      recent: recent.map((e) => ({ ...e, occurredAt: e.occurredAt.getTime() })),
    });
    return {
      content: pack.content,
      components: pack.components,
      tokenCount: pack.tokenCount,
      truncated: pack.truncated,
      metadata: {
        query: body.query,
        intent: pack.intent,
        itemsConsidered: ranked.length,
        eventsConsidered: recent.length,
        assemblyTimeMs: Math.round((performance.now() - started) * 10) / 10,
      },
    };
  }

  private async ranked(
    projectId: string,
    query: { fullText: string; vector: string },
    mode: SearchMode,
    filter: SearchFilter,
    limit: number,
  ): Promise<RankedHit[]> {
    const [fullText, vector] = await Promise.all([
      mode === 'vector' ? Promise.resolve([]) : this.search.fullText(projectId, query.fullText, filter, DEPTH),
      mode === 'fulltext' || !query.vector ? Promise.resolve([]) : this.vectorRanks(projectId, query.vector, filter),
    ]);
    const fused = reciprocalRankFusion({ fullText, vector }, RRF_K);
    // Rows are read a page at a time, and filtered again as they are: the vector store's
    // statuses lag the items by a sync, and it knows nothing of excluded words. A row left
    // out makes room for the next one, so a full page comes back whenever there is one.
    const ranked: RankedHit[] = [];
    for (let next = 0; next < fused.length && ranked.length < limit;) {
      // A whole page each time: rows left out tend to come in runs (an excluded word's hits).
      const page = fused.slice(next, next + limit);
      next += page.length;
      const hits = await this.search.hydrate(
        projectId,
        page.map((f) => f.id),
        query.fullText,
        filter,
      );
      const byId = new Map(hits.map((h) => [h.itemId, h]));
      for (const f of page) {
        const hit = byId.get(f.id);
        if (hit && ranked.length < limit) {
          ranked.push({
            hit,
            score: f.score,
            ranks: { fullText: f.ranks.fullText ?? null, vector: f.ranks.vector ?? null },
          });
        }
      }
    }
    return ranked;
  }

  private async vectorRanks(projectId: string, query: string, filter: SearchFilter): Promise<string[]> {
    const { statuses, types } = filter;
    try {
      const vector = await this.embedder.embedQuery(query);
      const hits = await this.store.search(projectId, vector, { limit: DEPTH, statuses, types });
      return hits.filter((h) => h.score >= MIN_VECTOR_SCORE).map((h) => h.itemId);
    } catch (error) {
      // An embedding endpoint or vector store that is down leaves full text to answer alone.
      this.logger.warn({ err: (error as Error).message }, 'vector search failed; answering from full text only');
      return [];
    }
  }
}
