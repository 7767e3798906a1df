import type { EngineEvent } from '../candidate';
import { inCode } from '../text';
import { commandOf } from './event-signals';
import { propose, type Proposal } from './proposal';

/** A line of `git log --oneline` (graph marks and decorations allowed): the hash, then the subject. */
const LOG_LINE = /^[*|\\/ ]*([0-9a-f]{7,40}) (?:\([^)]*\) )?(\S.*)$/;
/** Merges are written by the host, not by the team. */
const MERGE = /^Merge (?:pull request|branch|remote-tracking branch)\b/;
/** `feat: …`, `fix(gateway): …`, `chore(deps)!: …`: the types Conventional Commits names. */
const CONVENTIONAL = /^(feat|fix|chore|docs|refactor|test|tests|perf|build|ci|style|revert)(\([^)\s]+\))?!?: \S/;
/** `✨ Feat: …`, `🐛 Fix …`. */
const EMOJI_TYPE = /^(\p{Extended_Pictographic}\uFE0F?)\s*([A-Z][a-z]+)\b/u;

/** A habit needs this many subjects, most of the latest ones of one shape. */
const MIN_SUBJECTS = 3;
const MIN_SHARE = 2 / 3;
/** How far back the habit is read: a team that changed its style is read as it writes now. */
const LATEST = 8;

interface Subject {
  line: string;
  subject: string;
  event: EngineEvent;
}

/** The latest commits first: the last `git log` run's lines, then those of runs before it. */
function loggedSubjects(events: readonly EngineEvent[]): Subject[] {
  const seen = new Map<string, Subject>();
  for (const event of [...events].reverse()) {
    if (event.type !== 'command' || !/\bgit\s+log\b/.test(commandOf(event) ?? '')) continue;
    for (const raw of event.content.split('\n')) {
      const line = raw.trimEnd();
      const m = LOG_LINE.exec(line);
      if (!m || MERGE.test(m[2]!)) continue;
      const hash = m[1]!.slice(0, 7);
      if (!seen.has(hash)) seen.set(hash, { line: line.replace(/^[*|\\/ ]*/, ''), subject: m[2]!, event });
    }
  }
  return [...seen.values()].slice(0, LATEST);
}

/**
 * How the team writes commit subjects, read from the `git log` the session ran: Conventional
 * Commits (`fix(gateway): …`) or an emoji and a type (`✨ Feat: …`). The next session writes
 * commits too, and a subject in another style is the first thing a reviewer corrects.
 */
export function commitStyle(events: readonly EngineEvent[]): Proposal[] {
  const subjects = loggedSubjects(events);
  if (subjects.length < MIN_SUBJECTS) return [];
  const conventional = subjects.filter((s) => CONVENTIONAL.test(s.subject));
  const emoji = subjects.filter((s) => EMOJI_TYPE.test(s.subject));
  const [shape, matching] =
    conventional.length >= emoji.length ? (['conventional', conventional] as const) : (['emoji', emoji] as const);
  if (matching.length < MIN_SUBJECTS || matching.length < MIN_SHARE * subjects.length) return [];

  const examples = matching.slice(0, 3);
  let title: string;
  let kinds: string[];
  if (shape === 'conventional') {
    kinds = [...new Set(matching.map((s) => CONVENTIONAL.exec(s.subject)![1]!))];
    const scoped = matching.some((s) => CONVENTIONAL.exec(s.subject)![2]);
    title = `Commit subjects follow Conventional Commits: \`type${scoped ? '(scope)' : ''}: summary\``;
  } else {
    // "🔧 Switch from …" has a verb where "✨ Feat: …" has a type: the pattern shows a typed one.
    const typed = matching.filter((s) => /^\S+\s*[A-Z][a-z]+:/u.test(s.subject));
    kinds = [
      ...new Set((typed.length > 0 ? typed : matching).map((s) => EMOJI_TYPE.exec(s.subject)!.slice(1, 3).join(' '))),
    ];
    const [, mark, kind] = EMOJI_TYPE.exec((typed[0] ?? examples[0]!).subject)!;
    title = `Commit subjects start with an emoji and a type: \`${mark} ${kind}: summary\``;
  }
  const facts =
    `Types in use: ${kinds.slice(0, 8).join(', ')} (${matching.length} of the last ${subjects.length} ` +
    `commits in \`git log\`). For example: ${examples.map((s) => inCode(s.subject)).join('; ')}.`;
  return [
    // A team's standing habit outranks most of what one session concluded.
    propose(7, 'Convention', {
      title,
      facts,
      about: 'commit message style',
      confidence: 0.7,
      evidence: examples.slice(0, 2).map((s) => ({ eventId: s.event.eventId, quote: s.line })),
    }),
  ];
}
