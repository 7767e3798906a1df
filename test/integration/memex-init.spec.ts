import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { runCli } from '../support/processes';
import { useTestApp } from '../support/use-test-app';
import { request } from '../support/http';
import { ADMIN_TOKEN } from '../support/test-app';
import { mergeClaudeSettings } from '@memex/claude-hooks';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);

describe('memex init', () => {
  it('makes the repository a project of its own, keeps machine paths and the key out of committed files, and is idempotent', async () => {
    const project = mkdtempSync(join(tmpdir(), 'memex-init-'));
    const settingsPath = join(project, '.claude', 'settings.json');
    const localPath = join(project, '.claude', 'settings.local.json');
    // What an older init left in the committed settings: its hooks, beside the user's own.
    const existing = mergeClaudeSettings(
      {
        model: 'opus',
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
        enabledMcpjsonServers: ['github'],
      },
      '/old/checkout/bin/memex',
    ).value;
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(settingsPath, JSON.stringify(existing));
    const cliEnv = {
      MEMEX_LOCAL_STATE_DIR: join(project, 'none'),
      MEMEX_URL: ctx.server.url,
      MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    };

    const dry = await runCli(['init', '--dir', project], cliEnv);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('hook SessionStart');
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual(existing);
    expect(existsSync(localPath)).toBe(false);

    const write = await runCli(['init', '--write', '--dir', project], cliEnv);
    expect(write.code).toBe(0);
    expect(write.stdout).toContain(`Made project ${basename(project)}`);
    expect(write.stdout).toContain('An older `memex init` had put the hooks');
    // The committed files name nothing of this machine, and hold no key.
    const committed = readFileSync(settingsPath, 'utf8') + readFileSync(join(project, '.mcp.json'), 'utf8');
    expect(committed).not.toContain('bin/memex');
    expect(committed).not.toContain('mx_');
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual({
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
      enabledMcpjsonServers: ['github', 'memex'],
    });
    const mcp = JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args?: string[] }>;
    };
    expect(mcp.mcpServers.github).toEqual({ command: 'gh-mcp' });
    expect(mcp.mcpServers.memex).toMatchObject({ type: 'stdio', command: '${MEMEX_BIN:-memex}', args: ['mcp'] });

    const local = JSON.parse(readFileSync(localPath, 'utf8')) as {
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
      enabledMcpjsonServers: string[];
      env: { MEMEX_BIN: string; MEMEX_URL: string; MEMEX_API_KEY: string };
    };
    expect(statSync(localPath).mode & 0o777).toBe(0o600);
    expect(local.enabledMcpjsonServers).toEqual(['memex']);
    expect(Object.keys(local.hooks).sort()).toEqual(
      ['PostToolUse', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit'].sort(),
    );
    expect(local.hooks.Stop!.flatMap((g) => g.hooks.map((h) => h.command))).toEqual([
      expect.stringMatching(/bin\/memex hook Stop$/),
    ]);
    expect(local.env).toEqual({
      MEMEX_BIN: expect.stringMatching(/bin\/memex$/),
      MEMEX_URL: ctx.server.url,
      MEMEX_API_KEY: expect.stringMatching(/^mx_/),
    });
    // The key opens the repository's own project, named after it, and not the file's test project.
    const summary = await request<{ projectName?: string }>(`${ctx.server.url}/api/v2/brain`, {
      key: local.env.MEMEX_API_KEY,
    });
    expect(summary.status).toBe(200);
    expect(JSON.stringify(summary.body)).toContain(`Project brain: ${basename(project)}`);

    const before = readFileSync(localPath, 'utf8');
    const again = await runCli(['init', '--write', '--dir', project], cliEnv);
    expect(again.stdout).toContain('keeps its own project');
    expect(again.stdout).toContain('is up to date');
    expect(readFileSync(localPath, 'utf8')).toBe(before);
  });

  it('leaves the hooks on the local project when no admin token can make one', async () => {
    const project = mkdtempSync(join(tmpdir(), 'memex-init-'));
    const run = await runCli(['init', '--write', '--dir', project], {
      MEMEX_LOCAL_STATE_DIR: join(project, 'none'),
      MEMEX_URL: ctx.server.url,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No admin token, so no project of its own');
    const local = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')) as { env: object };
    expect(local.env).not.toHaveProperty('MEMEX_API_KEY');
  });

  it('refuses to touch a settings file that is not JSON', async () => {
    const project = mkdtempSync(join(tmpdir(), 'memex-init-'));
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.json'), '{ "hooks": ');
    const run = await runCli(['init', '--write', '--dir', project], { MEMEX_LOCAL_STATE_DIR: join(project, 'none') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/settings\.json is not valid JSON; fix it first, nothing was written/);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(join(project, '.mcp.json'))).toBe(false);
  });
});
