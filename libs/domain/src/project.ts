import { z } from 'zod';
import { ulidSchema } from './ids';
import { queryInteger } from './query-params';
import { storable } from './storable';

export const createProjectBodySchema = z.strictObject({
  name: storable(z.string().trim().min(1).max(200)),
});
export type CreateProjectBody = z.infer<typeof createProjectBodySchema>;

export interface CreatedProject {
  projectId: string;
  apiKey: string;
}

/** Operators list projects a page at a time, in id (creation) order. */
export const listProjectsQuerySchema = z.strictObject({
  cursor: ulidSchema.optional(),
  limit: queryInteger(1, 200).default(100),
});
export type ListProjectsQuery = z.infer<typeof listProjectsQuerySchema>;

export interface ProjectSummary {
  projectId: string;
  name: string;
  createdAt: Date;
  items: number;
  sessions: number;
}
