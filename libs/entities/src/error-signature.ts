/**
 * An error's signature: the line that says what went wrong, with what differs between two
 * occurrences of the same error (paths, line numbers, ids, quoted values) stripped, so the
 * same failure in two sessions has one signature.
 */

const MAX_SIGNATURE = 160;
const ERROR_LINE =
  /\b(?:error|errors|exception|fatal|failed|failure|panic|traceback|cannot|can't|could not|unable to|not found|no such|denied|undefined|refused|timed? ?out|unknown option|parse error|invalid|missing)\b|[a-z](?:Error|Exception)\b|^E\d{3,}/i;
/**
 * Lines that frame the failure without naming it, and lines that are not output about it at
 * all: progress meters (`Rebasing (2/5)`, `Receiving objects: 45%`) and diff lines (`+ throw
 * new Error(…)`, `@@ -1,4 +1,5 @@`), where "error" is code being changed.
 */
const NOISE =
  /^(?:exit code \d+|warn(?:ing)?\b.*pre-release|\s*\|?\s*$|-+$|={3,}|\^+$|[\w -]+\(\d+\/\d+\)\s*$|[\w ]+:\s+\d{1,3}%[\s\d(/),.]*$|[+-]\s|@@ )/i;
// eslint-disable-next-line no-control-regex -- terminal colour codes are control characters
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export function normaliseErrorLine(line: string): string {
  return line
    .replace(ANSI, '')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, '<id>')
    .replace(/\b0x[0-9a-f]+\b/gi, '<id>')
    .replace(/(?:[A-Za-z]:)?(?:~|\.{1,2}|[\w.@+-]+)?(?:\/[\w.@+[\]-]+){2,}\/?/g, '<path>')
    .replace(/\b[\w.-]+\/[\w./-]+\.[A-Za-z]{1,8}\b/g, '<path>')
    .replace(/(<path>)(?::\d+)+/g, '$1')
    .replace(/"[^"\n]{0,200}"|'[^'\n]{0,200}'/g, '"…"')
    .replace(/\b\d+(?:\.\d+)*\b/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_SIGNATURE);
}

/** Where an error is quoted inside prose: `TypeError: …`, `error[code]: …`, `fatal: …`. */
const QUOTED_ERROR = /\b[A-Z]\w*(?:Error|Exception)\b:?|\b(?:error|fatal|panic)(?:\[[\w-]+\])?:/;

/**
 * The signature of an error a question quotes (`why do I get TypeError: x is undefined?`):
 * from the error's name to the end of its sentence, or undefined when it quotes none.
 */
export function quotedErrorSignature(text: string): string | undefined {
  const at = text.search(QUOTED_ERROR);
  if (at < 0) return undefined;
  const line = text
    .slice(at)
    .split('\n')[0]!
    .replace(/[?!]+\s*$/, '')
    .trim();
  const signature = normaliseErrorLine(line);
  return signature.length >= 6 ? signature : undefined;
}

const MAX_LINE = 2000;

/** The signature of an error's text, or undefined when no line reads as an error. */
export function errorSignature(text: string): string | undefined {
  // A carriage return overwrote the line before it on the terminal: each part is a line of its own.
  const lines = text
    .replace(ANSI, '')
    .split(/\r?\n|\r/)
    .slice(0, 80);
  const found = lines.find((l) => !NOISE.test(l.trim()) && ERROR_LINE.test(l));
  if (!found) return undefined;
  // The signature keeps far less than this; a longer line only costs the patterns time.
  const line = found.slice(0, MAX_LINE);
  // A leading location (`src/a.py:12:3 - error: …`) is where, not what.
  const what = normaliseErrorLine(line).replace(/^(?:<path>|<n>)[\s:,-]*(?=\S)/, '');
  return what.length >= 6 ? what : undefined;
}
