import { z } from 'zod';
import { hasNul } from './text-guards';

export const createProjectBodySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((n) => !hasNul(n), 'must not contain NUL (U+0000) characters'),
});
export type CreateProjectBody = z.infer<typeof createProjectBodySchema>;

export interface CreatedProject {
  projectId: string;
  apiKey: string;
}
