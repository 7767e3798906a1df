import { sql, type Kysely } from 'kysely';
import type { DB } from '@memex/db';

/**
 * Every text, JSON and array column of every table, as one text: what a test searches for
 * something that must not be stored anywhere.
 */
export async function dumpDatabase(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
     order by table_name, ordinal_position`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  const parts: string[] = [];
  for (const [table, columns] of byTable) {
    const values = columns.map((c) => sql`coalesce(${sql.ref(c)}::text, '')`);
    const dumped = await sql<{ row: string }>`
      select concat_ws(E'\\n', ${sql.join(values)}) as row from ${sql.table(table)}`.execute(db);
    parts.push(`## ${table}`, ...dumped.rows.map((r) => r.row));
  }
  return parts.join('\n');
}
