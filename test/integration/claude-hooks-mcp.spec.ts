import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MEMEX_BIN } from '../support/processes';
import { useTestApp } from '../support/use-test-app';
import { hookHarness, newSession } from '../support/hook-sessions';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);
const { env, hook } = hookHarness(ctx);

describe('memex mcp: a memory is checked against what the session just said', () => {
  it("sends the project's current session before remembering, so the assistant's newest words count", async () => {
    const s = newSession();
    const project = join(s.stateDir, '..', 'project');
    mkdirSync(project, { recursive: true });
    writeFileSync(s.transcript, `${s.lines.join('\n')}\n`);
    const overrides = { CLAUDE_PROJECT_DIR: project };
    expect((await hook(s, 'SessionStart', overrides)).code).toBe(0);

    // The assistant writes a sentence, then calls memex_remember before any hook runs again.
    const said = 'Legacy discount codes fall back to their flat amount because they carry no rule object.';
    const line = JSON.parse(s.lines.find((l) => l.includes('"type":"assistant"') && l.includes('"text"'))!) as Record<
      string,
      unknown
    >;
    appendFileSync(
      s.transcript,
      `${JSON.stringify({
        ...line,
        uuid: `${s.sessionId.slice(0, 8)}-0000-4000-8000-${String(process.pid).padStart(12, '0')}`,
        message: { role: 'assistant', content: [{ type: 'text', text: said }] },
      })}\n`,
    );
    const client = new Client({ name: 'memex-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MEMEX_BIN, 'mcp'],
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env(s, overrides) },
        stderr: 'pipe',
      }),
    );
    try {
      const remembered = await client.callTool({
        name: 'memex_remember',
        arguments: {
          type: 'BugFix',
          title: 'Legacy discount codes have no rule: they use their flat amount',
          facts: 'applyDiscount falls back to the flat amount for codes without a rule.',
          quotes: ['fall back to their flat amount because they carry no rule object'],
        },
      });
      expect(remembered.isError).toBeFalsy();
      const itemId = (remembered.structuredContent as { itemId: string }).itemId;
      const item = await ctx.database.db
        .selectFrom('memory_items')
        .innerJoin('sessions', 'sessions.id', 'memory_items.session_id')
        .select(['sessions.external_id', 'memory_items.evidence_spans', 'memory_items.confidence'])
        .where('memory_items.id', '=', itemId)
        .executeTakeFirstOrThrow();
      expect(item).toMatchObject({ external_id: s.sessionId, confidence: 0.9 });
      expect(item.evidence_spans[0]!.quote).toBe('fall back to their flat amount because they carry no rule object');
    } finally {
      await client.close();
    }
  });
});
