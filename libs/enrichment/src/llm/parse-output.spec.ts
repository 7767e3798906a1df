import { parseModelOutput } from './parse-output';

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

function problemOf(content: string): string {
  const parsed = parseModelOutput(content);
  if (parsed.ok) throw new Error(`expected a problem, got ${parsed.items.length} items`);
  return parsed.problem;
}

describe('parseModelOutput', () => {
  it('accepts a JSON object with items and fills the defaults', () => {
    expect(parseModelOutput(answer(validItem()))).toEqual({
      ok: true,
      items: [
        {
          ...validItem(),
          rationale: null,
          impact: null,
          files: [],
          tags: [],
          commitRange: null,
          resolved: false,
        },
      ],
    });
  });

  it('keeps the optional fields the model gave', () => {
    const full = validItem({
      rationale: 'Typed queries without an ORM.',
      impact: 'Every repository.',
      files: ['libs/db/src/pool.ts'],
      tags: ['db', 'query-builder'],
      commitRange: 'abcdef1..1234567',
      resolved: true,
    });
    expect(parseModelOutput(answer(full))).toEqual({ ok: true, items: [full] });
  });

  it('accepts an empty list of items', () => {
    expect(parseModelOutput('{"items": []}')).toEqual({ ok: true, items: [] });
  });

  it('accepts JSON fenced in ```json with prose around it', () => {
    const content = `Here is what I found:\n\`\`\`json\n${answer(validItem())}\n\`\`\`\nHope this helps.`;
    const parsed = parseModelOutput(content);
    expect(parsed.ok && parsed.items.map((i) => i.title)).toEqual(['Use Kysely for database access']);
  });

  it('accepts JSON in a bare ``` fence and surrounding whitespace', () => {
    expect(parseModelOutput(`\n\`\`\`\n${answer()}\n\`\`\`\n`)).toEqual({ ok: true, items: [] });
    expect(parseModelOutput(`  \n${answer()}\n `)).toEqual({ ok: true, items: [] });
  });

  it('says when the answer is not JSON', () => {
    expect(problemOf('I could not find anything durable.')).toMatch(/JSON/);
    expect(problemOf('{"items": [')).toMatch(/JSON/);
  });

  it('says when items are missing or not a list', () => {
    expect(problemOf('{}')).toMatch(/items/);
    expect(problemOf('{"items": {}}')).toMatch(/items/);
    expect(problemOf('[]')).toMatch(/schema/);
  });

  it('accepts a title of 200 characters and names the path of one of 201', () => {
    expect(parseModelOutput(answer(validItem({ title: 't'.repeat(200) }))).ok).toBe(true);
    expect(problemOf(answer(validItem({ title: 't'.repeat(201) })))).toContain('items[0].title');
  });

  it('names the index of the offending item', () => {
    expect(problemOf(answer(validItem(), validItem({ title: '' })))).toContain('items[1].title');
  });

  it('rejects an item without evidence', () => {
    expect(problemOf(answer(validItem({ evidence: [] })))).toContain('items[0].evidence');
    const { evidence: _evidence, ...withoutEvidence } = validItem();
    expect(problemOf(answer(withoutEvidence))).toContain('items[0].evidence');
  });

  it('rejects evidence with an empty quote or extra fields', () => {
    expect(problemOf(answer(validItem({ evidence: [{ eventId: 'evt-1', quote: '' }] })))).toContain(
      'items[0].evidence[0].quote',
    );
    expect(
      problemOf(answer(validItem({ evidence: [{ eventId: 'evt-1', quote: 'long enough quote', x: 1 }] }))),
    ).toContain('items[0].evidence[0]');
  });

  it.each([0, 6, 2.5, '3'])('rejects importance %p', (importance) => {
    expect(problemOf(answer(validItem({ importance })))).toContain('items[0].importance');
  });

  it.each([1, 5])('accepts importance %p', (importance) => {
    expect(parseModelOutput(answer(validItem({ importance }))).ok).toBe(true);
  });

  it.each(['Decision:DB:kysely', 'decision:db', 'decision db kysely', 'decision:db:kysely:extra'])(
    'rejects the dedup hint %p',
    (dedupHint) => {
      expect(problemOf(answer(validItem({ dedupHint })))).toContain('items[0].dedupHint');
    },
  );

  it('rejects an unknown item type and a confidence above 1', () => {
    expect(problemOf(answer(validItem({ type: 'Insight' })))).toContain('items[0].type');
    expect(problemOf(answer(validItem({ confidence: 1.2 })))).toContain('items[0].confidence');
  });

  it('lists at most five issues', () => {
    const problem = problemOf(answer({}, {}));
    expect(problem.split('; ')).toHaveLength(5);
  });
});
