import { z } from 'zod';
import { toValidationIssues } from '@memex/domain';
import { candidateItemSchema, type CandidateItem } from '../candidate';

const outputSchema = z.object({ items: z.array(candidateItemSchema) });

export type ParsedOutput = { ok: true; items: CandidateItem[] } | { ok: false; problem: string };

/** Models often fence JSON in markdown; the object itself is what counts. */
function jsonText(content: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  return (fenced?.[1] ?? content).trim();
}

export function parseModelOutput(content: string): ParsedOutput {
  let value: unknown;
  try {
    value = JSON.parse(jsonText(content));
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${(error as Error).message})` };
  }
  const result = outputSchema.safeParse(value);
  if (!result.success) {
    const issues = toValidationIssues(result.error).slice(0, 5);
    return {
      ok: false,
      problem: `it does not match the schema: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    };
  }
  // Code-map nodes come from scanning code, never from a conversation.
  return { ok: true, items: result.data.items.filter((i) => i.type !== 'CodeMapNode') };
}
