import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

interface Batch {
  sessionId: string;
  events: Array<{ eventId: string; type: string; timestamp: string; content: string; metadata: unknown }>;
}

const csv = (value: string) => `"${value.replace(/"/g, '""')}"`;

/**
 * The floor under ingest: PostgreSQL's COPY of the rows the benchmark posted, into a table
 * shaped like raw_events (its columns, defaults, unique key and indexes; not its trigger, which
 * keeps sessions current and is ingest's work). The file is written before the clock starts and
 * read by the server itself (`COPY … FROM '<file>'`), so the figure is the database's alone.
 * The server must see this machine's temporary directory, as the benchmark's PostgreSQL does.
 */
export async function copyBaseline(
  databaseUrl: string,
  bodies: string[],
): Promise<{ rows: number; rowsPerSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'memex-copy-'));
  chmodSync(dir, 0o755);
  const file = join(dir, 'events.csv');
  const lines: string[] = [];
  for (const body of bodies) {
    const batch = JSON.parse(body) as Batch;
    for (const e of batch.events) {
      lines.push(
        [
          'bench-project',
          csv(batch.sessionId),
          csv(e.eventId),
          e.type,
          e.timestamp,
          csv(e.content),
          csv(JSON.stringify(e.metadata)),
        ].join(','),
      );
    }
  }
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o644 });
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    await pg.query('drop table if exists bench_copy');
    await pg.query(
      'create table bench_copy (like raw_events including defaults including constraints including indexes)',
    );
    const started = process.hrtime.bigint();
    await pg.query(
      `copy bench_copy (project_id, session_id, event_id, type, occurred_at, content, metadata) from '${file}' (format csv)`,
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await pg.query('drop table bench_copy');
    return { rows: lines.length, rowsPerSecond: lines.length / seconds };
  } finally {
    await pg.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
