import { Injectable } from '@nestjs/common';
import { EntityRepository, type EntityRow, type RelationHit } from '@memex/db';
import {
  ITEM_MENTIONS_COUNTED,
  TASK_EVENTS,
  TASK_TOOLS,
  asSourceEvent,
  salience,
  taskStack,
  type TaskStack,
} from '@memex/entities';
import {
  PATTERN_WORD_SIGNATURES,
  choosePatternSignatures,
  type PackEntity,
  type PackPattern,
  type PackRelation,
  type QuerySignals,
} from '@memex/search';

/** Entities a pack looks at: those the query names, and the project's most salient. */
const NAMED_ENTITIES = 20;
const SALIENT_ENTITIES = 10;
const RELATIONS = 30;
const PATTERNS = 5;
/** Keywords shorter than this match too many error signatures to mean anything. */
const PATTERN_WORD = 4;

export interface EntitySources {
  entities: PackEntity[];
  relations: PackRelation[];
  patterns: PackPattern[];
  /** Ids of the entities the query named: what a linked item's share is counted against. */
  named: number[];
  /**
   * The entities whose items a pack should consider, with how much an item naming each is
   * worth: 1 for one the query named, less with each hop of relation that reached it.
   */
  linked: Map<number, number>;
}

export interface SourceFilters {
  statuses: readonly string[];
  since?: number;
  entityTypes?: readonly string[];
  exclude: ReadonlySet<string>;
}

/** The sources of a context pack beyond search: the entity store and a session's task stack. */
@Injectable()
export class PackSources {
  constructor(private readonly store: EntityRepository) {}

  async entities(
    projectId: string,
    signals: QuerySignals,
    depthLimit: number,
    filters: SourceFilters,
    now: number,
  ): Promise<EntitySources> {
    const kindOk = (kind: string) => !filters.entityTypes || filters.entityTypes.includes(kind);
    const fresh = (at: Date) => filters.since === undefined || at.getTime() >= filters.since;
    const words = signals.keywords.filter((k) => k.length >= PATTERN_WORD);
    const { statuses } = filters;
    const [named, salient, signatures] = await Promise.all([
      this.store.findByNames(projectId, signals.mentionedEntities, statuses, NAMED_ENTITIES, ITEM_MENTIONS_COUNTED),
      this.store.salient(projectId, statuses, SALIENT_ENTITIES, ITEM_MENTIONS_COUNTED, filters.entityTypes),
      // One more than a selective word may hold: a word that fills it is common and picks nothing.
      this.store.signaturesHolding(projectId, words, PATTERN_WORD_SIGNATURES + 1),
    ]);
    const namedIds = new Set(named.map((e) => e.id));
    const rows = [...new Map([...named, ...salient].map((e) => [e.id, e])).values()].filter(
      (e) => kindOk(e.kind) && fresh(e.lastSeenAt) && !filters.exclude.has(String(e.id)),
    );
    // A quoted signature the project never saw takes no pattern's place.
    const chosen = choosePatternSignatures(
      signals.errorSignatures,
      signatures,
      PATTERNS + signals.errorSignatures.length,
    );
    const [relations, seen] = await Promise.all([
      this.store.traverse(projectId, [...namedIds], depthLimit, RELATIONS),
      this.store.patterns(projectId, chosen),
    ]);
    const patterns = chosen.flatMap((sig) => seen.filter((p) => p.signature === sig)).slice(0, PATTERNS);
    return {
      entities: rows.map((e) => toPackEntity(e, namedIds.has(e.id), now)),
      // A relation is as old as the last session that showed it, and goes with either end excluded.
      relations: relations
        .filter(
          (r) =>
            kindOk(r.source.kind) &&
            kindOk(r.target.kind) &&
            fresh(r.lastSeenAt) &&
            !filters.exclude.has(String(r.source.id)) &&
            !filters.exclude.has(String(r.target.id)),
        )
        .map((r) => ({ kind: r.kind, weight: r.weight, depth: r.depth, source: r.source, target: r.target })),
      patterns: patterns
        .filter((p) => fresh(p.lastSeenAt) && !filters.exclude.has(p.signature))
        .map((p) => ({
          ...p,
          lastSeenAt: p.lastSeenAt.getTime(),
          match: signals.errorSignatures.includes(p.signature)
            ? 1
            : words.filter((w) => p.signature.toLowerCase().includes(w)).length / Math.max(1, words.length),
        })),
      named: [...namedIds],
      linked: linkWeights(namedIds, relations),
    };
  }

  /** Items naming the entities, most of them first: what the query's names point at. */
  linkedItems(projectId: string, linked: Map<number, number>, statuses: readonly string[], limit: number) {
    return this.store.itemsNaming(projectId, [...linked.keys()], statuses, limit);
  }

  /** The task stack of a session, by the client's id for it; undefined for an unknown session. */
  async stack(
    projectId: string,
    externalSessionId: string,
  ): Promise<{ sessionId: string; stack: TaskStack } | undefined> {
    const found = await this.store.taskEvents(projectId, externalSessionId, TASK_TOOLS, TASK_EVENTS);
    return found && { sessionId: found.sessionId, stack: taskStack(found.events.map(asSourceEvent)) };
  }
}

/** Hops of relation a linked entity may be from a named one and still count. */
const LINK_DEPTH = 2;
/** What each hop of relation keeps of an entity's worth to the items naming it. */
const HOP_WEIGHT = 0.7;

function linkWeights(named: ReadonlySet<number>, relations: RelationHit[]): Map<number, number> {
  const weights = new Map<number, number>([...named].map((id) => [id, 1]));
  for (const r of relations) {
    if (r.depth > LINK_DEPTH) continue;
    const weight = Math.pow(HOP_WEIGHT, r.depth);
    for (const id of [r.source.id, r.target.id])
      if (!named.has(id)) weights.set(id, Math.max(weights.get(id) ?? 0, weight));
  }
  return weights;
}

function toPackEntity(e: EntityRow, mentioned: boolean, now: number): PackEntity {
  const lastSeenAt = e.lastSeenAt.getTime();
  return {
    entityId: String(e.id),
    kind: e.kind,
    name: e.name,
    mentions: e.mentions,
    itemMentions: e.itemMentions,
    lastSeenAt,
    salience: salience({ mentions: e.mentions, itemMentions: e.itemMentions, lastSeenAt }, now),
    mentioned,
  };
}
