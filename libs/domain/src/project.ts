import { z } from 'zod';
import { storable } from './storable';

export const createProjectBodySchema = z.strictObject({
  name: storable(z.string().trim().min(1).max(200)),
});
export type CreateProjectBody = z.infer<typeof createProjectBodySchema>;

export interface CreatedProject {
  projectId: string;
  apiKey: string;
}
