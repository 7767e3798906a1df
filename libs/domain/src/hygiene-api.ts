import { z } from 'zod';
import { ulidSchema } from './ids';
import { itemEditSchema } from './item-api';
import { queryInteger } from './query-params';

export const HYGIENE_MODES = ['dry-run', 'apply'] as const;
export type HygieneMode = (typeof HYGIENE_MODES)[number];

export const startHygieneRunBodySchema = z.strictObject({
  mode: z.enum(HYGIENE_MODES),
  /** Required with the admin token; with a project key, its own project (the default). */
  projectId: ulidSchema.optional(),
});
export type StartHygieneRunBody = z.infer<typeof startHygieneRunBodySchema>;

export const hygieneIdParamsSchema = z.strictObject({ id: ulidSchema });

export const hygieneRunQuerySchema = z.strictObject({
  /** Changes and proposals listed per page; counts always cover the whole run. */
  limit: queryInteger(1, 1000).default(200),
  changesAfter: ulidSchema.optional(),
  proposalsAfter: ulidSchema.optional(),
});
export type HygieneRunQuery = z.infer<typeof hygieneRunQuerySchema>;

export const listHygieneRunsQuerySchema = z.strictObject({
  projectId: ulidSchema.optional(),
  limit: queryInteger(1, 100).default(20),
});
export type ListHygieneRunsQuery = z.infer<typeof listHygieneRunsQuerySchema>;

const reasonSchema = z.string().min(1).max(1000).optional();

export const applyProposalBodySchema = z
  .strictObject({
    /** A merge: the item to keep, if not the one proposed (it must be in the group). */
    keepId: ulidSchema.optional(),
    /** An edit: fields the operator writes, over the automatic fix (a Decision's rationale, say). */
    patch: itemEditSchema.pick({ title: true, facts: true, rationale: true, impact: true, tags: true }).optional(),
    reason: reasonSchema,
  })
  .optional()
  .default({});
export type ApplyProposalBody = z.infer<typeof applyProposalBodySchema>;

export const decisionBodySchema = z.strictObject({ reason: reasonSchema }).optional().default({});
export type DecisionBody = z.infer<typeof decisionBodySchema>;

export const PROPOSAL_STATUSES = ['pending', 'applied', 'rejected', 'expired'] as const;

/** Proposals across runs, newest first: what waits for a decision (pending, the default), or what was decided. */
export const listProposalsQuerySchema = z.strictObject({
  projectId: ulidSchema.optional(),
  status: z.enum(PROPOSAL_STATUSES).default('pending'),
  cursor: ulidSchema.optional(),
  limit: queryInteger(1, 100).default(50),
});
export type ListProposalsQuery = z.infer<typeof listProposalsQuerySchema>;

/** Changes made to items (by passes and by operators' decisions), newest first. */
export const listChangesQuerySchema = z.strictObject({
  projectId: ulidSchema.optional(),
  cursor: ulidSchema.optional(),
  limit: queryInteger(1, 200).default(50),
});
export type ListChangesQuery = z.infer<typeof listChangesQuerySchema>;
