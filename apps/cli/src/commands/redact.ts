import type { RedactionPassStep } from '@memex/domain';
import { Api } from '../api';
import { parseFlags } from '../args';
import { emit, type CommandContext } from '../command';
import { table } from '../table';

export const REDACT_USAGE = 'memex redact [--apply] [--project <id>] [--json]';

/** One batch of POST /api/v2/redaction/pass. */
type PassStep = RedactionPassStep;

type TableTotal = Omit<PassStep, 'nextCursor' | 'mode'>;

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * `memex redact`: steps through every stored table a batch at a time until the server says it
 * has read them all, and adds the batches up by table.
 */
export async function runRedact(args: string[], context: CommandContext): Promise<number> {
  const values = parseFlags(args, { values: ['project'], switches: ['apply'] }, REDACT_USAGE);
  const api = new Api(context.connection);
  const mode = values.apply ? 'apply' : 'dry-run';
  const tables = new Map<string, TableTotal>();
  let cursor: string | null = null;
  do {
    const step: PassStep = await api.post<PassStep>('/api/v2/redaction/pass', {
      mode,
      ...(values.project ? { projectId: values.project } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const total: TableTotal = tables.get(step.table) ?? {
      table: step.table,
      scanned: 0,
      changed: 0,
      skipped: 0,
      redactions: {},
    };
    total.scanned += step.scanned;
    total.changed += step.changed;
    total.skipped += step.skipped;
    for (const [rule, n] of Object.entries(step.redactions)) total.redactions[rule] = (total.redactions[rule] ?? 0) + n;
    tables.set(step.table, total);
    cursor = step.nextCursor;
  } while (cursor);
  const rows = [...tables.values()];
  const secrets = sum(rows.map((t) => sum(Object.values(t.redactions))));
  const changed = sum(rows.map((t) => t.changed));
  const skipped = sum(rows.map((t) => t.skipped));
  const verb = mode === 'apply' ? 'Redacted' : 'Would redact (dry run; --apply rewrites)';
  emit(context, values.json, { mode, tables: rows, secrets, changed, skipped }, () =>
    [
      table(
        ['TABLE', 'ROWS', 'WITH SECRETS', 'SECRETS BY RULE'],
        rows.map((t) => [
          t.table,
          t.scanned,
          t.changed,
          Object.entries(t.redactions)
            .map(([rule, n]) => `${rule} ${n}`)
            .join(', ') || '-',
        ]),
      ),
      '',
      `${verb}: ${secrets} secret(s) in ${changed} row(s).` +
        (skipped ? ` ${skipped} row(s) changed meanwhile were left; run it again.` : ''),
    ].join('\n'),
  );
  return skipped > 0 ? 1 : 0;
}
