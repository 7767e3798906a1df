import { ITEM_TYPES } from '@memex/domain';
import { type EngineEvent, type ExistingHint } from '../candidate';
import { SCHEMA_KEY_TAXONOMY } from '../taxonomy';
import { MIN_QUOTE_LENGTH } from '../verify';
import { MAX_EVENT_CHARS, buildPrompt, repairPrompt } from './prompt';

function event(eventId: string, content: string, type: EngineEvent['type'] = 'prompt'): EngineEvent {
  return { seq: 1, eventId, type, timestamp: new Date('2026-11-21T09:30:00Z'), content, metadata: null };
}

const EVENTS = [
  event('evt-1', 'Let us use Kysely for every query.'),
  event('evt-2', 'npm test: 42 passed', 'command'),
  event('evt-3', 'diff --git a/src/db.ts', 'file_edit'),
];

const HINTS: ExistingHint[] = [
  { dedupHint: 'decision:db:kysely', type: 'Decision', title: 'Use Kysely for queries' },
  { dedupHint: 'bugfix:auth:token-refresh', type: 'BugFix', title: 'Token refresh raced on reload' },
];

function messages(events: EngineEvent[] = EVENTS, hints: ExistingHint[] = HINTS) {
  const [system, user] = buildPrompt({ events, hints });
  return { system: system!.content, user: user!.content };
}

describe('buildPrompt', () => {
  it('is one system message followed by one user message', () => {
    expect(buildPrompt({ events: EVENTS, hints: HINTS }).map((m) => m.role)).toEqual(['system', 'user']);
  });

  describe('system message', () => {
    const { system } = messages();

    it.each(ITEM_TYPES.filter((t) => t !== 'CodeMapNode'))('describes the item type %s', (type) => {
      expect(system).toMatch(new RegExp(`^- ${type}: \\S`, 'm'));
    });

    it('says never to produce CodeMapNode', () => {
      expect(system).toMatch(/^- CodeMapNode: never produce this type$/m);
    });

    it.each([1, 2, 3, 4, 5])('has the importance line for %p', (score) => {
      expect(system).toMatch(new RegExp(`^- ${score} — \\S`, 'm'));
    });

    it('lists the importance lines from 5 down to 1 and the rule for bugs', () => {
      const scores = [...system.matchAll(/^- ([1-5]) — /gm)].map((m) => Number(m[1]));
      expect(scores).toEqual([5, 4, 3, 2, 1]);
      expect(system).toContain('project-defining');
      expect(system).toContain('the default when uncertain');
      expect(system).toContain('importance is the impact of the bug, not the effort to fix it');
    });

    it('describes the schema-key taxonomy', () => {
      for (const line of SCHEMA_KEY_TAXONOMY) expect(system).toContain(`- ${line}`);
    });

    it('asks for evidence quotes as long as the verifier needs', () => {
      expect(system).toContain(`at least ${MIN_QUOTE_LENGTH} characters`);
    });

    it('does not depend on the input', () => {
      expect(messages([], []).system).toBe(system);
    });
  });

  describe('user message', () => {
    it('lists every hint with its type and title', () => {
      const { user } = messages();
      for (const h of HINTS) expect(user).toContain(`- ${h.dedupHint} (${h.type}) ${h.title}`);
      expect(user).not.toContain('(none yet)');
    });

    it('says (none yet) when there are no hints', () => {
      expect(messages(EVENTS, []).user).toContain('- (none yet)');
    });

    it('gives every event with its id, type and time, in order', () => {
      const { user } = messages();
      const opened = [...user.matchAll(/<event id="([^"]+)" type="([^"]+)" at="([^"]+)">/g)].map((m) => m.slice(1));
      expect(opened).toEqual(EVENTS.map((e) => [e.eventId, e.type, '2026-11-21T09:30:00.000Z']));
      for (const e of EVENTS) expect(user).toContain(`">\n${e.content}\n</event>`);
    });

    it('keeps an event of exactly MAX_EVENT_CHARS whole', () => {
      const content = `${'a'.repeat(MAX_EVENT_CHARS - 1)}Z`;
      const { user } = messages([event('evt-big', content)]);
      expect(user).toContain(`${content}\n</event>`);
      expect(user).not.toContain('[… truncated]');
    });

    it('truncates an event over MAX_EVENT_CHARS with a marker', () => {
      const content = `${'a'.repeat(MAX_EVENT_CHARS)}Z`;
      const { user } = messages([event('evt-big', content), event('evt-small', 'short and sweet')]);
      expect(user).toContain(
        `<event id="evt-big" type="prompt" at="2026-11-21T09:30:00.000Z">\n${'a'.repeat(MAX_EVENT_CHARS)}\n[… truncated]\n</event>`,
      );
      expect(user).not.toContain('aZ');
      expect(user).toContain('short and sweet\n</event>');
    });
  });
});

describe('repairPrompt', () => {
  it('is a user message carrying the problem', () => {
    const problem = 'it does not match the schema: items[0].importance: Too big';
    const message = repairPrompt(problem);
    expect(message.role).toBe('user');
    expect(message.content).toContain(problem);
    expect(message.content).toContain('JSON');
  });
});
