import { Api } from '../api';
import { intFlag, parseFlags } from '../args';
import { usageError } from '../cli-error';
import { emit, type CommandContext } from '../command';
import type { ItemView } from '@memex/domain';

export const REMEMBER_USAGE =
  'memex remember --type <type> --title <text> --facts <text> [--rationale <text>] [--impact <text>] [--file <path>]… [--tag <tag>]… [--importance 1-5] [--project <id>] [--json]';

/**
 * `memex remember`: an item a person writes (POST /api/v2/memory-items): their word, so it is
 * active at once with confidence 1, and needs no quote from a session.
 */
export async function runRemember(args: string[], context: CommandContext): Promise<number> {
  const values = parseFlags(
    args,
    { values: ['type', 'title', 'facts', 'rationale', 'impact', 'importance', 'project'], lists: ['file', 'tag'] },
    REMEMBER_USAGE,
  );
  const missing = (['type', 'title', 'facts'] as const).filter((name) => !values[name]);
  if (missing.length)
    throw usageError(`memex remember needs ${missing.map((m) => `--${m}`).join(', ')}`, REMEMBER_USAGE);
  const importance = intFlag(values.importance, 'importance', REMEMBER_USAGE);
  const item = await new Api(context.connection, values.project).post<ItemView>('/api/v2/memory-items', {
    type: values.type,
    title: values.title,
    facts: values.facts,
    ...(values.rationale ? { rationale: values.rationale } : {}),
    ...(values.impact ? { impact: values.impact } : {}),
    ...(values.file ? { files: values.file } : {}),
    ...(values.tag ? { tags: values.tag } : {}),
    ...(importance !== undefined ? { importance } : {}),
  });
  emit(context, values.json, item, () => `Remembered ${item.type} ${item.itemId} (${item.status}): ${item.title}`);
  return 0;
}
