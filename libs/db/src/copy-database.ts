import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema';

/** Rows read and written at a time: a batch travels as one JSON parameter. */
const BATCH = 500;

export class CopyRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefusedError';
  }
}

/** Tables parents first (by their foreign keys), so every row's parent is there before it. */
export function parentsFirst(
  tables: readonly string[],
  edges: ReadonlyArray<{ child: string; parent: string }>,
): string[] {
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (done.has(table) || path.has(table)) return;
    path.add(table);
    for (const e of edges) if (e.child === table && e.parent !== table) visit(e.parent, path);
    path.delete(table);
    done.add(table);
    order.push(table);
  };
  for (const table of [...tables].sort()) visit(table, new Set());
  return order.filter((t) => tables.includes(t));
}

async function tablesOf(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' and c.relname not like 'kysely\\_%'`.execute(db);
  const { rows: edges } = await sql<{ child: string; parent: string }>`
    select conrelid::regclass::text as child, confrelid::regclass::text as parent
      from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`.execute(db);
  return parentsFirst(
    rows.map((r) => r.name),
    edges,
  );
}

async function count(db: Kysely<DB> | Transaction<DB>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * Copies every row of every table of `source` into `target`, a database of the same schema
 * that holds no project yet, in one transaction of the target: it has everything or nothing.
 * Rows travel as PostgreSQL's own JSON of them (`to_jsonb`, then `jsonb_populate_recordset`),
 * so every type comes back as it was; serial columns' sequences are moved past the copied ids.
 * Returns each table's row count, which both databases are checked to agree on.
 */
export async function copyDatabase(
  source: Kysely<DB>,
  target: Kysely<DB>,
  onTable: (table: string, rows: number) => void = () => undefined,
): Promise<Record<string, number>> {
  const held = await count(target, 'projects');
  if (held > 0) {
    throw new CopyRefusedError(`the target already holds ${held} project(s): move into an empty database`);
  }
  const tables = await tablesOf(source);
  const copied: Record<string, number> = {};
  await target.transaction().execute(async (trx) => {
    for (const table of tables) {
      // A row may point at a row of its own table copied after it (an item superseded by a
      // later one): such columns go in empty, and are filled once every row is there.
      const selfRefs = await selfReferences(source, table);
      let rows = 0;
      for (const pass of selfRefs.length ? (['insert', 'link'] as const) : (['insert'] as const)) {
        for (let offset = 0; ; offset += BATCH) {
          // One connection on the embedded side: each page is a statement of its own, in table order.
          const { rows: page } = await sql<{ row: unknown }>`
            select to_jsonb(t) as row from ${sql.table(table)} t order by ctid limit ${BATCH} offset ${offset}`.execute(
            source,
          );
          if (page.length === 0) break;
          const json = JSON.stringify(page.map((p) => p.row));
          if (pass === 'insert') {
            await sql`
              insert into ${sql.table(table)}
              select * from jsonb_populate_recordset(null::${sql.table(table)},
                (select jsonb_agg(e - ${selfRefs}::text[]) from jsonb_array_elements(${json}::jsonb) e))`.execute(trx);
            rows += page.length;
          } else {
            for (const column of selfRefs) {
              await sql`
                update ${sql.table(table)} t set ${sql.ref(column)} = s.${sql.ref(column)}
                  from jsonb_populate_recordset(null::${sql.table(table)}, ${json}::jsonb) s
                 where t.id = s.id and s.${sql.ref(column)} is not null`.execute(trx);
            }
          }
          if (page.length < BATCH) break;
        }
      }
      await advanceSequences(trx, table);
      const written = await count(trx, table);
      if (written !== rows || (await count(source, table)) !== rows) {
        throw new Error(
          `${table}: copied ${rows} rows, but the databases hold ${written} and ${await count(source, table)}`,
        );
      }
      copied[table] = rows;
      onTable(table, rows);
    }
  });
  return copied;
}

/** Columns of a table that reference the same table. */
async function selfReferences(db: Kysely<DB>, table: string): Promise<string[]> {
  const { rows } = await sql<{ column: string }>`
    select a.attname as column
      from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
     where c.contype = 'f' and c.conrelid = c.confrelid and c.conrelid = ${table}::regclass`.execute(db);
  return rows.map((r) => r.column);
}

/** Serial columns continue after the ids that were copied in. */
async function advanceSequences(trx: Transaction<DB>, table: string): Promise<void> {
  const { rows } = await sql<{ column: string; sequence: string }>`
    select a.attname as column, pg_get_serial_sequence(${table}, a.attname) as sequence
      from pg_attribute a
     where a.attrelid = ${table}::regclass and a.attnum > 0 and not a.attisdropped
       and pg_get_serial_sequence(${table}, a.attname) is not null`.execute(trx);
  for (const { column, sequence } of rows) {
    await sql`select setval(${sequence}::regclass, coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(
      trx,
    );
  }
}
