import { z } from 'zod';
import { hasUnstorableChars } from './text-guards';

export const createProjectBodySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((n) => !hasUnstorableChars(n), 'must not contain NUL (U+0000) or unpaired surrogate characters'),
});
export type CreateProjectBody = z.infer<typeof createProjectBodySchema>;

export interface CreatedProject {
  projectId: string;
  apiKey: string;
}
