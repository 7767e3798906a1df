import { ItemsModule } from '@memex/feature-items';
import { McpModule } from '@memex/feature-mcp';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@memex/domain';
import { fixtureRawEvents } from '../../../test/support/claude-code-fixtures';
import { storeEvents } from '../../../test/support/events';
import { useTestApp } from '../../../test/support/use-test-app';
import { connect, httpTransport, stdioClientTransport, textOf } from './mcp-clients';

const ctx = useTestApp([McpModule, ItemsModule]);

describe('memex_context_pack with a session, a strategy and filters', () => {
  const session = `mcp-tasks-${newId().slice(-8).toLowerCase()}`;
  const goal = "- _goal:_ Let's add tests and set up CI. Run the existing tests first.";
  type Pack = { content: string; strategy: { depthLimit: number; budgetAllocation: Record<string, number> } };

  beforeAll(async () => {
    const events = fixtureRawEvents('mixed-task-agent.jsonl').map((e) => ({
      ...e,
      eventId: `${session}-${e.eventId}`,
    }));
    await storeEvents(ctx.server.app, ctx.project.projectId, session, events);
  });

  it('starts from the named session’s task stack and uses the strategy given', async () => {
    const client = await connect(httpTransport(ctx, ctx.project.apiKey));
    try {
      const pack = await client.callTool({
        name: 'memex_context_pack',
        arguments: {
          query: 'which edge cases does the pipeline miss?',
          maxTokens: 1500,
          sessionId: session,
          strategy: { depthLimit: 0, budgetAllocation: { pattern: 0 } },
          entityTypes: ['file', 'symbol'],
          since: '2020-01-01T00:00:00Z',
        },
      });
      expect(pack.isError).toBeFalsy();
      expect(textOf(pack).split('\n')).toContain(goal);
      const { strategy } = pack.structuredContent as Pack;
      expect(strategy.depthLimit).toBe(0);
      expect(strategy.budgetAllocation.pattern).toBe(0);

      const refused = await client.callTool({
        name: 'memex_context_pack',
        arguments: { query: 'x', strategy: { depthLimit: 9 } },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/depthLimit/);
    } finally {
      await client.close();
    }
  });

  it('over stdio, takes the session the hooks last saw in this project as the assistant’s own', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'memex-mcp-hooks-'));
    const projectDir = mkdtempSync(join(tmpdir(), 'memex-mcp-project-'));
    // What the hooks write when a session starts in this project directory.
    mkdirSync(join(stateDir, 'current'), { recursive: true });
    writeFileSync(
      join(stateDir, 'current', `${createHash('sha256').update(projectDir).digest('hex').slice(0, 32)}.json`),
      JSON.stringify({ session_id: session, transcript_path: join(projectDir, 'missing.jsonl') }),
    );
    const client = await connect(
      stdioClientTransport(ctx.server.url, ctx.project.apiKey, {
        MEMEX_HOOK_STATE_DIR: stateDir,
        CLAUDE_PROJECT_DIR: projectDir,
      }),
    );
    try {
      const pack = await client.callTool({
        name: 'memex_context_pack',
        arguments: { query: 'which edge cases does the pipeline miss?', maxTokens: 1500 },
      });
      expect(pack.isError).toBeFalsy();
      expect(textOf(pack).split('\n')).toContain(goal);
    } finally {
      await client.close();
    }
  });
});
