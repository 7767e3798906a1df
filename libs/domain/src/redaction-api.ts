import { z } from 'zod';
import { ulidSchema } from './ids';

/** What `memex redact` goes through, in order: every table a client's words can reach. */
export const REDACTION_PASS_TABLES = [
  'projects',
  'sessions',
  'events',
  'items',
  'history',
  'hygiene-changes',
  'hygiene-proposals',
  'entities',
  'error-occurrences',
] as const;
export type RedactionPassTable = (typeof REDACTION_PASS_TABLES)[number];

const CURSOR = new RegExp(`^(?:${REDACTION_PASS_TABLES.join('|')}):[A-Za-z0-9]{0,40}$`);

/**
 * One step of a redaction pass over stored data: the next `limit` rows from `cursor` (the
 * first table's start when absent), looked at (`dry-run`) or rewritten (`apply`).
 */
export const redactionPassBodySchema = z.strictObject({
  mode: z.enum(['dry-run', 'apply']).default('dry-run'),
  /** With the admin token, one project (all by default); with a project key, its own. */
  projectId: ulidSchema.optional(),
  cursor: z
    .string()
    .regex(CURSOR, `must be <table>:<last key>, a table of ${REDACTION_PASS_TABLES.join(', ')}`)
    .optional(),
  limit: z.number().int().min(1).max(2000).default(500),
});
export type RedactionPassBody = z.infer<typeof redactionPassBodySchema>;

export interface RedactionPassStep {
  mode: RedactionPassBody['mode'];
  table: RedactionPassTable;
  scanned: number;
  /** Rows holding secrets: rewritten (apply) or that would be (dry run). */
  changed: number;
  /** Rows another writer changed between read and write: the next pass takes them. */
  skipped: number;
  /** Secrets replaced (or that would be), by rule. */
  redactions: Record<string, number>;
  /** Where the next step starts; null when every table has been read. */
  nextCursor: string | null;
}
