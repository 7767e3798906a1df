import type { BrainView } from '@memex/domain';
import { Api } from '../api';
import { intFlag, parseFlags } from '../args';
import { emit, type CommandContext } from '../command';

export const BRAIN_USAGE = 'memex brain [--tokens <n>] [--project <id>] [--json]';

/** `memex brain`: the project's brain, the markdown an assistant starts a session with. */
export async function runBrain(args: string[], context: CommandContext): Promise<number> {
  const values = parseFlags(args, { values: ['tokens', 'project'] }, BRAIN_USAGE);
  const tokens = intFlag(values.tokens, 'tokens', BRAIN_USAGE);
  const brain = await new Api(context.connection, values.project).get<BrainView>(
    `/api/v2/brain${tokens === undefined ? '' : `?tokenBudget=${tokens}`}`,
  );
  emit(context, values.json, brain, () => brain.document.trimEnd());
  return 0;
}
