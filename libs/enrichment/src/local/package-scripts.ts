import { inCode } from '../text';
import { propose, type Proposal } from './proposal';
import type { ReadFile } from './read-files';

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

const listed = (scripts: ReadonlyArray<[string, string]>) => scripts.map(([k, v]) => `${k} ${inCode(v)}`).join(', ');

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
export function packageNote(files: readonly ReadFile[]): Proposal[] {
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
    if (workspaces.length > 0) facts.push(`Workspaces: ${workspaces.map(inCode).join(', ')}.`);
    if (typeof root.pkg.packageManager === 'string') facts.push(`Package manager: ${inCode(root.pkg.packageManager)}.`);
  }
  const others = pkgs.filter((p) => p !== root);
  const shared = others.length > 1 ? listed(scriptsOf(others[0]!.pkg)) : '';
  if (shared && others.every((p) => listed(scriptsOf(p.pkg)) === shared)) {
    facts.push(`${others.length} packages (${others.map((p) => inCode(p.name)).join(', ')}) each run ${shared}.`);
  } else {
    for (const other of others.slice(0, 3)) {
      const own = scriptsOf(other.pkg);
      if (own.length > 0) facts.push(`${inCode(other.name)}: ${listed(own)}.`);
    }
  }
  if (facts.length === 0) return [];
  const first = root ?? others[0]!;
  const description = typeof first.pkg.description === 'string' ? `: ${first.pkg.description}` : '';
  const dir = sharedDir(others.map((p) => p.file.path));
  const title = root
    ? `How ${inCode(root.name)} builds and checks itself${description} (${inCode('package.json')})`
    : others.length === 1
      ? `Scripts of ${inCode(first.name)}${description} (${inCode(first.file.path)})`
      : `Scripts of the packages in ${inCode(dir ?? '.')}`;
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
