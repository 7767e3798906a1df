import { EDIT_TOOLS } from '@memex/entities';
import type { EngineEvent } from '../candidate';
import { checkOf } from './check-commands';

const LOCKFILES =
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Gemfile\.lock|go\.sum)$/;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function meta(event: EngineEvent, key: string): unknown {
  return event.metadata?.[key];
}

/** A field of the input a tool call was given (`file_path`, `command`). */
export function inputField(event: EngineEvent, key: string): unknown {
  const input = meta(event, 'input');
  return input && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
}

/**
 * A test file: a failing test written first reproduces the bug, and its run failing is the
 * symptom, as a failure met before any edit is.
 */
export const TEST_FILE =
  /(?:^|\/)(?:tests?|__tests__|spec)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.(?:go|py|rb)$|(?:^|\/)test_[^/]+\.py$/;

/** The files a turn's events changed, each once, in the order first changed. */
export function editedFiles(events: readonly EngineEvent[]): string[] {
  return [...new Set(events.map(editedFile).filter((f): f is string => f !== undefined))];
}

/** Prose about the project, not its code: docs and changelogs are not where a fix is (lockfiles are no edit at all). */
const NOT_CODE = /\.(?:md|mdx|txt|rst)$|(?:^|\/)(?:CHANGELOG|CHANGES|LICENSE|COPYING)$/;
/** More files than this changed is a broad change: which of them holds the fix is not told. */
const MAX_FIX_FILES = 4;

/** Where a fix went, from the files its turn changed: the code among them, when they are few. */
export function filesOfAFix(edits: readonly string[]): string[] {
  const code = edits.filter((f) => !NOT_CODE.test(f));
  return code.length <= MAX_FIX_FILES ? code : [];
}

/** The file an event edited, if it is an edit worth remembering (not a lockfile, not a one-line touch). */
export function editedFile(event: EngineEvent): string | undefined {
  const tool = str(meta(event, 'tool'));
  const isEdit =
    event.type === 'file_edit' || (event.type === 'tool_call' && tool !== undefined && EDIT_TOOLS.has(tool));
  if (!isEdit) return undefined;
  const path =
    str(meta(event, 'path')) ??
    str(meta(event, 'file_path')) ??
    str(inputField(event, 'file_path')) ??
    str(inputField(event, 'path')) ??
    /(?:^|\s)((?:[\w.@-]+\/)*[\w.@-]+\.[A-Za-z0-9]{1,8})\b/.exec(event.content)?.[1];
  if (!path || LOCKFILES.test(path)) return undefined;
  const added = num(meta(event, 'linesAdded'));
  const removed = num(meta(event, 'linesRemoved'));
  if (added !== undefined && removed !== undefined && added + removed <= 1) return undefined;
  return path;
}

/** Most telling first: an exception message beats a failed-test marker beats a FAIL banner. */
const ERROR_LINES = [
  /^.*\b\w*(?:Error|Exception)\b:.*$/m,
  /^[ \t]*[✕×✗][ \t]+.*$/m,
  /^(?:npm ERR!|error(?:\[[\w-]+\])?:).*$/m,
  /^Traceback \(most recent call last\):$/m,
  /^FAIL\b.*$/m,
  /^.*\bfailed\b.*$/m,
];
const ANY_ERROR = new RegExp(ERROR_LINES.map((r) => r.source).join('|'), 'm');
/** The lines that report a failure whatever the exit code: not the loose "… failed" ("0 failed"). */
const FAILURE_REPORTED = new RegExp(
  ERROR_LINES.slice(0, -1)
    .map((r) => r.source)
    .join('|'),
  'm',
);

/** Whether text (output, or output a person pasted) has a line as tools print a failure. */
export function printsFailure(text: string): boolean {
  return FAILURE_REPORTED.test(text);
}

/** Tools that run commands: only their failures are failures of the project. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(['Bash', 'bash', 'BashOutput', 'shell', 'run_terminal_cmd']);

/** The command an event ran (a call's input, or the call a result answers), if any. */
export function commandOf(event: EngineEvent): string | undefined {
  return str(meta(event, 'command')) ?? str(inputField(event, 'command'));
}

/**
 * What a workspace runner puts before each line of a package's output (`@chkit/core test: `
 * from `bun run --filter`, `web:build: ` from turbo), which hides the line's own start. It is
 * a runner's only when it starts most lines: "Build failed: 3 errors" or "error TS2307: …"
 * alone is the error itself.
 */
const RUNNER_PREFIX = /^@?[\w.-]+(?:\/[\w.-]+)?(?::[\w-]+| [\w-]+): /;

function withoutRunnerPrefix(lines: string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const prefix = RUNNER_PREFIX.exec(line)?.[0];
    if (prefix) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  const filled = lines.filter((l) => l.trim()).length;
  const [runner] = [...counts].find(([, n]) => n >= 2 && n * 2 >= filled) ?? [];
  return runner ? lines.map((l) => (l.startsWith(runner) ? l.slice(runner.length) : l)) : lines;
}

/**
 * What `errorLine` found for each event read: the rules of a window ask it of the same event many
 * times (the fix's symptom, each retry and prerequisite looking back over a dozen events), and
 * output can be 100 KiB.
 */
const errorLines = new WeakMap<EngineEvent, string | null>();

/** The line saying what went wrong, when the event reports a failure. */
export function errorLine(event: EngineEvent): string | undefined {
  let line = errorLines.get(event);
  if (line === undefined) {
    line = readErrorLine(event) ?? null;
    errorLines.set(event, line);
  }
  return line ?? undefined;
}

function readErrorLine(event: EngineEvent): string | undefined {
  const exitCode = num(meta(event, 'exitCode'));
  const flagged = meta(event, 'isError') === true || (exitCode !== undefined && exitCode !== 0);
  const kind = event.type;
  // The assistant misusing a tool is not a bug in the project.
  if (event.content.trimStart().startsWith('<tool_use_error>')) return undefined;
  if (kind !== 'error' && !flagged && kind !== 'tool_result' && kind !== 'command') return undefined;
  if (kind !== 'error' && !flagged && exitCode === 0) return undefined;
  // A file that was read may well contain "Error:"; only command output reports failures.
  const tool = str(meta(event, 'tool'));
  if (kind === 'tool_result' && !flagged && tool !== undefined && !COMMAND_TOOLS.has(tool)) return undefined;
  // Source listings quoted in tool output ("427 | except PermissionError:") are code, not errors.
  const text = withoutRunnerPrefix(event.content.split('\n'))
    .filter((l) => !/^\s*\d+\s*(?:\||→)/.test(l))
    .join('\n');
  // Unflagged output that merely mentions a failure ("… succeeded or failed") reported none.
  for (const pattern of flagged || kind === 'error' ? ERROR_LINES : ERROR_LINES.slice(0, -1)) {
    const line = pattern.exec(text)?.[0]?.trim();
    if (line) return line.slice(0, 300);
  }
  if (kind === 'error' || flagged) {
    // A line that says something, not a bare path or number.
    return text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length >= 12 && /\s/.test(l) && !/^[\w./-]+$/.test(l) && !/^warn(?:ing)?\b/i.test(l))
      ?.slice(0, 300);
  }
  return undefined;
}

/** A check that passed, as a note names it: a test or build that passes after a fix confirms it. */
export function passingRun(event: EngineEvent): string | undefined {
  if (event.type !== 'command' && event.type !== 'tool_result') return undefined;
  const exitCode = num(meta(event, 'exitCode'));
  if (meta(event, 'isError') === true || (exitCode !== undefined && exitCode !== 0)) return undefined;
  if (exitCode === undefined && ANY_ERROR.test(event.content)) return undefined;
  // What ran must be a check by its command: output saying "success" or a path holding "test"
  // (`git add index.test.ts`) confirms nothing.
  const command = commandOf(event);
  // A run sent to the background has not finished, let alone passed.
  if (command === undefined || /^Command running in background/i.test(event.content)) return undefined;
  return checkOf(command);
}

export interface CommitInfo {
  message: string;
  sha?: string;
  branch?: string;
  files: string[];
}

/** A commit, from a commit event or a `git commit -m "…"` run. */
export function commitOf(event: EngineEvent): CommitInfo | undefined {
  if (event.type === 'commit') {
    const message = event.content.replace(/^commit [0-9a-f]{7,40}\s*/i, '').trim();
    const files = meta(event, 'files');
    return {
      message,
      sha: str(meta(event, 'sha')),
      files: Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [],
    };
  }
  if (event.type === 'command') {
    // What git printed: `[main (root-commit) e2aec0d] Initial commit: …`.
    const printed = /^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.{12,})$/m.exec(event.content);
    if (printed) return { message: printed[3]!.trim(), sha: printed[2], branch: printed[1], files: [] };
  }
  if (event.type === 'command' || event.type === 'tool_call') {
    const command = commandOf(event) ?? event.content;
    // Claude Code writes messages as a heredoc: -m "$(cat <<'EOF'\n…\nEOF\n)".
    const heredoc = /git commit\b[^\n]*?-m\s+"\$\(cat <<-?\s*'?(\w+)'?\n([\s\S]*?)\n\s*\1\b/.exec(command);
    if (heredoc) {
      const subject = heredoc[2]!
        .split('\n')
        .find((l) => l.trim())
        ?.trim();
      if (subject && subject.length >= 12) return { message: subject, files: [] };
    }
    const m = /git commit\b[^\n]*?-m\s+(?:"([^"$]{12,})"|'([^']{12,})')/.exec(command);
    // The subject line names the commit, as git prints it.
    const subject = (m?.[1] ?? m?.[2])?.split('\n')[0]!.trim();
    if (subject && subject.length >= 12) return { message: subject, files: [] };
  }
  return undefined;
}
