import type { Finding } from '../finding';
import { GATE } from '../prefilter';
import type { TextRule } from './rule';
import { secretKindOfLastWord } from './secret-names';
import { isInertValue, looksRandom } from './values';

/**
 * One pass over a command line's parts, in order: command separators (a line's end, `;`, `|`,
 * `&`), the commands whose short flags carry a password, and flags. A flag belongs to the
 * last command before it in the same command; `-p` is a password to `mysql` and a port to
 * `docker run`.
 */
const PARTS =
  /([\n;|&])|(?<![\w.-])(mysql(?:dump|admin|import|sh|slap|check|binlog)?|mariadb(?:-dump|-admin|-import)?|sshpass|redis-cli|curl|wget|login)(?![\w.-])|(?<![\w-])(-[A-Za-z]|--[a-z][a-z0-9-]{0,40})/g;

/**
 * Short flags that take a password, by command: whether the value may stand apart (`sshpass
 * -p pw`) or must be attached (`mysql -ppw`; `mysql -p db` asks for the password and names the
 * database).
 */
const SHORT_FLAGS: Record<string, Record<string, 'apart' | 'attached'>> = {
  mysql: { '-p': 'attached' },
  mariadb: { '-p': 'attached' },
  sshpass: { '-p': 'apart' },
  'redis-cli': { '-a': 'apart' },
  login: { '-p': 'apart' },
};
/** curl's and wget's `user:password` flags: the password goes, the user stays. */
const USER_FLAGS = new Set(['-u', '-U', '--user', '--proxy-user']);
const USER_COMMANDS = new Set(['curl', 'wget']);

const BARE = /[^\s"'`;|&()<>]{1,400}/y;

/** The value starting at `at`: quoted (within 400 characters on its line) or bare. */
function valueAt(text: string, at: number): { start: number; value: string } | undefined {
  const quote = text[at];
  if (quote === '"' || quote === "'") {
    const window = text.slice(at + 1, at + 402);
    const close = window.indexOf(quote);
    const newline = window.indexOf('\n');
    if (close < 0 || (newline >= 0 && newline < close)) return undefined;
    return { start: at + 1, value: window.slice(0, close) };
  }
  BARE.lastIndex = at;
  const bare = BARE.exec(text);
  return bare ? { start: at, value: bare[0] } : undefined;
}

/**
 * The flag's value: after `=` (`--password=pw`), attached to a short flag (`-ppw`), or after
 * spaces where the flag takes its value apart (`sshpass -p pw`, `--password pw`).
 */
function flagValue(
  text: string,
  flag: string,
  end: number,
  apart: boolean,
): { start: number; value: string } | undefined {
  const next = text[end];
  if (next === '=') return valueAt(text, end + 1);
  if (next !== ' ' && next !== '\t') return flag.length === 2 ? valueAt(text, end) : undefined;
  if (!apart) return undefined;
  let at = end;
  while ((text[at] === ' ' || text[at] === '\t') && at - end < 4) at++;
  return valueAt(text, at);
}

function commandFamily(command: string): string {
  if (command.startsWith('mysql')) return 'mysql';
  if (command.startsWith('mariadb')) return 'mariadb';
  return command;
}

/**
 * Credentials on command lines: `mysql -u root -ppw`, `sshpass -p pw`, `redis-cli -a pw`,
 * `docker login -u me -p pw`, `curl -u api:key` (the part after the user), and a long flag
 * named for a password (`--password pw`, `--password=pw`, `--db-password 'pw'`): its value,
 * whatever it looks like, unless it is a reference or a placeholder. A long flag named for a
 * token, secret or key (`--token`, `--client-secret`) loses a value that looks generated.
 * `--password-file /run/secrets/db`, `--password-stdin` and `--no-password` name no password.
 */
export const commandLines: TextRule = {
  name: 'command-line',
  gates: GATE.words,
  trigger: /-[pau]|--[a-z]/i,
  find(text) {
    const findings: Finding[] = [];
    let command: string | undefined;
    let valueEnd = 0;
    for (const part of text.matchAll(PARTS)) {
      const [, separator, commandName, flag] = part;
      if (separator) command = undefined;
      else if (commandName) command = commandFamily(commandName);
      if (!flag || part.index < valueEnd) continue;
      const end = part.index + flag.length;
      const finding = flagFinding(text, flag, end, command);
      if (finding) {
        findings.push(finding);
        valueEnd = finding.end;
      }
    }
    return findings;
  },
};

function flagFinding(text: string, flag: string, end: number, command: string | undefined): Finding | undefined {
  if (command && USER_COMMANDS.has(command) && USER_FLAGS.has(flag)) {
    const credential = flagValue(text, flag, end, true);
    const colon = credential?.value.indexOf(':') ?? -1;
    if (!credential || colon <= 0) return undefined;
    const password = credential.value.slice(colon + 1);
    if (isInertValue(password)) return undefined;
    const start = credential.start + colon + 1;
    return { start, end: start + password.length, kind: 'password' };
  }
  const short = command ? SHORT_FLAGS[command]?.[flag] : undefined;
  if (short) {
    const value = flagValue(text, flag, end, short === 'apart');
    if (!value || value.value.startsWith('-') || isInertValue(value.value)) return undefined;
    return { start: value.start, end: value.start + value.value.length, kind: 'password' };
  }
  if (!flag.startsWith('--') || flag.startsWith('--no-')) return undefined;
  const kind = secretKindOfLastWord(flag.slice(2));
  if (!kind) return undefined;
  const value = flagValue(text, flag, end, true);
  if (!value || value.value.startsWith('-') || isInertValue(value.value)) return undefined;
  // A password is one whatever it looks like; anything else named a token or key must look generated.
  if (kind !== 'password' && !looksRandom(value.value)) return undefined;
  return { start: value.start, end: value.start + value.value.length, kind };
}
