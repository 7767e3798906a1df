import { createHash } from 'node:crypto';
import { TYPE_BRANCH, dedupGroup, type Brain, type BrainTreeNode, type ItemType, type MemoryItem } from '@memex/domain';
import { classify } from './classify';
import { byScore, ageDays } from './scoring';
import { compactLine, inline, inlineWithin, richLine, WIDEST_ROOM } from './render';

export interface BrainOptions {
  /** The document never exceeds this many tokens. */
  tokenBudget: number;
  includeProjectBrief?: boolean;
  projectName?: string;
  /** Archived or superseded items not passed in (a caller need not load them to count them). */
  archivedElsewhere?: number;
  /**
   * Pluggable; the spec's default is 1 token per 4 characters. Lines are budgeted one by one,
   * so an estimator must not count a text as more than its lines together.
   */
  estimateTokens?: (text: string) => number;
}

/** Below this the title, date line and footer alone could not fit. */
export const MIN_TOKEN_BUDGET = 200;
/** The spec's split of a 6,000-token brain; it scales with the budget asked for. */
const SHARE = { layer0: 500 / 6000, layer1: 1500 / 6000, layer2: 2000 / 6000 };

export const defaultEstimate = (text: string): number => Math.ceil(text.length / 4);

/** The ETag of a document: its own bytes, so two documents never share one. */
export function hashDocument(document: string): string {
  return createHash('sha256').update(document).digest('hex').slice(0, 16);
}

const LAYER1_SECTIONS: Array<[ItemType, string]> = [
  ['Decision', 'Key Decisions'],
  ['BugFix', 'Recent Fixes & Known Issues'],
  ['Todo', 'Pending Tasks'],
  ['Convention', 'Conventions'],
  ['ImplementationFact', 'Recent Work'],
  ['ArchitectureNote', 'Architecture'],
];

export interface Candidate {
  item: MemoryItem;
  /** Items of the same category:topic this one stands for. */
  related: number;
}

/**
 * Per category:topic of the dedup hint, only the best-scoring item is shown, counting the
 * others. Items without a hint stand alone.
 */
export function consolidate(items: MemoryItem[], now: Date): Candidate[] {
  // Sayings of one point: the best, and of equals the latest, is the one shown.
  const order = byScore(now, { latestOnTies: true });
  const groups = new Map<string, MemoryItem[]>();
  for (const item of items) {
    const key = item.dedupHint ? `hint:${dedupGroup(item.dedupHint)}` : `id:${item.itemId}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort(order);
    return { item: sorted[0]!, related: sorted.length - 1 };
  });
}

/** A budget-bounded list of lines, filled highest score first (a line that does not fit is skipped). */
class Section {
  readonly lines: string[] = [];
  used = 0;
  constructor(
    readonly heading: string | undefined,
    private readonly cost: (line: string) => number,
  ) {}
  headingCost(): number {
    return this.heading && this.lines.length === 0 ? this.cost(this.heading) : 0;
  }
  tryAdd(line: string, budget: { left: number }): boolean {
    const need = this.headingCost() + this.cost(line);
    if (need > budget.left) return false;
    budget.left -= need;
    this.used += need;
    this.lines.push(line);
    return true;
  }
  render(): string[] {
    return this.lines.length === 0 ? [] : [...(this.heading ? [this.heading] : []), ...this.lines];
  }
}

const BRANCHES = new Set(Object.values(TYPE_BRANCH).map((branch) => `root/${branch}`));

function schemaGroup(key: string): string {
  return key.split('/').slice(0, 2).join('/');
}

function tree(keys: string[]): BrainTreeNode[] {
  const root: BrainTreeNode[] = [];
  for (const key of keys) {
    let level = root;
    const parts = key.split('/');
    parts.forEach((name, i) => {
      const path = parts.slice(0, i + 1).join('/');
      let node = level.find((n) => n.name === name);
      if (!node) {
        node = { name, path, items: 0, children: [] };
        level.push(node);
        level.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }
      node.items += 1;
      level = node.children;
    });
  }
  return root;
}

/**
 * The project brief (Layer 0), built without any model: titles from the consolidated items
 * (one per category:topic), counts from every live item.
 */
export function briefLines(
  shown: MemoryItem[],
  live: MemoryItem[],
  now: Date,
): Array<{ line: string; items: string[] }> {
  const order = byScore(now);
  const ofType = (type: ItemType) => shown.filter((i) => i.type === type).sort(order);
  const titles = (items: MemoryItem[]) => items.map((i) => inlineWithin(i.title, 90)).join('; ');
  const lines: Array<{ line: string; items: string[] }> = [];

  // The spec's "Stack" line: its top architecture notes. Named for what they are, since a note
  // is as often how a part works ("GC prunes loose objects the index needs") as what it is built on.
  const architecture = ofType('ArchitectureNote').slice(0, 3);
  if (architecture.length) {
    lines.push({ line: `- **Architecture:** ${titles(architecture)}`, items: architecture.map((i) => i.itemId) });
  }
  const decisions = ofType('Decision')
    .sort((a, b) => (b.importance ?? 3) - (a.importance ?? 3) || order(a, b))
    .slice(0, 3);
  if (decisions.length) {
    lines.push({ line: `- **Key decisions:** ${titles(decisions)}`, items: decisions.map((i) => i.itemId) });
  }
  const conventions = ofType('Convention').slice(0, 5);
  if (conventions.length) {
    lines.push({ line: `- **Conventions:** ${titles(conventions)}`, items: conventions.map((i) => i.itemId) });
  }
  // An item without files sits on its type's branch (`root/implementation`), which is no area;
  // files under src/implementation/ make `root/implementation/…`, which is one.
  const recent = ofType('ImplementationFact').filter((i) => ageDays(i, now) <= 14 && !BRANCHES.has(i.schemaKey));
  if (recent.length) {
    const areas = new Map<string, number>();
    for (const i of recent) areas.set(schemaGroup(i.schemaKey), (areas.get(schemaGroup(i.schemaKey)) ?? 0) + 1);
    const top = [...areas].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 6);
    lines.push({
      line: `- **Active areas (14 days):** ${top.map(([area, n]) => `${inlineWithin(area, 60)} (${n})`).join(', ')}`,
      items: recent.map((i) => i.itemId),
    });
  }
  const bugs = live.filter((i) => i.type === 'BugFix' && i.status === 'active' && i.resolvedAt === null).length;
  const todos = live.filter((i) => i.type === 'Todo' && i.status === 'active' && i.resolvedAt === null).length;
  lines.push({
    line: `- **Open issues:** ${bugs} active bug${bugs === 1 ? '' : 's'}, ${todos} pending todo${todos === 1 ? '' : 's'}`,
    items: [],
  });
  return lines;
}

/** How much wider than usual a line's facts may grow, widest first. */
const WIDER_ROOMS = [WIDEST_ROOM, WIDEST_ROOM / 2];

/**
 * (items, options, now) → the brain: a layered markdown document within the token budget,
 * most valuable knowledge first. Pure: the same input and `now` give the same bytes.
 *
 * Lines first get their usual room. When that shows every live item with budget to spare
 * (a young or small project), lines get up to four times the room for their facts, the widest
 * that still shows the same items: a note cut short in a brain with room left is a note the
 * assistant never reads, and budget left unused helps no one. A brain that is already full
 * (most projects past their first weeks) is assembled once, as before.
 */
export function assembleBrain(items: readonly MemoryItem[], options: BrainOptions, now: Date): Brain {
  const usual = assembleAt(items, options, now, 1);
  if (!usual.showsEveryCandidate) return usual.brain;
  for (const room of WIDER_ROOMS) {
    const wider = assembleAt(items, options, now, room);
    if (sameItems(wider.brain.included, usual.brain.included)) return wider.brain;
  }
  return usual.brain;
}

function sameItems(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function assembleAt(
  items: readonly MemoryItem[],
  options: BrainOptions,
  now: Date,
  room: number,
): { brain: Brain; showsEveryCandidate: boolean } {
  const estimate = options.estimateTokens ?? defaultEstimate;
  const cost = (line: string) => estimate(`${line}\n`);
  const budget = options.tokenBudget;
  if (!(budget >= MIN_TOKEN_BUDGET)) throw new RangeError(`tokenBudget must be at least ${MIN_TOKEN_BUDGET}`);
  const order = byScore(now);

  const layer1: MemoryItem[] = [];
  const layer2: MemoryItem[] = [];
  let archived = options.archivedElsewhere ?? 0;
  for (const item of items) {
    const layer = classify(item, now);
    if (layer === 1) layer1.push(item);
    else if (layer === 2) layer2.push(item);
    else if (layer === 3) archived += 1;
  }
  const live = [...layer1, ...layer2];
  const candidates = consolidate(live, now);
  const inLayer1 = new Set(layer1.map((i) => i.itemId));
  const byScoreDesc = (a: Candidate, b: Candidate) => order(a.item, b.item);
  const c1 = candidates.filter((c) => inLayer1.has(c.item.itemId)).sort(byScoreDesc);
  const c2 = candidates.filter((c) => !inLayer1.has(c.item.itemId)).sort(byScoreDesc);

  const title = `# Project brain${options.projectName ? `: ${inlineWithin(options.projectName, 100)}` : ''}`;
  const header = [title, `_${live.length} live items · ${now.toISOString().slice(0, 10)} · budget ${budget} tokens_`];
  const footer = [
    '---',
    archived > 0
      ? `_${archived} archived item${archived === 1 ? ' is' : 's are'} not shown: find them with memex_search._`
      : '_No archived items._',
  ];
  const fixed = [...header, ...footer].reduce((n, l) => n + cost(l), 0);

  // Layer 0: the brief, within its share.
  const left = { left: Math.max(0, Math.floor(budget * SHARE.layer0)) };
  const brief = new Section('## Project Brief', cost);
  const briefItems = new Set<string>();
  if (options.includeProjectBrief ?? true) {
    for (const { line, items: ids } of briefLines(
      candidates.map((c) => c.item),
      live,
      now,
    )) {
      if (brief.tryAdd(line, left)) ids.forEach((id) => briefItems.add(id));
    }
  }

  const unused0 = left.left;
  // Layer 1: what it leaves flows down.
  left.left += Math.floor(budget * SHARE.layer1);
  const l1Heading = cost('## Active Knowledge');
  const sections = new Map(LAYER1_SECTIONS.map(([type, name]) => [type, new Section(`### ${name}`, cost)]));
  const shown: MemoryItem[] = [];
  let l1Used = 0;
  for (const c of c1) {
    const section = sections.get(c.item.type) ?? sections.get('ImplementationFact')!;
    const headingNeeded = shown.length === 0 ? l1Heading : 0;
    const trial = { left: left.left - headingNeeded };
    if (trial.left < 0) continue;
    const before = trial.left;
    if (section.tryAdd(richLine(c.item, now, c.related, room), trial)) {
      l1Used += before - trial.left + headingNeeded;
      left.left = trial.left;
      shown.push(c.item);
    }
  }

  const unused1 = left.left;
  // Layer 2: compact, grouped by schema-key prefix.
  left.left += Math.floor(budget * SHARE.layer2);
  // The header and footer are part of the document and come out of the total.
  left.left = Math.min(left.left, budget - fixed - brief.used - l1Used);
  const l2Heading = cost('## Reference Knowledge');
  const groups = new Map<string, Section>();
  let l2Used = 0;
  const shown2: MemoryItem[] = [];
  for (const c of c2) {
    const key = schemaGroup(c.item.schemaKey);
    const group = groups.get(key) ?? new Section(`### ${inline(key, 80)}`, cost);
    const headingNeeded = shown2.length === 0 ? l2Heading : 0;
    const trial = { left: left.left - headingNeeded };
    if (trial.left < 0) continue;
    const before = trial.left;
    if (group.tryAdd(compactLine(c.item, c.related, room), trial)) {
      groups.set(key, group);
      l2Used += before - trial.left + headingNeeded;
      left.left = trial.left;
      shown2.push(c.item);
    }
  }

  const body = [
    ...header,
    ...brief.render(),
    ...(shown.length
      ? ['## Active Knowledge', ...LAYER1_SECTIONS.flatMap(([type]) => sections.get(type)!.render())]
      : []),
    ...(shown2.length
      ? ['## Reference Knowledge', ...[...groups.keys()].sort().flatMap((key) => groups.get(key)!.render())]
      : []),
    ...footer,
  ];
  const document = `${body.join('\n')}\n`;
  const included = [...LAYER1_SECTIONS.flatMap(([type]) => shown.filter((i) => i.type === type)), ...shown2];
  const schemaKeys = [...new Set(included.map((i) => i.schemaKey))].sort();
  const brain: Brain = {
    document,
    tokenEstimate: estimate(document),
    itemsLoaded: included.length,
    schemaKeys,
    brainHash: hashDocument(document),
    tree: tree(included.map((i) => i.schemaKey)),
    layers: {
      layer0: { items: briefItems.size, tokens: brief.used, unused: unused0 },
      layer1: { items: shown.length, tokens: l1Used, unused: unused1 },
      layer2: { items: shown2.length, tokens: l2Used, unused: left.left },
      layer3: { items: archived, tokens: 0, unused: 0 },
    },
    included: included.map((i) => i.itemId),
  };
  return { brain, showsEveryCandidate: included.length === candidates.length };
}
