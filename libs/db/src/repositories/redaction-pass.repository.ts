import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { RedactionPassTable } from '@memex/domain';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';
import { ItemChanges } from './item-changes';
import { ItemWriter, itemTransaction } from './item-writer';

/** How a column holds text: plain, a text array, or JSON whose strings are text. */
type ColumnKind = 'text' | 'text[]' | 'json';

interface TableSpec {
  table: string;
  /** The column rows are paged by, in order. */
  key: string;
  /** The column naming the row's project. */
  project: string;
  columns: Record<string, ColumnKind>;
  /**
   * Derived rows named by their text (an entity is unique by its name): one holding a secret
   * is deleted, not renamed, since its redacted name could be another entity's. What it was
   * derived from is redacted too, so nothing recreates it.
   */
  deleteRedacted?: true;
}

/**
 * Every stored text a client's words can reach, table by table (REDACTION_PASS_TABLES says
 * the order: items before their history, so the entry a redacted item gets is itself read
 * by the pass). Ids, hashes, vectors and operators' job reports hold no text of
 * a client's.
 */
export const REDACTION_TABLES = {
  projects: { table: 'projects', key: 'id', project: 'id', columns: { name: 'text' } },
  sessions: { table: 'sessions', key: 'id', project: 'project_id', columns: { branch: 'text' } },
  events: { table: 'raw_events', key: 'seq', project: 'project_id', columns: { content: 'text', metadata: 'json' } },
  items: {
    table: 'memory_items',
    key: 'id',
    project: 'project_id',
    columns: {
      title: 'text',
      facts: 'text',
      rationale: 'text',
      impact: 'text',
      files: 'text[]',
      tags: 'text[]',
      evidence_spans: 'json',
      dedup_hint: 'text',
    },
  },
  history: {
    table: 'item_history',
    key: 'id',
    project: 'project_id',
    columns: { before: 'json', after: 'json', reason: 'text' },
  },
  'hygiene-changes': {
    table: 'hygiene_changes',
    key: 'id',
    project: 'project_id',
    columns: { before: 'json', after: 'json', reason: 'text' },
  },
  'hygiene-proposals': {
    table: 'hygiene_proposals',
    key: 'id',
    project: 'project_id',
    columns: { detail: 'json', reason: 'text' },
  },
  entities: {
    table: 'entities',
    key: 'id',
    project: 'project_id',
    columns: { name: 'text', base: 'text' },
    deleteRedacted: true,
  },
  'error-occurrences': {
    table: 'error_occurrences',
    key: 'id',
    project: 'project_id',
    columns: { signature: 'text', command: 'text', fix: 'text' },
  },
} as const satisfies Record<RedactionPassTable, TableSpec>;

/** A row as the pass reads it: its key, its project, its text columns (and an item's version). */
export interface RedactionRow {
  key: string | number;
  projectId: string;
  values: Record<string, unknown>;
  /** Items only: the row version read (xmin); the row is rewritten only if no one changed it since. */
  version?: string;
}

export interface RedactedRow {
  row: RedactionRow;
  /** The columns that changed, with their redacted values. */
  set: Record<string, unknown>;
  /** Items only: what history says was done (the rules, never the secrets). */
  reason: string;
}

/** Reads and rewrites stored text for `memex redact`. */
@Injectable()
export class RedactionPassRepository {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    private readonly itemChanges: ItemChanges,
  ) {}

  /** The next `limit` rows of a table after `after`, of one project or all. */
  async page(
    name: RedactionPassTable,
    projectId: string | undefined,
    after: string | undefined,
    limit: number,
  ): Promise<RedactionRow[]> {
    const spec: TableSpec = REDACTION_TABLES[name];
    const columns = Object.keys(spec.columns).map((c) => sql.ref(c));
    const version = name === 'items' ? sql`, xmin::text as pass_version` : sql``;
    const afterKey =
      after === undefined ? sql`true` : sql`${sql.ref(spec.key)} > ${spec.key === 'seq' ? Number(after) : after}`;
    const ofProject = projectId === undefined ? sql`true` : sql`${sql.ref(spec.project)} = ${projectId}`;
    const { rows } = await sql<Record<string, unknown>>`
      select ${sql.ref(spec.key)} as pass_key, ${sql.ref(spec.project)} as pass_project, ${sql.join(columns)}${version}
        from ${sql.table(spec.table)}
       where ${afterKey} and ${ofProject}
       order by ${sql.ref(spec.key)}
       limit ${limit}`.execute(this.db);
    return rows.map(({ pass_key, pass_project, pass_version, ...values }) => ({
      key: pass_key as string | number,
      projectId: pass_project as string,
      values,
      ...(typeof pass_version === 'string' ? { version: pass_version } : {}),
    }));
  }

  /**
   * Writes redacted rows in one transaction. An item changed since it was read is left for
   * the next pass (counted as skipped); a rewritten item gets a history entry and its
   * project's memory revision is bumped, so cached brains are dropped. Returns the rows
   * written.
   */
  async write<R extends RedactedRow>(name: RedactionPassTable, rows: readonly R[], actor: string): Promise<R[]> {
    if (rows.length === 0) return [];
    const spec: TableSpec = REDACTION_TABLES[name];
    return itemTransaction(this.db, this.itemChanges, async (open, trx) => {
      const written: R[] = [];
      const writers = new Map<string, ItemWriter>();
      const writerOf = async (projectId: string) => {
        const writer = writers.get(projectId) ?? (await open(projectId, { actorType: 'operator', actor }));
        writers.set(projectId, writer);
        return writer;
      };
      // Writers take their projects' locks in one order, whatever the page's order, so two
      // passes over the same projects never wait on each other in a circle.
      if (name === 'items' || name === 'history') {
        for (const projectId of [...new Set(rows.map((r) => r.row.projectId))].sort()) await writerOf(projectId);
      }
      for (const redacted of rows) {
        if (name === 'items') {
          if (await this.writeItem(await writerOf(redacted.row.projectId), redacted, spec)) written.push(redacted);
          continue;
        }
        // Items and their history change only through the item writer.
        if (name === 'history') {
          const writer = await writerOf(redacted.row.projectId);
          if (await writer.rewriteHistory(String(redacted.row.key), redacted.set)) written.push(redacted);
          continue;
        }
        if (spec.deleteRedacted) {
          const { rows: deleted } = await sql`
            delete from ${sql.table(spec.table)} where ${sql.ref(spec.key)} = ${redacted.row.key} returning 1`.execute(
            trx,
          );
          if (deleted.length > 0) written.push(redacted);
          continue;
        }
        const assignments = Object.entries(redacted.set).map(([column, value]) => {
          const kind = columnKind(spec, column);
          const bound = kind === 'json' && value !== null ? sql`${JSON.stringify(value)}::jsonb` : sql`${value}`;
          return sql`${sql.ref(column)} = ${bound}`;
        });
        const { rows: updated } = await sql`
          update ${sql.table(spec.table)} set ${sql.join(assignments)}
           where ${sql.ref(spec.key)} = ${redacted.row.key}
          returning 1`.execute(trx);
        if (updated.length > 0) written.push(redacted);
      }
      return written;
    });
  }

  /** An item rewritten through the item writer, unless someone changed it since it was read. */
  private async writeItem(writer: ItemWriter, redacted: RedactedRow, spec: TableSpec): Promise<boolean> {
    const before = await writer.trx
      .selectFrom('memory_items')
      .selectAll()
      .where('id', '=', String(redacted.row.key))
      .where(sql<boolean>`xmin = ${redacted.row.version ?? '0'}::xid`)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return false;
    const set = Object.fromEntries(
      Object.entries(redacted.set).map(([column, value]) => [
        column,
        columnKind(spec, column) === 'json' && value !== null ? JSON.stringify(value) : value,
      ]),
    );
    // The words change, not what the item says: its age stays what it was.
    await writer.update(before, set, 'redacted', redacted.reason, { edit: false, forgetBefore: true });
    return true;
  }
}

function columnKind(spec: TableSpec, column: string): ColumnKind {
  const kind = spec.columns[column];
  if (!kind) throw new Error(`${column} is not a text column of ${spec.table}`);
  return kind;
}
