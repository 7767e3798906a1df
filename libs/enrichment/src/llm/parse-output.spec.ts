import { MODEL_OUTPUT_JSON_SCHEMA, jsonIn, parseModelOutput } from './parse-output';

type Item = Record<string, unknown>;

function validItem(overrides: Item = {}): Item {
  return {
    type: 'Decision',
    title: 'Use Kysely for database access',
    facts: 'All queries go through Kysely; raw SQL only in migrations.',
    schemaKey: 'root/db',
    dedupHint: 'decision:db:kysely',
    importance: 4,
    confidence: 0.9,
    evidence: [{ eventId: 'evt-1', quote: 'we will use Kysely everywhere' }],
    ...overrides,
  };
}

function answer(...items: Item[]): string {
  return JSON.stringify({ items });
}

function itemsOf(content: string) {
  const parsed = parseModelOutput(content);
  if (!parsed.ok) throw new Error(`expected items, got the problem: ${parsed.problem}`);
  return parsed.items;
}

function problemOf(content: string): string {
  const parsed = parseModelOutput(content);
  if (parsed.ok) throw new Error(`expected a problem, got ${parsed.items.length} items`);
  return parsed.problem;
}

describe('parseModelOutput', () => {
  it('accepts a JSON object with items and fills the defaults', () => {
    expect(parseModelOutput(answer(validItem()))).toEqual({
      ok: true,
      dropped: 0,
      items: [
        { ...validItem(), rationale: null, impact: null, files: [], tags: [], commitRange: null, resolved: false },
      ],
    });
  });

  it('keeps the optional fields the model gave', () => {
    const full = validItem({
      rationale: 'Typed queries without an ORM.',
      impact: 'Every repository.',
      files: ['libs/db/src/pool.ts'],
      tags: ['db', 'query-builder'],
      resolved: true,
    });
    expect(itemsOf(answer(full))).toEqual([{ ...full, commitRange: null }]);
  });

  it('accepts an empty list of items', () => {
    expect(parseModelOutput('{"items": []}')).toEqual({ ok: true, items: [], dropped: 0 });
  });

  it.each([
    [
      'a ```json fence with prose around it',
      (json: string) => `Here is what I found:\n\`\`\`json\n${json}\n\`\`\`\nHope this helps.`,
    ],
    ['a bare ``` fence', (json: string) => `\n\`\`\`\n${json}\n\`\`\`\n`],
    ['a <think> block first', (json: string) => `<think>The user wants {items}. Let me see…</think>\n${json}`],
    ['an unclosed <think> before it', (json: string) => `${json}\n<think>I should double-check`],
    ['trailing prose with braces', (json: string) => `${json}\n\nNote: {this} is not JSON.`],
  ])('reads the JSON out of %s', (_label, wrap) => {
    expect(itemsOf(wrap(answer(validItem()))).map((i) => i.title)).toEqual(['Use Kysely for database access']);
  });

  it('reads a bare array of items, or a single item, as the list', () => {
    expect(itemsOf(JSON.stringify([validItem()]))).toHaveLength(1);
    expect(itemsOf(JSON.stringify(validItem()))).toHaveLength(1);
  });

  it('derives what a model left out or got wrong: schema key, dedup hint, importance, confidence, tags', () => {
    const [item] = itemsOf(
      answer(
        validItem({
          schemaKey: undefined,
          dedupHint: 'Decision:DB kysely',
          importance: '4',
          confidence: 1.2,
          tags: ['Not A Tag'],
          files: ['libs/db/src/pool.ts'],
        }),
      ),
    );
    expect(item).toMatchObject({ schemaKey: 'root/db', importance: 3, confidence: 0.7, tags: [] });
    expect(item!.dedupHint).toMatch(/^decision:db:/);
  });

  it('cuts a title or facts past their limits instead of losing the item', () => {
    const [item] = itemsOf(answer(validItem({ title: 't '.repeat(150), facts: 'f '.repeat(3000) })));
    expect(item!.title.length).toBeLessThanOrEqual(200);
    expect(item!.facts.length).toBeLessThanOrEqual(5000);
  });

  it('drops items it cannot make whole and keeps the rest, saying how many', () => {
    const parsed = parseModelOutput(
      answer(validItem(), validItem({ evidence: [] }), validItem({ type: 'CodeMapNode' })),
    );
    expect(parsed).toMatchObject({ ok: true, dropped: 2 });
  });

  it('says when the answer holds no JSON', () => {
    expect(problemOf('I could not find anything durable.')).toMatch(/not valid JSON/);
    expect(problemOf('{"items": [')).toMatch(/not valid JSON/);
  });

  it('says when there is no list of items', () => {
    expect(problemOf('{}')).toMatch(/items/);
    expect(problemOf('{"items": {}}')).toMatch(/items/);
  });

  it('names what is wrong, with the item index, when no item survives', () => {
    expect(problemOf(answer(validItem({ title: '' })))).toContain('items[0].title');
    expect(problemOf(answer(validItem({ evidence: [{ eventId: 'evt-1', quote: '' }] })))).toContain(
      'items[0].evidence[0].quote',
    );
    const { evidence: _evidence, ...withoutEvidence } = validItem();
    expect(problemOf(answer(withoutEvidence))).toContain('items[0].evidence');
    expect(problemOf(answer(validItem({ type: 'Insight' })))).toContain('items[0].type');
  });

  it('lists at most five issues', () => {
    expect(problemOf(answer({}, {})).split('; ')).toHaveLength(5);
  });
});

describe('jsonIn', () => {
  it('skips braces inside strings when it finds where the JSON ends', () => {
    expect(jsonIn('x {"a": "}{", "b": [1, {"c": "]"}]} y')).toEqual({ a: '}{', b: [1, { c: ']' }] });
  });
});

describe('MODEL_OUTPUT_JSON_SCHEMA', () => {
  it('asks for items without code-map nodes, with what Memex derives left optional', () => {
    const item = (MODEL_OUTPUT_JSON_SCHEMA as { properties: { items: { items: Record<string, unknown> } } }).properties
      .items.items as { properties: { type: { enum: string[] } }; required: string[] };
    expect(item.properties.type.enum).not.toContain('CodeMapNode');
    expect(item.required).toEqual(['type', 'title', 'facts', 'evidence']);
  });
});
