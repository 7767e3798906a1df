import type { EngineEvent } from '../candidate';
import { isJunkTitle } from '../junk-title';
import { truncateWords } from '../text';
import { commandOf, editedFile, errorLine } from './event-signals';
import { propose, type Proposal } from './proposal';

/** How far after a failure its working retry may come. */
const LOOKAHEAD = 12;

function firstLine(event: EngineEvent): string | undefined {
  return commandOf(event)?.trim().split('\n')[0]!.slice(0, 200) || undefined;
}

/** The program and its subcommand: `git add`, `npm run`, `uv run`. */
function verb(command: string): string {
  return command
    .replace(/^(?:cd \S+ && |sudo |env \S+=\S+ )+/, '')
    .split(/\s+/)
    .slice(0, 2)
    .join(' ');
}

/** The words of a command, as a set. */
function wordsOf(command: string): Set<string> {
  return new Set(command.split(/\s+/).filter(Boolean));
}

/** How much of the failed command a retry must keep to be the same command changed. */
const KEPT_SHARE = 2 / 3;

/**
 * Whether `retry` is `failed` changed, not another command: it keeps most of its words and
 * adds one of its own (`git add -f x` after `git add x`). A retry that only drops parts
 * (`ls` alone after `ls; sysctl …`, `mise run lint` after `mise run fmt && mise run lint`)
 * narrowed down what to run, and one sharing only the program (`bun run typecheck` after
 * `bun run test`) ran something else: neither is a fix of the failing command.
 */
function changes(failed: string, retry: string): boolean {
  const before = wordsOf(failed);
  const after = wordsOf(retry);
  const kept = [...before].filter((w) => after.has(w)).length;
  const added = [...after].some((w) => !before.has(w));
  return added && kept >= KEPT_SHARE * before.size;
}

/**
 * A command that failed, then the same command changed until it worked (`git add` refused an
 * ignored file, `git add -f` took it): a gotcha of the project the next session would hit
 * again.
 */
export function workarounds(events: readonly EngineEvent[]): Proposal[] {
  return events.flatMap((failed, i) => {
    const command = firstLine(failed);
    const error = errorLine(failed);
    if (!command || !error || isJunkTitle(error)) return [];
    const retry = events.slice(i + 1, i + 1 + LOOKAHEAD).find((e) => {
      const c = e.type === 'command' ? firstLine(e) : undefined;
      return (
        c !== undefined &&
        c !== command &&
        verb(c) === verb(command) &&
        changes(command, c) &&
        errorLine(e) === undefined
      );
    });
    if (!retry) return [];
    const fixed = firstLine(retry)!;
    return [
      propose(4, 'BugFix', {
        title: `${verb(command)} fails with "${truncateWords(error, 90)}"; \`${truncateWords(fixed, 80)}\` works`,
        facts: `Failed: \`${command}\`: ${error}\nWorked: \`${fixed}\``,
        about: `${verb(command)} ${error}`,
        confidence: 0.7,
        resolved: true,
        evidence: [{ eventId: failed.eventId, quote: error }],
      }),
    ];
  });
}

/** A command as a note shows it: without the redirection that only gathers its output. */
const shown = (command: string) => command.replace(/\s+2>&1\s*$/, '');

/**
 * Commands that set something up for the ones after them: installing, building, generating,
 * migrating, starting services, signing in. Anything else run between a failure and a pass
 * (a lint, a narrowed rerun, an edit made with `sed -i`) is no prerequisite.
 */
const SETS_UP =
  /^(?:cd \S+ && )?\S+(?: \S+)? (?:install|i|ci|add|build|generate|codegen|migrate|setup|init|bootstrap|sync|restore|login|up)\b|^(?:cd \S+ && )?(?:make|cmake|\S*prisma generate)\b/;

/**
 * A command that failed, another that set something up, then the first again, unchanged, working
 * (`bun test` could not find `fast-glob` until `bun install` ran): what the next session must run
 * first. A file edited in between fixed the code instead, which is no prerequisite.
 */
export function prerequisites(events: readonly EngineEvent[]): Proposal[] {
  return events.flatMap((failed, i) => {
    const command = firstLine(failed);
    const error = errorLine(failed);
    if (!command || !error || isJunkTitle(error)) return [];
    const setup: string[] = [];
    for (const e of events.slice(i + 1, i + 1 + LOOKAHEAD)) {
      if (editedFile(e)) return [];
      // A run's outcome: its output, or its failure.
      const c = e.type === 'command' || e.type === 'error' ? firstLine(e) : undefined;
      if (c === undefined) continue;
      if (c === command) {
        const ran = setup.at(-1);
        if (errorLine(e) !== undefined || !ran) return [];
        const [what, first] = [shown(command), shown(ran)];
        return [
          propose(4, 'BugFix', {
            // The error is the fact's; a title that carried it would be cut before saying what to run.
            title: `\`${truncateWords(what, 60)}\` fails until \`${truncateWords(first, 60)}\` runs`,
            facts: `Failed: \`${what}\`: ${error}\nRan first: \`${first}\`, then \`${what}\` worked.`,
            about: `${verb(command)} ${error}`,
            confidence: 0.7,
            resolved: true,
            evidence: [{ eventId: failed.eventId, quote: error }],
          }),
        ];
      }
      if (errorLine(e) === undefined && SETS_UP.test(c)) setup.push(c);
    }
    return [];
  });
}
