import { fixtureEvents } from '../../../test/support/claude-code-fixtures';
import { itemEntities, windowEntities } from './window';

describe('windowEntities on a real session', () => {
  const events = fixtureEvents('fix-type-errors.jsonl');

  it('reads mentions with their lookup names, the error fix, and the todo subtasks', () => {
    const found = windowEntities(events, []);
    const file = found.mentions.find((m) => m.name === 'test/test_cache.py');
    expect(file?.base).toBe('test_cache.py');
    expect(found.errors.filter((e) => e.fix)).toHaveLength(1);
    const subtasks = found.relations.filter((r) => r.kind === 'has_subtask');
    expect(subtasks.length).toBeGreaterThan(0);
    expect(subtasks.every((r) => r.source.kind === 'task' && r.target.kind === 'task')).toBe(true);
  });

  it('pairs the files it edits with those the session edited before', () => {
    const found = windowEntities(events, ['src/cache.py']);
    expect(found.relations).toContainEqual({
      kind: 'edited_with',
      source: { kind: 'file', name: 'src/cache.py', base: 'cache.py' },
      target: { kind: 'file', name: 'test/test_cache.py', base: 'test_cache.py' },
    });
  });
});

describe('windowEntities and base names', () => {
  const event = (eventId: string, type: string, content: string, metadata: Record<string, unknown> | null = null) => ({
    eventId,
    type,
    occurredAt: 0,
    content,
    metadata,
  });

  it('takes a file named by its base name for the one path the session names it by', () => {
    const found = windowEntities(
      [
        event('e1', 'tool_call', 'Edit public/tokenizer.css', {
          tool: 'Edit',
          input: { file_path: 'public/tokenizer.css' },
        }),
        event('e2', 'response', 'The ruby styling now lives in `tokenizer.css`.'),
      ],
      [],
    );
    const files = new Set(found.mentions.filter((m) => m.kind === 'file').map((m) => m.name));
    expect([...files]).toEqual(['public/tokenizer.css']);
  });

  it('leaves a base name two paths share as it is', () => {
    const found = windowEntities(
      [event('e1', 'response', 'Both `a/index.ts` and `b/index.ts` import `index.ts` helpers.')],
      [],
    );
    expect(found.mentions.filter((m) => m.kind === 'file').map((m) => m.name)).toContain('index.ts');
  });
});

describe('itemEntities', () => {
  it('names the files of an item and the code its text names', () => {
    const refs = itemEntities({
      title: 'Retries in sendWebhook',
      facts: 'The `WebhookSender` retries 3 times.',
      rationale: null,
      files: ['src/webhooks/sender.ts'],
    });
    expect(refs.map((r) => `${r.kind}:${r.name}:${r.base}`)).toEqual([
      'file:src/webhooks/sender.ts:sender.ts',
      'symbol:WebhookSender:webhooksender',
      'symbol:sendWebhook:sendwebhook',
    ]);
  });
});

describe('fixed_by relations', () => {
  it('ties the failure of the real session to the file whose edit fixed it', () => {
    const found = windowEntities(fixtureEvents('fix-type-errors.jsonl'), []);
    const fixed = found.relations.filter((r) => r.kind === 'fixed_by');
    expect(fixed).toHaveLength(1);
    expect(fixed[0]!.source.kind).toBe('error');
    expect(fixed[0]!.target).toEqual({ kind: 'file', name: 'test/test_cache.py', base: 'test_cache.py' });
  });
});
