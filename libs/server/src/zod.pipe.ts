import type { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { parseOrThrow } from '@memex/domain';

/** Validates a body, query or params object with a domain schema; failures become 400 (or 413 for size limits). */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(
    private readonly schema: S,
    private readonly tooLarge?: (issue: z.core.$ZodIssue) => boolean,
  ) {}

  transform(value: unknown): z.output<S> {
    return parseOrThrow(this.schema, value, this.tooLarge);
  }
}
