import type { MemoryItemAdminRepository, QuoteRepository } from '@memex/db';
import type { CreateItemBody, MemoryItem, RememberBody } from '@memex/domain';
import type { RedactionService } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import { ManualItemService } from './manual-items.service';

const PROJECT = '01JD00000000000000000PROJ1';

/** Redaction reduced to what a spec can see: the word SECRET replaced wherever it stands. */
const redaction = () =>
  fake<RedactionService>(
    { value: async <T>(_p: string, v: T) => JSON.parse(JSON.stringify(v).replaceAll('SECRET', '[REDACTED]')) as T },
    'redaction',
  );

function setUp(found: Array<{ eventId: string; quote: string; sessionId: string }> = []) {
  const items = fake<MemoryItemAdminRepository>(
    { create: async (_p: string, body: unknown) => ({ itemId: 'I1', ...(body as object) }) as unknown as MemoryItem },
    'items',
  );
  const quotes = fake<QuoteRepository>({ find: async () => found }, 'quotes');
  return { service: new ManualItemService(items, quotes, redaction()), items, quotes };
}

const written: CreateItemBody = {
  type: 'Convention',
  title: 'Commit headers stay under 72 characters',
  facts: 'Commit message headers must be 72 characters or fewer; the hook rejects longer ones.',
  rationale: null,
  impact: null,
  files: ['.husky/commit-msg'],
  tags: [],
  importance: 3,
  confidence: 1,
  evidence: [],
} as unknown as CreateItemBody;

const remembered: RememberBody = {
  type: 'Decision',
  title: 'Money is integer cents',
  facts: 'Amounts are stored as integer cents, never floats.',
  files: [],
  quotes: ['we store   money as integer cents', 'the SECRET is hunter2'],
} as unknown as RememberBody;

describe('ManualItemService.create', () => {
  it('redacts what a person wrote, and names its schema key and dedup hint as extraction would', async () => {
    const { service, items } = setUp();
    await service.create(
      PROJECT,
      { ...written, facts: `${written.facts} SECRET` },
      { actor: 'api', reason: 'by hand' },
    );
    const [, body, who] = items.create.mock.calls[0]!;
    expect(body.facts).toBe(`${written.facts} [REDACTED]`);
    expect(body.schemaKey).toMatch(/^root\//);
    expect(body.dedupHint).toMatch(/^[a-z0-9-]+:[a-z0-9-]+:[a-z0-9-]+$/);
    expect(who).toEqual({ actor: 'api', reason: 'by hand' });
  });

  it('keeps a schema key and dedup hint the writer gave', async () => {
    const { service, items } = setUp();
    await service.create(
      PROJECT,
      { ...written, schemaKey: 'root/git', dedupHint: 'convention:git:commit-headers' },
      { actor: 'api', reason: 'x' },
    );
    expect(items.create.mock.calls[0]![1]).toMatchObject({
      schemaKey: 'root/git',
      dedupHint: 'convention:git:commit-headers',
    });
  });
});

describe('ManualItemService.remember', () => {
  it('looks for each quote as it was stored: whitespace folded, secrets redacted, once each', async () => {
    const { service, quotes } = setUp([{ eventId: 'e1', quote: 'we store money as integer cents', sessionId: 'S9' }]);
    await service.remember(PROJECT, {
      ...remembered,
      quotes: [...remembered.quotes, 'we store money as integer cents'],
    });
    expect(quotes.find).toHaveBeenCalledWith(PROJECT, ['we store money as integer cents', 'the [REDACTED] is hunter2']);
  });

  it('keeps a memory only with words that show it: in the session they came from, confident, as the assistant', async () => {
    const { service, items } = setUp([{ eventId: 'e1', quote: 'we store money as integer cents', sessionId: 'S9' }]);
    await service.remember(PROJECT, remembered);
    const [, body, who] = items.create.mock.calls[0]!;
    expect(body).toMatchObject({
      sessionId: 'S9',
      confidence: 0.9,
      salience: 1,
      importance: 4,
      evidence: [{ eventId: 'e1', quote: 'we store money as integer cents' }],
    });
    expect(body).not.toHaveProperty('quotes');
    expect(who).toEqual({ actor: 'mcp', reason: 'remembered by an assistant (1 of 2 quotes found)' });
  });

  it('refuses a memory none of whose quotes stands in the project with EVIDENCE_NOT_FOUND, writing nothing', async () => {
    const { service, items } = setUp([]);
    await expect(service.remember(PROJECT, remembered)).rejects.toMatchObject({ code: 'EVIDENCE_NOT_FOUND' });
    expect(items.create).not.toHaveBeenCalled();
  });
});
