import type { EngineEvent } from '../candidate';
import { isJunkTitle } from '../junk-title';
import { dedupHintFor, schemaKeyFor } from '../taxonomy';
import { asTitle, truncateWords } from '../text';
import { errorLine } from './event-signals';
import type { Proposal } from './turn-notes';

/** How far after a failure its working retry may come. */
const LOOKAHEAD = 12;

function commandOf(event: EngineEvent): string | undefined {
  const command = event.metadata?.command;
  return typeof command === 'string' && command.trim() ? command.trim().split('\n')[0]!.slice(0, 200) : undefined;
}

/** The program and its subcommand: `git add`, `npm run`, `uv run`. */
function verb(command: string): string {
  return command
    .replace(/^(?:cd \S+ && |sudo |env \S+=\S+ )+/, '')
    .split(/\s+/)
    .slice(0, 2)
    .join(' ');
}

/**
 * A command that failed, then the same command changed until it worked (`git add` refused an
 * ignored file, `git add -f` took it): a gotcha of the project the next session would hit
 * again.
 */
export function workarounds(events: readonly EngineEvent[]): Proposal[] {
  const out: Proposal[] = [];
  events.forEach((failed, i) => {
    const command = commandOf(failed);
    const error = errorLine(failed);
    if (!command || !error || isJunkTitle(error)) return;
    const retry = events.slice(i + 1, i + 1 + LOOKAHEAD).find((e) => {
      const c = commandOf(e);
      return (
        c !== undefined &&
        c !== command &&
        verb(c) === verb(command) &&
        errorLine(e) === undefined &&
        e.type === 'command'
      );
    });
    if (!retry) return;
    const fixed = commandOf(retry)!;
    const title = `${verb(command)} fails with "${truncateWords(error, 90)}"; \`${truncateWords(fixed, 80)}\` works`;
    out.push({
      salience: 4,
      candidate: {
        type: 'BugFix',
        title: asTitle(title, 200),
        facts: `Failed: \`${command}\`: ${error}\nWorked: \`${fixed}\``,
        files: [],
        schemaKey: schemaKeyFor('BugFix', []),
        dedupHint: dedupHintFor('BugFix', `${verb(command)} ${error}`),
        tags: [],
        importance: 3,
        confidence: 0.7,
        resolved: true,
        evidence: [{ eventId: failed.eventId, quote: error }],
      },
    });
  });
  return out;
}
