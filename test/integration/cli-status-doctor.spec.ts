import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrainApiModule } from '../../apps/brain-api/src';
import { ModelUsageRepository } from '@memex/db';
import { ClaudeStandIn } from '../support/claude-standin';
import { rawEvent, storeEvents } from '../support/events';
import { MEMEX_BIN, runCli } from '../support/processes';
import { mergeClaudeSettings } from '@memex/claude-hooks';
import { ScriptedLlm } from '../support/scripted-llm';
import { useTestApp } from '../support/use-test-app';
import { EMBEDDED } from '../support/mode';

const ctx = useTestApp([BrainApiModule], { env: { ENRICHMENT_ENGINE: 'claude-code', LLM_DAILY_TOKENS: '1000' } });

/** Runs the CLI with `env` and a local state directory of its own, so no local project of this machine counts. */
const memex = (args: string[], env: Record<string, string>) =>
  runCli(args, { ...env, MEMEX_LOCAL_STATE_DIR: mkdtempSync(join(tmpdir(), 'memex-cli-')) });

describe('memex status', () => {
  it("prints the server's health, the project's sessions and items, and model spend against the budget", async () => {
    await storeEvents(ctx.server.app, ctx.project.projectId, 'status', [rawEvent('prompt', 'Waiting for enrichment.')]);
    await ctx.server.app
      .get(ModelUsageRepository)
      .record(ctx.project.projectId, new Date().toISOString().slice(0, 10), 'claude-code', {
        tokens: 1200,
        promptTokens: 1000,
        completionTokens: 200,
        costUsd: 0.0123,
        calls: 2,
      });
    const env = { MEMEX_URL: ctx.server.url, MEMEX_API_KEY: ctx.project.apiKey };
    const run = await memex(['status'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe(`Memex at ${ctx.server.url}: ok (${EMBEDDED ? 'postgres ok' : 'postgres ok, redis ok'})`);
    expect(lines[1]).toBe(`project ${ctx.project.projectId}, engine claude-code (haiku)`);
    expect(lines[2]).toMatch(
      /^sessions: 1 \(1 waiting for enrichment\), last event \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/,
    );
    expect(lines[3]).toBe('items: 0 live, 0 in review, 0 archived; last enrichment never');
    expect(lines[4]).toBe('model spend today: 1,200 tokens, $0.0123; left today: 0 tokens');
    expect(lines[5]).toBe('budget spent (daily-token-budget): windows go to the local engine until midnight UTC');

    const json = await memex(['status', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ projectId: ctx.project.projectId, usageToday: { tokens: 1200 } });
  });

  it('says in one line when Memex is not there', async () => {
    const run = await memex(['status'], { MEMEX_URL: 'http://127.0.0.1:9', MEMEX_API_KEY: 'mx_x' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/^memex status: Memex is not reachable at http:\/\/127\.0\.0\.1:9/);
  });
});

/** Everything a session needs, in place: the server, its key, a repository with the hooks, an empty spool. */
function healthy(): { env: Record<string, string>; dir: string[] } {
  const repo = mkdtempSync(join(tmpdir(), 'memex-doctor-repo-'));
  mkdirSync(join(repo, '.claude'));
  writeFileSync(
    join(repo, '.claude', 'settings.local.json'),
    JSON.stringify(mergeClaudeSettings(undefined, MEMEX_BIN).value),
  );
  return {
    env: {
      MEMEX_URL: ctx.server.url,
      MEMEX_API_KEY: ctx.project.apiKey,
      MEMEX_HOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'memex-doctor-state-')),
    },
    dir: ['--dir', repo],
  };
}

describe('memex doctor', () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await new ScriptedLlm().start();
  });
  afterAll(() => llm.stop());

  it('asks an OpenAI-compatible endpoint one tiny question and says which output mode it took', async () => {
    llm.refuses.add('json_schema');
    llm.enqueue({ content: '{"items": []}', usage: { prompt_tokens: 40, completion_tokens: 6 } });
    const setup = healthy();
    const run = await memex(['doctor', ...setup.dir], {
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'small-local',
      ...setup.env,
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.trim().split('\n')).toEqual([
      `ok   server: Memex answers at ${ctx.server.url}`,
      'ok   key: from MEMEX_API_KEY',
      expect.stringMatching(new RegExp(`^ok   project: ${ctx.project.projectId}: \\d+ live items from \\d+ sessions$`)),
      expect.stringMatching(/^ok {3}hooks: installed in .*\.claude$/),
      'ok   spool: nothing waiting to be sent',
      `engine: openai, model small-local at ${llm.url}`,
      expect.stringMatching(/^check: ok in \d+ ms, output mode json_object, 46 tokens$/),
    ]);
  });

  it('runs the claude command for the claude-code engine, with what it cost', async () => {
    const claude = new ClaudeStandIn();
    try {
      claude.answer('{"items": []}');
      const setup = healthy();
      const run = await memex(['doctor', '--json', ...setup.dir], {
        ENRICHMENT_ENGINE: 'claude-code',
        PATH: `${claude.dir}:${process.env.PATH ?? ''}`,
        ...setup.env,
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        engine: 'claude-code',
        model: 'haiku',
        target: 'claude',
        ok: true,
        usage: { totalTokens: 1080, costUsd: 0.0123 },
      });
    } finally {
      claude.remove();
    }
  });

  it('fails with the reason when the engine cannot be used, and refuses a configuration it cannot run', async () => {
    const down = await memex(['doctor'], {
      ENRICHMENT_ENGINE: 'claude-code',
      CLAUDE_CODE_COMMAND: 'memex-no-such-claude',
    });
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/check: FAILED after \d+ ms: memex-no-such-claude was not found/);

    const invalid = await memex(['doctor'], { ENRICHMENT_ENGINE: 'openai' });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/ENRICHMENT_ENGINE: openai needs LLM_BASE_URL/);

    const setup = healthy();
    const local = await memex(['doctor', ...setup.dir], setup.env);
    expect(local).toMatchObject({ code: 0 });
    expect(local.stdout).toMatch(/\nengine: local/);
  });

  it('names what stops sessions reaching the brain, each with its fix', async () => {
    const state = mkdtempSync(join(tmpdir(), 'memex-doctor-state-'));
    mkdirSync(join(state, 'spool', 'no-key'), { recursive: true });
    for (const n of [1, 2]) writeFileSync(join(state, 'spool', 'no-key', `${n}.json`), '{}');
    const repo = mkdtempSync(join(tmpdir(), 'memex-doctor-repo-'));
    const run = await memex(['doctor', '--dir', repo], {
      MEMEX_URL: 'http://127.0.0.1:9',
      MEMEX_HOOK_STATE_DIR: state,
    });
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(0, 8)).toEqual([
      expect.stringMatching(/^FAIL server: Memex at http:\/\/127\.0\.0\.1:9 does not answer/),
      '     fix: start it (`npm start` in the Memex checkout), or set MEMEX_URL to where it runs',
      expect.stringMatching(/^FAIL key: no project key/),
      '     fix: run `npm start` once (it makes a local project), then `memex init --write` in this repository',
      `FAIL hooks: no Memex hooks in ${join(repo, '.claude')}`,
      '     fix: run `memex init --write` in this repository',
      `FAIL spool: 2 request(s) of events waiting in ${join(state, 'spool')}`,
      expect.stringMatching(/^ {5}fix: they go out with the next hook/),
    ]);

    const refused = await memex(['doctor', '--dir', repo], {
      MEMEX_URL: ctx.server.url,
      MEMEX_API_KEY: 'mx_not-a-key-of-this-server',
      MEMEX_HOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'memex-doctor-state-')),
    });
    expect(refused.stdout).toContain('FAIL key: the key from MEMEX_API_KEY is refused');
  });
});
