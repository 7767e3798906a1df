import { redactEventBatch } from './events';
import { Redactor } from './redactor';
import { randomOf } from './secret-corpus.fixture';

const redactor = new Redactor();
const event = (content: string, metadata?: Record<string, unknown>) => ({
  eventId: `e-${content.length}`,
  type: 'prompt',
  timestamp: '2026-11-21T09:00:00Z',
  content,
  ...(metadata ? { metadata } : {}),
});

describe('redactEventBatch', () => {
  it('returns a batch holding nothing as it is, counting nothing', async () => {
    const batch = { sessionId: 's', branch: 'main', events: [event('plain words'), event('more', { tool: 'Edit' })] };
    const { value, counts } = await redactEventBatch(redactor, batch);
    expect(value).toBe(batch);
    expect(counts).toEqual({});
  });

  it('redacts content, metadata and branch, keeping the events that hold nothing', async () => {
    const token = `ghp_${randomOf('abcdefghijklmnopqrstuvwxyzABCDEF0123456789', 36)}`;
    const clean = event('plain words');
    const batch = {
      sessionId: 's',
      branch: `fix/${token}`,
      events: [clean, event(`token ${token}`, { input: { command: `echo ${token}` } }), event('tail')],
    };
    const { value, counts } = await redactEventBatch(redactor, batch);
    expect(value.events[0]).toBe(clean);
    expect(value.events[1]).toMatchObject({
      content: 'token [REDACTED:github-token]',
      metadata: { input: { command: 'echo [REDACTED:github-token]' } },
    });
    expect(value.events[2]).toBe(batch.events[2]);
    expect(value.branch).toBe('fix/[REDACTED:github-token]');
    expect(value.sessionId).toBe('s');
    expect(counts).toEqual({ 'github-token': 3 });
  });
});
