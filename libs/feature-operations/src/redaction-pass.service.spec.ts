import type { ProjectRepository, RedactedRow, RedactionPassRepository, RedactionRow } from '@memex/db';
import type { RedactionPassTable } from '@memex/domain';
import { Redactor } from '@memex/redaction';
import type { RedactionService } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import { RedactionPassService } from './redaction-pass.service';

const P1 = '01JD00000000000000000PROJ1';
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;

function row(key: number, content: string | null): RedactionRow {
  return { key, projectId: P1, values: { content, metadata: { note: 'nothing here' } } };
}

function setUp(page: RedactionRow[], { projectExists = true } = {}) {
  const rows = fake<RedactionPassRepository>(
    {
      page: async () => page,
      // The writer keeps every row but the one an operator's edit got to first.
      write: async <R extends RedactedRow>(_t: RedactionPassTable, found: readonly R[]) =>
        found.filter((r) => r.row.key !== 13),
    },
    'rows',
  );
  const projects = fake<ProjectRepository>(
    { findById: async () => (projectExists ? { id: P1, name: 'shop', memoryRevision: 1 } : undefined) },
    'projects',
  );
  const redaction = fake<RedactionService>({ redactor: new Redactor(), count: () => undefined }, 'redaction');
  return { service: new RedactionPassService(rows, projects, redaction), rows, redaction };
}

const project = { kind: 'project' as const, projectId: P1 };
const admin = { kind: 'admin' as const };

describe('RedactionPassService.step', () => {
  it('a dry run says what it would replace, by rule, and writes nothing', async () => {
    const { service, rows } = setUp([row(11, `export GH_TOKEN=${TOKEN}`), row(12, 'plain words'), row(13, null)]);
    const step = await service.step(project, { mode: 'dry-run', limit: 500, cursor: 'events:' });
    expect(step).toMatchObject({
      table: 'events',
      scanned: 3,
      changed: 1,
      skipped: 0,
      redactions: { 'github-token': 1 },
    });
    expect(rows.write).not.toHaveBeenCalled();
    expect(rows.page).toHaveBeenCalledWith('events', P1, undefined, 500);
  });

  it('applies through the repository, counts only what was written, and says who did it', async () => {
    const { service, rows, redaction } = setUp([row(12, `token ${TOKEN}`), row(13, `again ${TOKEN}`)]);
    const step = await service.step(project, { mode: 'apply', limit: 500, cursor: 'events:' });
    expect(step).toMatchObject({ changed: 1, skipped: 1, redactions: { 'github-token': 1 } });
    const [table, found, actor] = rows.write.mock.calls[0]!;
    expect([table, actor]).toEqual(['events', 'project-key']);
    expect(found[0]).toMatchObject({
      set: { content: 'token [REDACTED:github-token]' },
      reason: 'secrets replaced by memex redact: github-token ×1',
    });
    expect(found[0]!.set).not.toHaveProperty('metadata');
    expect(redaction.count).toHaveBeenCalledTimes(1);
  });

  it('pages on within a table while pages come back full, then moves to the next table, then ends', async () => {
    const full = setUp([row(11, 'a'), row(12, 'b')]);
    expect((await full.service.step(admin, { mode: 'dry-run', limit: 2, cursor: 'events:10' })).nextCursor).toBe(
      'events:12',
    );
    expect(full.rows.page).toHaveBeenCalledWith('events', undefined, '10', 2);
    const short = setUp([row(11, 'a')]);
    expect((await short.service.step(admin, { mode: 'dry-run', limit: 2, cursor: 'events:10' })).nextCursor).toBe(
      'items:',
    );
    const last = setUp([]);
    expect(
      (await last.service.step(admin, { mode: 'dry-run', limit: 2, cursor: 'error-occurrences:' })).nextCursor,
    ).toBeNull();
  });

  it('a project key redacts its own project only; the admin token names a project that exists, or all', async () => {
    await expect(
      setUp([]).service.step(project, { mode: 'dry-run', limit: 10, projectId: '01JD00000000000000000OTHER' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      setUp([], { projectExists: false }).service.step(admin, { mode: 'dry-run', limit: 10, projectId: P1 }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
