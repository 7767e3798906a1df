import type { z } from 'zod';
import { DomainError } from './domain-error';

export interface ValidationIssue {
  path: string;
  code: string;
  message: string;
}

/** `['events', 3, 'content']` → `events[3].content`, the way a client reads its own body. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out || '(body)';
}

export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: formatPath(issue.path),
    code: issue.code,
    message: issue.message,
  }));
}

/**
 * Parses `input` or throws a DomainError naming the first offending field.
 * `tooLarge` decides which issues are size limits (413) rather than schema errors (400).
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  tooLarge: (issue: z.core.$ZodIssue) => boolean = () => false,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : 'invalid body';
  const code = result.error.issues.some(tooLarge) ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED';
  throw new DomainError(code, summary, { issues });
}
