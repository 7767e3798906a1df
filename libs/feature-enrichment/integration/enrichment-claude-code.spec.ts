import { tmpdir } from 'node:os';
import { EnrichmentModule, EnrichmentService } from '@memex/feature-enrichment';
import { ClaudeStandIn } from '../../../test/support/claude-standin';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { modelAnswer } from '../../../test/support/scripted-llm';
import { useTestApp } from '../../../test/support/use-test-app';

const claude = new ClaudeStandIn();
beforeAll(() => claude.install());
afterAll(() => claude.remove());
beforeEach(() => {
  claude.install();
  claude.mode('ok');
});

const ctx = useTestApp([EnrichmentModule], {
  env: { ENRICHMENT_ENGINE: 'claude-code', CLAUDE_CODE_TIMEOUT_MS: '1500' },
});
const service = () => ctx.server.app.get(EnrichmentService);

async function session(name: string, text: string) {
  const event = rawEvent('prompt', text);
  const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, name, [event]);
  return { event, sessionId };
}

async function items(sessionId: string) {
  return ctx.database.db
    .selectFrom('memory_items')
    .innerJoin('item_history', 'item_history.item_id', 'memory_items.id')
    .select(['memory_items.title', 'memory_items.type', 'item_history.actor'])
    .where('memory_items.session_id', '=', sessionId)
    .execute();
}

describe('the claude-code engine (a stand-in `claude` on PATH)', () => {
  it('runs claude headless with the prompt on stdin, and keeps what it found with its cost', async () => {
    const { event, sessionId } = await session('ok', 'We decided to deploy from tags only, never from main.');
    claude.answer(
      modelAnswer([
        {
          type: 'Decision',
          title: 'Deploy from tags only',
          facts: 'Releases are deployed from git tags, never from main.',
          evidence: [{ eventId: event.eventId, quote: 'deploy from tags only, never from main' }],
        },
      ]),
    );
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-ok');
    expect(report).toMatchObject({ engine: 'claude-code', created: 1, modelCalls: 1, tokens: 1080, fallback: null });
    expect(await items(sessionId)).toEqual([
      { title: 'Deploy from tags only', type: 'Decision', actor: 'enrichment:claude-code' },
    ]);

    const [run] = claude.runs().slice(-1);
    expect(run!.argv.slice(0, 11)).toEqual([
      '-p',
      '--output-format',
      'json',
      '--model',
      'haiku',
      '--max-turns',
      '1',
      '--tools',
      '',
      '--strict-mcp-config',
      '--system-prompt',
    ]);
    expect(run!.argv[11]).toContain('You turn the events of an AI-assisted coding session');
    expect(run!.stdin).toContain(`<event id="${event.eventId}" type="prompt"`);
    expect(run!.hooks).toBe('off');
    expect(run!.cwd).toBe(tmpdir());

    const usage = await ctx.database.db
      .selectFrom('llm_usage')
      .selectAll()
      .where('project_id', '=', ctx.project.projectId)
      .execute();
    expect(usage).toEqual([
      expect.objectContaining({
        engine: 'claude-code',
        tokens: 1080,
        prompt_tokens: 1000,
        completion_tokens: 80,
        calls: 1,
      }),
    ]);
    // What Claude Code reported, not a price table's guess.
    expect(usage[0]!.cost_usd).toBeCloseTo(0.0123, 10);
  });

  it.each([
    ['malformed twice', 'malformed', 'malformed-output', 2],
    ['too slow', 'slow', 'model-unavailable', 1],
    ['failing', 'failing', 'model-unavailable', 1],
  ] as const)('gives the window to the local engine when claude is %s', async (_label, mode, fallback, runs) => {
    const { sessionId } = await session(
      `bad-${mode}`,
      `Always run the ${mode} checks through the task runner, never by hand.`,
    );
    claude.mode(mode);
    const before = claude.runs().length;
    const report = await service().enrichSession(ctx.project.projectId, sessionId, `run-${mode}`);
    expect(report).toMatchObject({ fallback, created: 1 });
    expect(claude.runs().length - before).toBe(runs);
    expect(await items(sessionId)).toEqual([
      expect.objectContaining({ type: 'Convention', actor: 'enrichment:local' }),
    ]);
  });

  it('gives the window to the local engine when claude is not installed', async () => {
    claude.uninstall();
    const { sessionId } = await session('missing', "Let's use pnpm instead of npm for the workspace.");
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-missing');
    expect(report).toMatchObject({ fallback: 'model-unavailable', created: 1, modelCalls: 0 });
    expect(await items(sessionId)).toEqual([expect.objectContaining({ type: 'Decision', actor: 'enrichment:local' })]);
  });
});
