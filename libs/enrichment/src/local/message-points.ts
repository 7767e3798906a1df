import { sentences } from '@memex/entities';
import { leadingClause } from '../text';

/**
 * A statement of a message: a sentence, a list item with its sub-items, or a list with the
 * line that introduces it.
 */
export interface Point {
  /** Verbatim from the message (a sentence, a lead line or an item's first line), for evidence. */
  quote: string;
  /** What it says: the sentence, the item with its sub-items, or the lead with its items. */
  text: string;
  /** An item's bold label (`**Root cause**: …`), what the writer marked it as. */
  label?: string;
  /** The heading of the section the point stands in. */
  section?: string;
  /** A list item's lead line or section heading: what the item is an instance of. */
  lead?: string;
  kind: 'sentence' | 'list' | 'item';
  /** Which list of the message a list or item point belongs to (0, 1, …). */
  list?: number;
  /** A numbered item's own number, as written ("1." → "1"). */
  number?: string;
  /** An item that says more than its list's summary of it (sub-items, or sentences past the first). */
  detail?: boolean;
  /** A sentence's successor in the same paragraph: what it goes on to say. */
  next?: string;
  /** The first sentence of its paragraph, when that is read sentence by sentence (not as one labelled point). */
  opensParagraph?: boolean;
  /** A labelled paragraph's sentences past its first, which the label names too. */
  continues?: string[];
}

const LIST_ITEM = /^(\s*)(?:[-*+•]|(\d+)[.)])\s+(.*)$/;
const HEADING = /^\s*#{1,6}\s+(.*)$/;
/** The number a heading, a bold label or a line is given in its message: "3. ", "2) ". */
export const ENUMERATOR = /^\d{1,2}[.)]\s+/;
const BOLD_LABEL = /^\*\*([^*]{2,80}?)\*\*\s*(?:[:\-–—]\s*)?/;
/** A short fenced block (a command, a setting) reads as part of the sentence that introduced it. */
const SHORT_CODE = { lines: 2, chars: 160 };

interface Item {
  line: string;
  indent: number;
  number?: string;
  children: string[];
}

interface Lead {
  text: string;
  /** Verbatim, for evidence. */
  quote: string;
}

interface Block {
  lead?: Lead;
  section?: string;
  /** The least indent of its items: theirs are the list's own, deeper ones are sub-items. */
  top: number;
  items: Item[];
}

/** Item text without its marker, with `**label**` split off; `joined` reads them as one line again. */
function labelled(text: string): { label?: string; rest: string; joined: string; separated?: boolean } {
  const m = BOLD_LABEL.exec(text);
  if (!m) return { rest: text, joined: text };
  // "**1. Authentication Bug Fixed** - …": the label, not the place it had in the message.
  const label = m[1]!.replace(/[:.]$/, '').replace(ENUMERATOR, '').trim();
  const rest = text.slice(m[0].length).trim();
  // "**Root cause** — x" reads as "Root cause: x"; "**Reset the index** with x" as one sentence.
  const separated = /[:\-–—]\s*$/.test(m[0]) || /[:.]$/.test(m[1]!);
  return { label, rest, separated, joined: rest ? `${label}${separated ? ':' : ''} ${rest}` : label };
}

/** How much of an item its list's summary has room for. */
const SUMMARY_CHARS = 110;

/**
 * How an item reads inside its list's summary: its label, else its first sentence, a long one
 * as its leading clause (never cut mid-phrase: the summary is what a note states of the list).
 * `room` is what the summary could hold of it, however the clause falls: an item with half as
 * much again to say is a point of its own.
 */
function summary(item: Item): { text: string; room: number } {
  const { label } = labelled(item.line);
  if (label && label.split(/\s+/).length >= 2) return { text: label, room: label.length };
  const first = sentences(item.line)[0] ?? item.line;
  return { text: leadingClause(first, SUMMARY_CHARS), room: Math.min(first.length, SUMMARY_CHARS) };
}

/**
 * The points of a message, by its markdown structure. Closing messages are mostly headings
 * and lists: a list with its lead line is one point ("Here's the root cause chain:" and the
 * bold labels of its items), and each item with its sub-items is another, so a caller can keep
 * the summary or the item that says most.
 */
export function messagePoints(message: string): Point[] {
  const lines = message.split('\n');
  const out: Point[] = [];
  let section: string | undefined;
  /** The line before the current one, when it can introduce a list (a heading, or a line ending in ':'). */
  let previous: Lead | undefined;
  let block: Block | undefined;
  let lists = 0;

  const flush = () => {
    if (!block) return;
    const { lead, items } = block;
    const top = items.filter((i) => i.indent === block!.top);
    const summaries = top.map(summary);
    const list = lists;
    lists += 1;
    if (lead && top.length > 0) {
      out.push({
        quote: lead.quote,
        text: `${lead.text} ${summaries.map((s) => s.text).join('; ')}`,
        section: block.section,
        kind: 'list',
        list,
      });
    }
    for (const [n, item] of top.entries()) {
      const { label, joined } = labelled(item.line);
      // "Fixed X by setting:" reads on into its sub-items; siblings are joined by "; ".
      const children = item.children.join('; ');
      out.push({
        quote: item.line,
        text: children ? `${joined}${/:\s*$/.test(joined) ? ' ' : '; '}${children}` : joined,
        detail: item.children.length > 0 || joined.length > summaries[n]!.room * 1.5,
        label,
        section: block.section,
        lead: lead?.text,
        kind: 'item',
        list,
        ...(item.number ? { number: item.number } : {}),
      });
    }
    block = undefined;
  };

  for (let n = 0; n < lines.length; n += 1) {
    const line = lines[n]!.trimEnd();
    if (/^\s*```/.test(line)) {
      const body: string[] = [];
      for (n += 1; n < lines.length && !/^\s*```/.test(lines[n]!); n += 1)
        if (lines[n]!.trim()) body.push(lines[n]!.trim());
      // A short block (a command, a setting) reads as part of what introduced it; output and listings do not.
      if (body.length > 0 && body.length <= SHORT_CODE.lines && body.join('; ').length <= SHORT_CODE.chars) {
        const code = ` \`${body.join('; ')}\``;
        const item = block?.items[block.items.length - 1];
        if (item) item.children.push(code.trim());
        else if (out.length > 0) out[out.length - 1]!.text += code;
      }
      continue;
    }
    const list = LIST_ITEM.exec(line);
    if (list) {
      const indent = list[1]!.length;
      const text = list[3]!.trim();
      if (!block) {
        block = { lead: previous, section, top: indent, items: [] };
      }
      const parent = block.items[block.items.length - 1];
      if (parent && indent > block.top) parent.children.push(text);
      else {
        block.top = Math.min(block.top, indent);
        block.items.push({ line: text, indent, children: [], ...(list[2] ? { number: list[2] } : {}) });
      }
      previous = undefined;
      continue;
    }
    if (!line.trim()) continue;
    // An indented line under an item continues it.
    if (block && /^\s{2,}\S/.test(line) && block.items.length > 0) {
      block.items[block.items.length - 1]!.children.push(line.trim());
      continue;
    }
    flush();
    const heading = HEADING.exec(line);
    if (heading) {
      // "#### 3. **Comprehensive Test Suite**": the number orders the message's parts, and away
      // from the message it is noise at the head of a note.
      section = heading[1]!.replace(/\*\*/g, '').trim().replace(ENUMERATOR, '');
      previous = { text: section.endsWith(':') ? section : `${section}:`, quote: heading[1]!.trim() };
      continue;
    }
    const said = sentences(line);
    const paragraph = line.trim();
    const { label, separated, rest } = labelled(paragraph);
    const after = label !== undefined && separated ? sentences(rest) : [];
    // "**Root cause:** A. B. C.": the label names the whole paragraph, which is one point, read
    // as its label and first sentence, going on with the rest; and a numbered label ("**6.
    // Memory Leak Prevention** - …") is no sentence of its own, as its "6." would make it.
    if (after.length > 1 || (after.length > 0 && said.length > after.length)) {
      const quote = `${paragraph.slice(0, paragraph.length - rest.length)}${after[0]}`;
      const more = after.slice(1);
      out.push({
        quote,
        text: quote,
        label,
        section,
        kind: 'sentence',
        ...(more.length > 0 ? { continues: more } : {}),
      });
    } else
      said.forEach((sentence, i) =>
        out.push({
          quote: sentence,
          text: sentence,
          section,
          kind: 'sentence',
          ...(said[i + 1] ? { next: said[i + 1] } : {}),
          ...(i === 0 ? { opensParagraph: true } : {}),
        }),
      );
    // Of a paragraph that ends by introducing a list, the last sentence is the list's lead.
    const last = said.at(-1);
    previous = last && /:\s*(?:\*\*)?$/.test(line) ? { text: last, quote: last } : undefined;
  }
  flush();
  return out;
}
