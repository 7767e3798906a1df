import { TYPE_BRANCH, type ItemType } from '@memex/domain';
import { codeTopic, significantWords, slug, topicWord } from './text';

/** The first segment of every dedup hint, by item type. */
export const HINT_CATEGORY: Record<ItemType, string> = {
  Decision: 'decision',
  Convention: 'convention',
  BugFix: 'bugfix',
  Todo: 'todo',
  ArchitectureNote: 'architecture',
  ImplementationFact: 'implementation',
  CodeMapNode: 'codemap',
};

/** The schema-key taxonomy as the LLM prompt describes it. */
export const SCHEMA_KEY_TAXONOMY = [
  'root/<area>[/<sub-area>] from the files involved, e.g. root/frontend/hooks, root/api/auth, root/db/migrations',
  'root/decisions, root/conventions, root/bugs, root/todos, root/architecture, root/implementation when no files apply',
];

const CONTAINER_DIRS = new Set(['src', 'lib', 'libs', 'app', 'apps', 'packages', 'source', 'internal', 'pkg', '.']);

/**
 * Directories of a path that say where in the project it is. An absolute path keeps what
 * follows its last container directory (…/project/src/api/x.ts → api), or its last two.
 */
function segmentWords(path: string): string[] {
  let parts = path.replace(/\\/g, '/').split('/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    const container = parts.map((p) => CONTAINER_DIRS.has(p.toLowerCase())).lastIndexOf(true);
    parts = container >= 0 ? parts.slice(container) : parts.slice(-3);
  }
  return (
    parts
      .slice(0, -1)
      // One hyphen between words and a bounded length, so the key always fits SCHEMA_KEY_PATTERN.
      .map((s) =>
        s
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .slice(0, 40)
          .replace(/-+$/, ''),
      )
      .filter((s) => s && !CONTAINER_DIRS.has(s))
  );
}

/** The area a set of files belongs to: the first directories they share, past src/apps/…. */
export function areaOf(files: readonly string[]): string[] {
  const paths = files.map(segmentWords).filter((p) => p.length > 0);
  if (paths.length === 0) return [];
  const shared: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const seg = paths[0]?.[i];
    if (!seg || !paths.every((p) => p[i] === seg)) break;
    shared.push(seg);
  }
  return shared.length > 0 ? shared : [paths[0]![0]!];
}

export function schemaKeyFor(type: ItemType, files: readonly string[]): string {
  const area = areaOf(files);
  return ['root', ...(area.length > 0 ? area : [TYPE_BRANCH[type]])].join('/');
}

/**
 * `category:topic:key`: topic from the files' area, else the code name the text is about, else
 * its first word that names something; key from the text.
 */
export function dedupHintFor(type: ItemType, text: string, files: readonly string[] = []): string {
  const words = significantWords(text);
  const area = areaOf(files);
  const topic = area[area.length - 1] ?? codeTopic(text) ?? topicWord(words) ?? words[0] ?? 'general';
  const rest = words.filter((w) => w !== topic);
  return `${HINT_CATEGORY[type]}:${slug([topic], 1)}:${slug(rest.length > 0 ? rest : words, 5)}`;
}
