import type { z } from 'zod';
import { UNSTORABLE_MESSAGE, hasUnstorableChars } from '@memex/event-rules';

export { UNSTORABLE_MESSAGE } from '@memex/event-rules';

/** A string schema that also refuses text PostgreSQL cannot store (see hasUnstorableChars). */
export function storable<S extends z.ZodString>(schema: S) {
  return schema.refine((s) => !hasUnstorableChars(s), UNSTORABLE_MESSAGE);
}
