import type { z } from 'zod';
import { hasUnstorableChars } from './text-guards';

export const UNSTORABLE_MESSAGE = 'must not contain NUL (U+0000) or unpaired surrogate characters';

/** A string schema that also refuses text PostgreSQL cannot store (see hasUnstorableChars). */
export function storable<S extends z.ZodString>(schema: S) {
  return schema.refine((s) => !hasUnstorableChars(s), UNSTORABLE_MESSAGE);
}
