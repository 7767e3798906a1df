import fc from 'fast-check';
import { GATE, secretGates } from './prefilter';
import { Redactor } from './redactor';
import { nearMisses, secretCorpus } from './secret-corpus.fixture';

const redactor = new Redactor();
const ALL_GATES = ~0;

describe('secretGates', () => {
  it('opens no gate for plain prose, paths and lower-case identifiers', () => {
    expect(
      secretGates(
        'Edited src/services/payment.ts to retry webhook deliveries with exponential backoff; ran npm test, 214 passed. ' +
          'the enrichment_worker_concurrency setting and node_modules/@nestjs/core stay.',
      ),
    ).toBe(0);
  });

  it('opens no gate for the ids sessions are full of', () => {
    expect(secretGates('{"toolUseId":"toolu_01A2b3C4d5E6f7G8h9J0k1L2","id":"msg_01XyZ9aBcDeFgHiJkLmNoPq"}')).toBe(0);
    expect(secretGates('session 6f1c2e3a-9b8d-4c7e-a1f2-3b4c5d6e7f80 started')).toBe(0);
    expect(secretGates('toolu_01A2b3C4d5E6f7G8h9J0k1L2x9Z8y7W6v5U4t3S2r1Q0p9O8n7M6')).toBe(GATE.token);
  });

  it.each([
    ['a long run with a capital or digit', `token ${'aB3'.repeat(6)}`, GATE.token],
    ['a secret name before a separator', 'DB_PASSWORD = x', GATE.context],
    ['a quoted secret name before a colon', '{"apiKey": 1}', GATE.context],
    ['an @ after a scheme', 'redis://:pw@cache', GATE.url],
    ['a private span', 'x <PRIVATE>y', GATE.private],
  ])('opens its gate for %s', (_, text, gate) => {
    expect(secretGates(text) & gate).toBe(gate);
  });

  it('never changes what the rules find: text the gates close holds nothing any rule finds', async () => {
    const pieces = [
      ...secretCorpus().map((s) => s.text),
      ...nearMisses().map((n) => n.text),
      'password',
      'API_KEY',
      'Authorization',
      'Bearer ',
      '<private>',
      '</private>',
      '://',
      '@',
      ':',
      '=',
      '"',
      ' ',
      '\n',
      'export ',
      'toolu_01A2b3C4d5E6f7G8h9J0k1L2',
      'msg_01XyZ9aBcDeFgHiJkLmNoPq',
      '6f1c2e3a-9b8d-4c7e-a1f2-3b4c5d6e7f80',
    ];
    const fragment = fc
      .tuple(fc.constantFrom(...pieces), fc.nat(), fc.nat())
      .map(([piece, a, b]) =>
        piece.slice(Math.min(a, b) % (piece.length + 1), Math.max(a, b) % (piece.length + 1) || undefined),
      );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fragment, fc.string({ maxLength: 12 })), { maxLength: 8 }), async (parts) => {
        const text = parts.join('');
        expect(await redactor.findings(text, secretGates(text))).toEqual(await redactor.findings(text, ALL_GATES));
      }),
      { numRuns: 400 },
    );
  });
});
