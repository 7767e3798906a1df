import type { MemoryItem } from '@memex/domain';
import { assembleBrain } from './assemble';
import { compactLine } from './render';
import { DAY, NOW, item } from './brain-item.fixture';
import { recency, score } from './scoring';
import { assembleSummary } from './summary';

describe('assembleBrain', () => {
  it('puts recent decisions, open bugs and todos in Layer 1, older stable knowledge in Layer 2, and archives the rest', () => {
    const items = [
      item({ type: 'Decision', title: 'Use PostgreSQL', importance: 5 }),
      item({ type: 'BugFix', title: 'Token refresh race', importance: 4 }),
      item({ type: 'Todo', title: 'Rotate the signing secret', importance: 2 }),
      item({
        type: 'Convention',
        title: 'Old convention',
        updatedAt: new Date(NOW.getTime() - 100 * DAY),
        schemaKey: 'root/conventions',
      }),
      item({ type: 'ImplementationFact', title: 'Ancient work', updatedAt: new Date(NOW.getTime() - 120 * DAY) }),
      item({ type: 'Decision', title: 'Replaced decision', status: 'superseded' }),
      item({ type: 'Decision', title: 'Needs review', status: 'review' }),
      item({ type: 'CodeMapNode', title: 'Route: /api' }),
    ];
    const brain = assembleBrain(items, { tokenBudget: 6000, projectName: 'shop' }, NOW);
    const doc = brain.document;
    expect(doc).toContain('# Project brain: shop');
    expect(doc.indexOf('**Use PostgreSQL**')).toBeLessThan(doc.indexOf('## Reference Knowledge'));
    expect(doc).toContain('### Recent Fixes & Known Issues\n- **Token refresh race**');
    expect(doc).toContain('### Pending Tasks\n- **Rotate the signing secret**');
    expect(doc).toMatch(/## Reference Knowledge\n### root\/conventions\n- Old convention/);
    expect(doc).not.toContain('Ancient work');
    expect(doc).not.toContain('Replaced decision');
    expect(doc).not.toContain('Needs review');
    expect(doc).not.toContain('Route: /api');
    expect(doc).toContain('_3 archived items are not shown: find them with memex_search._');
    expect(brain.layers).toMatchObject({ layer1: { items: 3 }, layer2: { items: 1 }, layer3: { items: 3, tokens: 0 } });
    expect(brain.itemsLoaded).toBe(4);
  });

  it('builds the project brief without any model: architecture, 3 key decisions, up to 5 conventions, active areas, open issues', () => {
    const items = [
      item({ type: 'ArchitectureNote', title: 'NestJS services on Fastify', importance: 4 }),
      ...[5, 4, 3, 2].map((importance, i) => item({ type: 'Decision', title: `Decision ${i}`, importance })),
      ...Array.from({ length: 6 }, (_, i) => item({ type: 'Convention', title: `Convention ${i}` })),
      item({
        type: 'ImplementationFact',
        title: 'Cart discounts',
        schemaKey: 'root/cart',
        updatedAt: new Date(NOW.getTime() - 3 * DAY),
      }),
      item({ type: 'BugFix', title: 'Open bug', importance: 4 }),
      item({ type: 'Todo', title: 'Open todo' }),
      item({ type: 'Todo', title: 'Done todo', resolvedAt: NOW }),
    ];
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    const brief = doc.slice(doc.indexOf('## Project Brief'), doc.indexOf('## Active Knowledge'));
    expect(brief).toContain('- **Architecture:** NestJS services on Fastify');
    expect(brief).toContain('- **Key decisions:** Decision 0; Decision 1; Decision 2\n');
    expect(brief.match(/Convention \d/g)).toHaveLength(5);
    expect(brief).toContain('- **Active areas (14 days):** root/cart (1)');
    expect(brief).toContain('- **Open issues:** 1 active bug, 1 pending todo');
  });

  it("names no type's branch as an area of work: items without files are in none", () => {
    const fact = (title: string, schemaKey: string) =>
      item({ type: 'ImplementationFact', title, schemaKey, updatedAt: new Date(NOW.getTime() - DAY) });
    const brief = (items: MemoryItem[]) => {
      const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
      return doc.slice(doc.indexOf('## Project Brief'), doc.indexOf('## Active Knowledge'));
    };
    expect(brief([fact('Retries added', 'root/implementation')])).not.toContain('Active areas');
    // Files under src/implementation/ are an area, though their key starts like the branch.
    expect(brief([fact('Retries added', 'root/implementation/retry')])).toContain(
      '- **Active areas (14 days):** root/implementation (1)',
    );
    expect(
      brief([fact('Retries added', 'root/implementation'), fact('Webhook sender', 'root/webhooks/sender')]),
    ).toContain('- **Active areas (14 days):** root/webhooks (1)\n');
  });

  it('never says a title twice: facts that open with the title show what they add past it', () => {
    const items = [
      item({
        title: 'Biome formats the committed Prisma clients',
        facts: 'Biome formats the committed Prisma clients.',
      }),
      item({
        title: 'Gitleaks redacts secrets…',
        facts: 'Gitleaks redacts secrets in place and lets the commit proceed',
      }),
      item({
        type: 'ArchitectureNote',
        importance: 2,
        title: 'Render serves static sites',
        facts: 'Render serves static sites. No Dockerfile.',
      }),
    ];
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    expect(doc).toContain('- **Biome formats the committed Prisma clients** (conf');
    expect(doc).toContain('- **Gitleaks redacts secrets…**: in place and lets the commit proceed (conf');
    expect(doc).toContain('- Render serves static sites: No Dockerfile. (0.90)');
  });

  it('escapes only what would open a block: after the title, a note opening like a list stays as written', () => {
    const doc = assembleBrain(
      [
        item({
          type: 'BugFix',
          title: '1. Authentication bug fixed',
          facts: '1. Added back `requireUser()` at the start of `plan-stream`; 3. Buffer capped at 100KB',
          rationale: '> the review asked for it',
          importance: 4,
        }),
      ],
      { tokenBudget: 6000 },
      NOW,
    ).document;
    const line = doc.split('\n').find((l) => l.includes('Authentication'))!;
    expect(line).toContain(
      '**1. Authentication bug fixed**: 1. Added back `requireUser()` at the start of `plan-stream`; 3. Buffer capped at 100KB Why: > the review asked for it',
    );
    // Right after a list marker a title would open a list inside the item: escaped there.
    const compact = compactLine(item({ title: '1. Authentication bug fixed', facts: '2. Buffer capped' }), 0);
    expect(compact).toMatch(/^- 1\\\. Authentication bug fixed: 2\. Buffer capped /);
    // A link reference definition there would vanish from the rendered brain: escaped too.
    const reference = compactLine(item({ title: '[docs]: https://example.com/guide', facts: 'Read it first' }), 0);
    expect(reference).toMatch(/^- \\\[docs\]: https:\/\/example\.com\/guide: Read it first /);
  });

  it('shows only the best-scoring item of a category:topic, counting the others', () => {
    const items = [
      item({ title: 'Postgres for events', dedupHint: 'decision:db:events', confidence: 0.9 }),
      item({ title: 'Postgres for queues', dedupHint: 'decision:db:queues', confidence: 0.5 }),
      item({ title: 'Redis for cache', dedupHint: 'decision:cache:redis' }),
    ];
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    expect(doc).toContain('**Postgres for events**');
    expect(doc).toContain('+1 related');
    expect(doc).not.toContain('Postgres for queues');
    expect(doc).toContain('**Redis for cache**');
  });

  it('scores by importance, confidence and recency, and lets unused budget flow down', () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      item({
        type: 'Decision',
        title: `Decision number ${i} with a long enough title`,
        facts: 'x'.repeat(200),
        importance: (i % 5) + 1,
      }),
    );
    const small = assembleBrain(many, { tokenBudget: 800, includeProjectBrief: false }, NOW);
    expect(small.tokenEstimate).toBeLessThanOrEqual(800);
    const withBrief = assembleBrain(many, { tokenBudget: 800 }, NOW);
    // Without a brief, Layer 0's share goes to Layer 1.
    expect(small.layers.layer1.items).toBeGreaterThan(withBrief.layers.layer1.items);
    const shownImportance = small.included.map((id) => many.find((m) => m.itemId === id)!.importance);
    expect(Math.min(...(shownImportance as number[]))).toBe(5);
  });

  it('gives a line room for its whole note when the brain shows every item with budget to spare', () => {
    const sentence = (n: number) => `Sentence ${n} of the release note names \`scripts/release.ts\` once more.`;
    const note = Array.from({ length: 12 }, (_, i) => sentence(i + 1)).join(' ');
    const items = [
      item({ type: 'BugFix', title: 'Release script resolves workspace versions', facts: note, importance: 4 }),
      item({ type: 'Decision', title: 'Publish with npm', rationale: 'npm publish reads ~/.npmrc' }),
    ];
    const roomy = assembleBrain(items, { tokenBudget: 6000 }, NOW);
    expect(roomy.document).toContain(sentence(12));
    expect(roomy.included).toHaveLength(2);
    // At 700 tokens the whole note would push the decision out: the line keeps its usual room.
    const tight = assembleBrain(items, { tokenBudget: 700 }, NOW);
    expect(tight.included).toHaveLength(2);
    expect(tight.document).toContain(sentence(1));
    expect(tight.document).not.toContain(sentence(12));
    expect(tight.tokenEstimate).toBeLessThanOrEqual(700);
  });

  it('keeps lines at their usual room when the brain cannot show every item', () => {
    const long = 'A whole sentence about the cache layer and its keys. '.repeat(20);
    const many = Array.from({ length: 80 }, (_, i) =>
      item({ type: 'Decision', title: `Decision ${i} on caching`, facts: long, importance: (i % 5) + 1 }),
    );
    const brain = assembleBrain(many, { tokenBudget: 6000 }, NOW);
    expect(brain.included.length).toBeLessThan(many.length);
    const factsShown = brain.document
      .split('\n')
      .filter((l) => l.startsWith('- **Decision'))
      .map((l) => l.slice(l.indexOf('**: ') + 4, l.lastIndexOf(' (conf')).length);
    expect(Math.max(...factsShown)).toBeLessThanOrEqual(300);
  });
});

describe('scoring', () => {
  it('decays recency from 1.0 today to 0.1 at 90 days, and no lower after', () => {
    expect(recency(0)).toBe(1);
    expect(recency(45)).toBeCloseTo(0.55, 10);
    expect(recency(90)).toBeCloseTo(0.1, 10);
    expect(recency(400)).toBeCloseTo(0.1, 10);
  });

  it('scores (importance / 5) × confidence × recency, stale at half, importance 3 by default', () => {
    const fresh = item({ importance: 5, confidence: 0.8, updatedAt: NOW });
    expect(score(fresh, NOW)).toBeCloseTo(0.8, 10);
    expect(score({ ...fresh, status: 'stale' }, NOW)).toBeCloseTo(0.4, 10);
    expect(score({ ...fresh, importance: null }, NOW)).toBeCloseTo(0.48, 10);
    expect(score({ ...fresh, updatedAt: new Date(NOW.getTime() - 90 * DAY) }, NOW)).toBeCloseTo(0.08, 10);
  });

  it('counts age from the last reinforcement when it is later than the last update', () => {
    const old = item({ updatedAt: new Date(NOW.getTime() - 80 * DAY), lastReinforcedAt: NOW });
    expect(score(old, NOW)).toBeCloseTo(score(item({ updatedAt: NOW }), NOW), 10);
  });

  it('refuses budgets too small for the header and footer', () => {
    expect(() => assembleBrain([], { tokenBudget: 199 }, NOW)).toThrow(RangeError);
  });

  it('orders Layer 2 by score within each schema-key group', () => {
    const items = [1, 3, 2].map((importance) =>
      item({
        type: 'Convention',
        title: `Rule of importance ${importance}`,
        importance,
        schemaKey: 'root/api',
        updatedAt: new Date(NOW.getTime() - 40 * DAY),
      }),
    );
    const doc = assembleBrain(items, { tokenBudget: 6000 }, NOW).document;
    const at = (n: number) => doc.indexOf(`Rule of importance ${n}`);
    expect([at(3) < at(2), at(2) < at(1)]).toEqual([true, true]);
  });
});

describe('assembleSummary', () => {
  it('carries the brief, recent decisions and known issues within about 1,000 tokens', () => {
    const items = [
      item({ type: 'Decision', title: 'Keep payments behind checkout', rationale: 'No side effects in the cart' }),
      item({ type: 'BugFix', title: 'Discount crash', facts: 'Legacy codes have no rule.' }),
      ...Array.from({ length: 200 }, (_, i) =>
        item({ type: 'Convention', title: `Convention ${i} ${'y'.repeat(100)}` }),
      ),
    ];
    const summary = assembleSummary(items, NOW, { projectName: 'shop' });
    expect(summary.tokenEstimate).toBeLessThanOrEqual(1000);
    expect(summary.document).toContain('# shop: memory summary');
    expect(summary.document).toContain(
      '## Recent decisions\n- Keep payments behind checkout: No side effects in the cart',
    );
    expect(summary.document).toContain('## Known issues\n- Discount crash: Legacy codes have no rule.');
    // A heading's text opens no block: a name that reads like a list item stays as written.
    expect(assembleSummary(items, NOW, { projectName: '1. Shop' }).document).toMatch(/^# 1\. Shop: memory summary/);
  });
});
