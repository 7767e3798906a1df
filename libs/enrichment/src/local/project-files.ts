import type { EngineEvent } from '../candidate';
import { propose, type Proposal } from './proposal';

/** A file the session read whole or in part, as the Read tool showed it. */
interface ReadFile {
  path: string;
  /** The file's lines, without the line numbers Claude Code puts before them. */
  lines: string[];
  event: EngineEvent;
}

/** Claude Code's Read output: `    12→text`. */
const NUMBERED = /^\s*\d+→/;

/** Where an absolute path's project part begins: its first directory of these. */
const PROJECT_PART = /\/((?:packages|apps|libs|services|crates|cmd|internal|src|\.github)\/.*)$/;

/**
 * The path a Read asked for, within the project. Claude Code's reader makes paths under the
 * session's directory relative; one outside it (the session moved, or read a sibling checkout)
 * stays absolute and is cut to its project part.
 */
function inputPath(event: EngineEvent): string | undefined {
  const input = event.metadata?.input;
  const path = input && typeof input === 'object' ? (input as Record<string, unknown>).file_path : undefined;
  if (typeof path !== 'string') return undefined;
  return path.startsWith('/') ? (PROJECT_PART.exec(path)?.[1] ?? path.split('/').slice(-2).join('/')) : path;
}

/** The files the window's Read calls returned, by the path each call asked for. */
function readFiles(events: readonly EngineEvent[]): ReadFile[] {
  const asked = new Map<string, string>();
  const files: ReadFile[] = [];
  for (const event of events) {
    const id = event.metadata?.toolUseId;
    if (typeof id !== 'string' || event.metadata?.tool !== 'Read') continue;
    if (event.type === 'tool_call') {
      const path = inputPath(event);
      if (path) asked.set(id, path);
    } else if (event.type === 'tool_result' && asked.has(id)) {
      // Only numbered lines are the file's: Claude Code may append a <system-reminder> after them.
      const lines = event.content
        .split('\n')
        .filter((l) => NUMBERED.test(l))
        .map((l) => l.replace(NUMBERED, ''));
      if (lines.length > 0) files.push({ path: asked.get(id)!, lines, event });
    }
  }
  return files;
}

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** A workflow step's command on one line (`run: bun run lint`), or the start of a script (`run: |`). */
const RUN = /^\s*(?:-\s+)?run:\s+(\S(?:.*\S)?)\s*$/;
const STEP_NAME = /^\s*-\s+name:\s+(\S(?:.*\S)?)\s*$/;
const WORKFLOW_NAME = /^name:\s+(\S(?:.*\S)?)\s*$/;
/** A job under `jobs:`, by its two-space indent, and what orders or gates it. */
const JOB = /^ {2}([\w-]+):\s*$/;
const NEEDS = /^ {4}needs:\s+(\S(?:.*\S)?)\s*$/;
const IF = /^ {4}if:\s+(\S(?:.*\S)?)\s*$/;

interface Job {
  name: string;
  gate: string[];
  steps: Array<{ text: string; line: string; command: boolean }>;
}

/** Programs that do what a script step is for: deploy, restart, build, check. */
const ACTION =
  /(?:^|[\s"'(;&|])((?:rsync|scp|systemctl|docker|kubectl|helm|curl|wget|terraform|aws|gcloud|flyctl|npm|npx|bun|yarn|pnpm|go|cargo|make|pytest|uv|git push)\b[^\\]*)/;

/**
 * A command cut from a shell line, without the blanks after it and a quote that closed a string
 * it began outside the cut (`$SSH "… systemctl restart app"`). A loop, not a regex: linear on any line.
 */
function withoutClosingQuotes(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end -= 1;
  const last = text[end - 1];
  if ((last === '"' || last === "'") && text.slice(0, end).split(last).length % 2 === 0) end -= 1;
  return text.slice(0, end).trimEnd();
}

/**
 * What a script step does, by the lines of it that run one of those programs (at most three,
 * each cut at a word): "Deploy to VPS (a script: `rsync -avz …`, `systemctl restart app`)".
 */
function scriptSummary(lines: readonly string[], start: number): string {
  const indent = /^\s*/.exec(lines[start]!)![0].length;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() && /^\s*/.exec(line)![0].length <= indent) break;
    const action = withoutClosingQuotes(ACTION.exec(line.replace(/\s#.*$/, ''))?.[1]);
    if (action && !body.includes(action))
      body.push(action.length > 60 ? `${action.slice(0, action.lastIndexOf(' ', 60))} …` : action);
  }
  return body.length > 0 ? `a script: ${body.slice(0, 3).map(code).join(', ')}` : 'a script';
}

function jobsOf(lines: readonly string[]): Job[] {
  const jobs: Job[] = [];
  let inJobs = false;
  let step: string | undefined;
  for (const [i, line] of lines.entries()) {
    if (/^\S/.test(line)) inJobs = /^jobs:\s*$/.test(line);
    if (!inJobs) continue;
    const job = JOB.exec(line);
    if (job) jobs.push({ name: job[1]!, gate: [], steps: [] });
    const current = jobs.at(-1);
    if (!current) continue;
    const needs = NEEDS.exec(line);
    if (needs) current.gate.push(`after ${code(needs[1]!.replace(/^\[|\]$/g, ''))}`);
    const when = IF.exec(line);
    if (when) current.gate.push(`if ${code(when[1]!)}`);
    // A step's name is its own: a new step (`- uses: …`, `- run: …`) forgets the last one's.
    if (/^\s*-\s/.test(line)) step = STEP_NAME.exec(line)?.[1];
    const run = RUN.exec(line);
    if (!run) continue;
    const script = /^[|>][-+]?$/.test(run[1]!);
    const text = script
      ? step
        ? `${step} (${scriptSummary(lines, i)})`
        : undefined
      : `${step ? `${step} ` : ''}${code(run[1]!)}`;
    if (text) current.steps.push({ text, line: line.trim(), command: !script });
    step = undefined;
  }
  return jobs.filter((j) => j.steps.length > 0);
}

/**
 * What a GitHub Actions workflow the session opened runs: each job's steps in order, with their
 * names (a step that runs a script of several lines, by its name), and what a job waits for or
 * is gated on. A teammate changing the build or the deploy checks against this.
 */
function ciNote(files: readonly ReadFile[]): Proposal[] {
  const workflow = files.find((f) => /(?:^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(f.path));
  if (!workflow) return [];
  const jobs = jobsOf(workflow.lines);
  const commands = jobs.flatMap((j) => j.steps.filter((s) => s.command));
  if (jobs.flatMap((j) => j.steps).length < 2 || commands.length === 0) return [];
  // Evidence needs a dozen characters to be found again: `run: npm ci` alone is too short.
  const quotes = [...commands.map((c) => c.line), ...workflow.lines.map((l) => l.trim())]
    .filter((l) => l.length >= 12)
    .slice(0, 2);
  if (quotes.length === 0) return [];
  const path = workflow.path.slice(workflow.path.indexOf('.github/'));
  const title = workflow.lines.map((l) => WORKFLOW_NAME.exec(l)?.[1]).find(Boolean);
  const described = jobs.slice(0, 3).map((j) => {
    const steps = j.steps.slice(0, 8).map((s) => s.text);
    const more = j.steps.length > 8 ? `; and ${j.steps.length - 8} more` : '';
    const head = jobs.length > 1 ? `Job ${code(j.name)}${j.gate.length ? ` (${j.gate.join(', ')})` : ''}: ` : '';
    return `${head}${steps.join('; ')}${more}.`;
  });
  return [
    propose(6, 'ArchitectureNote', {
      title: `What the ${title ? `${code(title.replace(/^["']|["']$/g, ''))} ` : ''}workflow runs (${code(path)})`,
      facts: `Steps, in order. ${described.join(' ')}`,
      about: `ci workflow steps ${path}`,
      files: [path],
      confidence: 0.7,
      evidence: quotes.map((quote) => ({ eventId: workflow.event.eventId, quote })),
    }),
  ];
}

/** The scripts a teammate runs: build, test, lint, typecheck and the like, not `clean` or `prepare`. */
const CHECK_SCRIPT = /^(?:build|dev|start|test|lint|typecheck|type-check|check|format|e2e|release)(?::[\w-]+)?$/;

function parsed(file: ReadFile): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(file.lines.join('\n'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // a partial read, or not JSON after all
  }
}

function scriptsOf(pkg: Record<string, unknown>): Array<[string, string]> {
  const scripts = pkg.scripts && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : {};
  return Object.entries(scripts).flatMap(([k, v]) => (CHECK_SCRIPT.test(k) && typeof v === 'string' ? [[k, v]] : []));
}

const listed = (scripts: ReadonlyArray<[string, string]>) => scripts.map(([k, v]) => `${k} ${code(v)}`).join(', ');

/** The directory paths share (`packages/`), or none. */
function sharedDir(paths: readonly string[]): string | undefined {
  if (paths.length === 0) return undefined;
  const parts = paths.map((p) => p.split('/').slice(0, -1));
  const shared: string[] = [];
  for (let i = 0; parts.every((p) => p[i] !== undefined && p[i] === parts[0]![i]); i += 1) shared.push(parts[0]![i]!);
  return shared.length > 0 ? `${shared.join('/')}/` : undefined;
}

/**
 * How a JavaScript project builds and checks itself, from the package.json files the session
 * read: the root one's name, description, scripts and workspaces; packages that all share their
 * scripts said once.
 */
function packageNote(files: readonly ReadFile[]): Proposal[] {
  const pkgs = files
    .filter((f) => /(?:^|\/)package\.json$/.test(f.path))
    .flatMap((f) => {
      const pkg = parsed(f);
      return pkg && typeof pkg.name === 'string' ? [{ file: f, pkg, name: pkg.name }] : [];
    })
    .filter((p, i, all) => all.findIndex((q) => q.file.path === p.file.path) === i)
    .sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
  if (pkgs.length === 0) return [];
  const root = pkgs.find((p) => p.file.path === 'package.json' || Array.isArray(p.pkg.workspaces));
  const facts: string[] = [];
  if (root) {
    const scripts = scriptsOf(root.pkg);
    if (scripts.length > 0) facts.push(`Scripts: ${listed(scripts)}.`);
    const workspaces = Array.isArray(root.pkg.workspaces)
      ? root.pkg.workspaces.filter((w): w is string => typeof w === 'string')
      : [];
    if (workspaces.length > 0) facts.push(`Workspaces: ${workspaces.map(code).join(', ')}.`);
    if (typeof root.pkg.packageManager === 'string') facts.push(`Package manager: ${code(root.pkg.packageManager)}.`);
  }
  const others = pkgs.filter((p) => p !== root);
  const shared = others.length > 1 ? listed(scriptsOf(others[0]!.pkg)) : '';
  if (shared && others.every((p) => listed(scriptsOf(p.pkg)) === shared)) {
    facts.push(`${others.length} packages (${others.map((p) => code(p.name)).join(', ')}) each run ${shared}.`);
  } else {
    for (const other of others.slice(0, 3)) {
      const own = scriptsOf(other.pkg);
      if (own.length > 0) facts.push(`${code(other.name)}: ${listed(own)}.`);
    }
  }
  if (facts.length === 0) return [];
  const first = root ?? others[0]!;
  const description = typeof first.pkg.description === 'string' ? `: ${first.pkg.description}` : '';
  const dir = sharedDir(others.map((p) => p.file.path));
  const title = root
    ? `How ${code(root.name)} builds and checks itself${description} (${code('package.json')})`
    : others.length === 1
      ? `Scripts of ${code(first.name)}${description} (${code(first.file.path)})`
      : `Scripts of the packages in ${code(dir ?? '.')}`;
  const quote = first.file.lines.find((l) => l.includes('"name"'))!.trim();
  return [
    propose(6, 'ArchitectureNote', {
      title,
      facts: facts.join(' '),
      about: `package scripts ${first.name}`,
      confidence: 0.7,
      evidence: [{ eventId: first.file.event.eventId, quote }],
    }),
  ];
}

/** A TOML value as written on its line: a quoted string's text, else the value without a comment. */
function tomlText(raw: string): string {
  const quoted = /^(["'])(.*?)\1/.exec(raw);
  return quoted ? quoted[2]! : raw.replace(/\s+#.*$/, '').trim();
}

/** `key = "value"`, `key = value` or `key = [ … ]` (over several lines too) in a TOML section. */
function tomlValue(lines: readonly string[], section: string, key: string): string | undefined {
  let inside = false;
  const assignment = new RegExp(`^\\s*${key.replace(/[.-]/g, '\\$&')}\\s*=\\s*(\\S(?:.*\\S)?)\\s*$`);
  for (const [i, line] of lines.entries()) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) inside = header[1] === section;
    else if (inside) {
      const m = assignment.exec(line);
      if (!m) continue;
      if (!m[1]!.startsWith('[') || m[1]!.includes(']')) return tomlText(m[1]!);
      const end = lines.findIndex((l, j) => j > i && l.includes(']'));
      if (end < 0) return undefined;
      const items = lines.slice(i + 1, end + 1).map((l) => tomlText(l.replace(/[\],]/g, ' ').trim()));
      return `[${items
        .filter(Boolean)
        .map((t) => JSON.stringify(t))
        .join(', ')}]`;
    }
  }
  return undefined;
}

/** A Python project's name, purpose and the tools it configures, from a pyproject.toml it read. */
function pyprojectNote(files: readonly ReadFile[]): Proposal[] {
  const file = files.find((f) => /(?:^|\/)pyproject\.toml$/.test(f.path));
  const name = file && tomlValue(file.lines, 'project', 'name');
  if (!file || !name) return [];
  const description = tomlValue(file.lines, 'project', 'description');
  const facts: string[] = [];
  const python = tomlValue(file.lines, 'project', 'requires-python');
  if (python) facts.push(`Python ${python}.`);
  const tools = [
    ...new Set(file.lines.flatMap((l) => /^\s*\[tool\.([\w-]+)/.exec(l)?.[1] ?? []).filter((t) => t !== 'hatch')),
  ];
  const detail: Record<string, string | undefined> = {
    pyright: tomlValue(file.lines, 'tool.pyright', 'typeCheckingMode'),
    pytest: tomlValue(file.lines, 'tool.pytest.ini_options', 'testpaths'),
  };
  if (tools.length > 0) {
    const named = tools.map((t) => {
      const more =
        t === 'pyright'
          ? detail.pyright && `typeCheckingMode ${detail.pyright}`
          : t === 'pytest'
            ? detail.pytest && `testpaths ${detail.pytest}`
            : undefined;
      return more ? `${t} (${more})` : t;
    });
    facts.push(`Tools configured in pyproject.toml: ${named.join(', ')}.`);
  }
  if (facts.length === 0) return [];
  const quote = file.lines.find((l) => /^\s*name\s*=/.test(l))!.trim();
  return [
    propose(6, 'ArchitectureNote', {
      title: `${code(name)}${description ? `: ${description}` : ''} (${code('pyproject.toml')})`,
      facts: facts.join(' '),
      about: `pyproject tools ${name}`,
      confidence: 0.7,
      evidence: [{ eventId: file.event.eventId, quote }],
    }),
  ];
}

/**
 * What the project files a session opened say about how the project is built and checked:
 * the CI workflow's steps, the package scripts, the Python tools configured. Sessions read them
 * to learn exactly this, and a teammate's next session needs it again.
 */
export function projectFiles(events: readonly EngineEvent[]): Proposal[] {
  const files = readFiles(events);
  if (files.length === 0) return [];
  return [...ciNote(files), ...packageNote(files), ...pyprojectNote(files)];
}
