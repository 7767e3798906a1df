import { Injectable } from '@nestjs/common';
import { ProjectRepository, RedactionPassRepository, type RedactedRow } from '@memex/db';
import {
  DomainError,
  REDACTION_PASS_TABLES,
  type RedactionPassBody,
  type RedactionPassStep,
  type RedactionPassTable,
} from '@memex/domain';
import { addCounts, type RedactionCounts } from '@memex/redaction';
import { RedactionService, type Principal } from '@memex/server';

function describeCounts(counts: RedactionCounts): string {
  return Object.entries(counts)
    .map(([rule, n]) => `${rule} ×${n}`)
    .join(', ');
}

/**
 * `memex redact`: stored data written before redaction existed (or before a pattern was
 * added) is redacted in place, a page of one table per step, so no request runs long and an
 * interrupted pass is resumed from its cursor. Redacting redacted text changes nothing, so a
 * second pass finds nothing to do.
 */
@Injectable()
export class RedactionPassService {
  constructor(
    private readonly rows: RedactionPassRepository,
    private readonly projects: ProjectRepository,
    private readonly redaction: RedactionService,
  ) {}

  async step(caller: Principal, body: RedactionPassBody): Promise<RedactionPassStep> {
    const projectId = await this.scope(caller, body.projectId);
    const [table, after] = this.position(body.cursor);
    const page = await this.rows.page(table, projectId, after, body.limit);
    const found: Array<RedactedRow & { counts: RedactionCounts }> = [];
    for (const row of page) {
      const set: Record<string, unknown> = {};
      const counts: RedactionCounts = {};
      for (const [column, value] of Object.entries(row.values)) {
        if (value === null || value === undefined) continue;
        const redacted =
          typeof value === 'string'
            ? await this.redaction.redactor.text(value)
            : await this.redaction.redactor.value(value);
        if (redacted.value === value) continue;
        set[column] = redacted.value;
        addCounts(counts, redacted.counts);
      }
      if (Object.keys(set).length > 0) {
        found.push({ row, set, counts, reason: `secrets replaced by memex redact: ${describeCounts(counts)}` });
      }
    }
    const done =
      body.mode === 'apply'
        ? await this.rows.write(table, found, caller.kind === 'project' ? 'project-key' : 'admin-token')
        : found;
    const redactions: RedactionCounts = {};
    for (const { row, counts } of done) {
      addCounts(redactions, counts);
      if (body.mode === 'apply') this.redaction.count(row.projectId, counts);
    }
    const last = page[page.length - 1];
    return {
      mode: body.mode,
      table,
      scanned: page.length,
      changed: done.length,
      skipped: found.length - done.length,
      redactions,
      nextCursor: last && page.length === body.limit ? `${table}:${last.key}` : this.nextTable(table),
    };
  }

  private position(cursor: string | undefined): [RedactionPassTable, string | undefined] {
    if (!cursor) return [REDACTION_PASS_TABLES[0], undefined];
    const at = cursor.indexOf(':');
    return [cursor.slice(0, at) as RedactionPassTable, cursor.slice(at + 1) || undefined];
  }

  private nextTable(table: RedactionPassTable): string | null {
    const next = REDACTION_PASS_TABLES[REDACTION_PASS_TABLES.indexOf(table) + 1];
    return next ? `${next}:` : null;
  }

  /** A project key redacts its own project; the admin token one project, or every project. */
  private async scope(caller: Principal, projectId: string | undefined): Promise<string | undefined> {
    if (caller.kind === 'project') {
      if (projectId && projectId !== caller.projectId) {
        throw new DomainError('FORBIDDEN', 'a project key can redact its own project only; use the admin token', {
          projectId,
        });
      }
      return caller.projectId;
    }
    if (projectId && !(await this.projects.findById(projectId))) {
      throw new DomainError('NOT_FOUND', `no project ${projectId}`, { projectId });
    }
    return projectId;
  }
}
