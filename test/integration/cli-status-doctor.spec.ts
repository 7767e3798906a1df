import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrainApiModule } from '../../apps/brain-api/src';
import { ModelUsageRepository } from '@memex/db';
import { ClaudeStandIn } from '../support/claude-standin';
import { rawEvent, storeEvents } from '../support/events';
import { runCli } from '../support/processes';
import { ScriptedLlm } from '../support/scripted-llm';
import { useTestApp } from '../support/use-test-app';
import { EMBEDDED } from '../support/mode';

const ctx = useTestApp([BrainApiModule], { env: { ENRICHMENT_ENGINE: 'claude-code', LLM_DAILY_TOKENS: '1000' } });
const noLocalProject = () => ({ MEMEX_LOCAL_STATE_DIR: mkdtempSync(join(tmpdir(), 'memex-cli-')) });

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
    const env = { MEMEX_URL: ctx.server.url, MEMEX_API_KEY: ctx.project.apiKey, ...noLocalProject() };
    const run = await runCli(['status'], env);
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

    const json = await runCli(['status', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ projectId: ctx.project.projectId, usageToday: { tokens: 1200 } });
  });

  it('says in one line when Memex is not there', async () => {
    const run = await runCli(['status'], {
      MEMEX_URL: 'http://127.0.0.1:9',
      MEMEX_API_KEY: 'mx_x',
      ...noLocalProject(),
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/^memex status: Memex is not reachable at http:\/\/127\.0\.0\.1:9/);
  });
});

describe('memex doctor', () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await new ScriptedLlm().start();
  });
  afterAll(() => llm.stop());

  it('asks an OpenAI-compatible endpoint one tiny question and says which output mode it took', async () => {
    llm.refuses.add('json_schema');
    llm.enqueue({ content: '{"items": []}', usage: { prompt_tokens: 40, completion_tokens: 6 } });
    const run = await runCli(['doctor'], { LLM_BASE_URL: llm.url, LLM_MODEL: 'small-local', ...noLocalProject() });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.trim().split('\n')).toEqual([
      `engine: openai, model small-local at ${llm.url}`,
      expect.stringMatching(/^check: ok in \d+ ms, output mode json_object, 46 tokens$/),
    ]);
  });

  it('runs the claude command for the claude-code engine, with what it cost', async () => {
    const claude = new ClaudeStandIn();
    try {
      claude.answer('{"items": []}');
      const run = await runCli(['doctor', '--json'], {
        ENRICHMENT_ENGINE: 'claude-code',
        PATH: `${claude.dir}:${process.env.PATH ?? ''}`,
        ...noLocalProject(),
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
    const down = await runCli(['doctor'], {
      ENRICHMENT_ENGINE: 'claude-code',
      CLAUDE_CODE_COMMAND: 'memex-no-such-claude',
      ...noLocalProject(),
    });
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/check: FAILED after \d+ ms: memex-no-such-claude was not found/);

    const invalid = await runCli(['doctor'], { ENRICHMENT_ENGINE: 'openai', ...noLocalProject() });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/ENRICHMENT_ENGINE: openai needs LLM_BASE_URL/);

    const local = await runCli(['doctor'], noLocalProject());
    expect(local).toMatchObject({ code: 0 });
    expect(local.stdout).toMatch(/^engine: local/);
  });
});
