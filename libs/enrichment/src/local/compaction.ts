import type { ItemType } from '@memex/domain';
import type { EngineEvent } from '../candidate';
import { isJunkTitle } from '../junk-title';
import { pathsIn } from '../text';
import { propose, type Proposal } from './proposal';
import { cleanSentence, hasCue } from './salience';
import { titleAndRest } from './turn-notes';
import { userRules } from './user-rules';

/**
 * When Claude Code compacts a session it writes a summary in fixed sections ("4. Errors and
 * fixes:", "7. Pending Tasks:", "6. All user messages:" …): a ready-made handover of everything
 * before it. Each section says what kind of memory its entries are.
 */
const SECTIONS: Array<{ name: RegExp; type: ItemType; salience: number }> = [
  { name: /^errors? and fix(?:es)?$/i, type: 'BugFix', salience: 6 },
  { name: /^pending tasks?$/i, type: 'Todo', salience: 5 },
  { name: /^problem solving$/i, type: 'ArchitectureNote', salience: 4 },
  { name: /^current work$/i, type: 'ImplementationFact', salience: 4 },
];
const USER_MESSAGES = /^all user messages$/i;
/** A section header stands at the start of its line; an indented "1. Foo:" is an entry's own list. */
const HEADER = /^\d+\.\s+([A-Z][A-Za-z ]{3,40}):\s*(.*)$/;
const BULLET = /^(\s*)[-*•]\s+(.*)$/;
/** Entries of a section that says nothing new ("None", "N/A"). */
const EMPTY = /^(?:(?:none|n\/a|nothing)(?: so far| yet)?\.?$|no (?:pending|remaining|outstanding|explicit|other) )/i;

interface Entry {
  quote: string;
  text: string;
}

/** A section's entries: each top-level bullet with what is indented under it, or the prose as one entry. */
function entries(lines: readonly string[]): Entry[] {
  const bullets = lines.map((l) => BULLET.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  if (bullets.length === 0) {
    const prose = lines.map((l) => l.trim()).filter(Boolean);
    return prose.length > 0 ? [{ quote: prose[0]!, text: prose.join(' ') }] : [];
  }
  // The first bullet sets the entries' indent; deeper ones belong to the entry above them.
  const top = bullets[0]![1]!.length;
  const out: Entry[] = [];
  for (const line of lines) {
    const bullet = BULLET.exec(line);
    if (bullet && bullet[1]!.length === top) out.push({ quote: bullet[2]!.trim(), text: bullet[2]!.trim() });
    // Code an entry quotes is where it looks; what it says is in its words.
    else if (out.length > 0 && line.trim() && !/^\s*```/.test(line)) out[out.length - 1]!.text += ` ${line.trim()}`;
  }
  return out;
}

function sections(summary: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let current: string[] | undefined;
  let inCode = false;
  for (const line of summary.split('\n')) {
    if (/^\s*```/.test(line)) inCode = !inCode;
    const header = inCode ? null : HEADER.exec(line);
    if (header) {
      current = header[2] ? [header[2]] : [];
      found.set(header[1]!.trim(), current);
    } else if (current && !inCode) current.push(line);
  }
  return found;
}

/** The memories a compaction summary holds, by the section each entry stands in. */
export function fromCompaction(event: EngineEvent): Proposal[] {
  if (event.type !== 'note' || event.metadata?.kind !== 'compact-summary') return [];
  const out: Proposal[] = [];
  for (const [name, lines] of sections(event.content)) {
    if (USER_MESSAGES.test(name)) {
      // The person's own words, quoted: their rules and choices.
      for (const { text } of entries(lines)) {
        for (const rule of userRules(text.replace(/^["“]|["”]$/g, ''))) {
          out.push(
            propose(rule.strength, rule.type, {
              title: rule.text,
              facts: rule.context,
              about: rule.text,
              confidence: 0.8,
              importance: rule.type === 'Convention' ? 4 : 3,
              evidence: [{ eventId: event.eventId, quote: rule.quote }],
            }),
          );
        }
      }
      continue;
    }
    const section = SECTIONS.find((s) => s.name.test(name));
    if (!section) continue;
    for (const entry of entries(lines)) {
      const text = cleanSentence(entry.text);
      if (EMPTY.test(text) || text.length < 20) continue;
      const { title, rest } = titleAndRest(text);
      if (isJunkTitle(title)) continue;
      const resolved = section.type === 'BugFix' && /\b(?:fixed|resolved|solved)\b/i.test(text);
      out.push(
        propose(section.salience + (hasCue(text, 'cause') ? 1 : 0), section.type, {
          title,
          facts: rest,
          about: text,
          files: pathsIn(text),
          confidence: 0.75,
          resolved,
          evidence: [{ eventId: event.eventId, quote: entry.quote }],
        }),
      );
    }
  }
  return out;
}
