import { inCode } from '../text';
import { propose, type Proposal } from './proposal';
import type { ReadFile } from './read-files';

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
export function pyprojectNote(files: readonly ReadFile[]): Proposal[] {
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
      title: `${inCode(name)}${description ? `: ${description}` : ''} (${inCode('pyproject.toml')})`,
      facts: facts.join(' '),
      about: `pyproject tools ${name}`,
      confidence: 0.7,
      evidence: [{ eventId: file.event.eventId, quote }],
    }),
  ];
}
