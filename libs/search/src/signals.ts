import { lookupName, quotedErrorSignature, textEntities } from '@memex/entities';
import { detectIntent, type Intent } from './intent';
import { FUNCTION_WORDS } from './stopwords';

/** The QuerySignals of spec/context-assembly.md, less the embedding (the embedder makes it). */
export interface QuerySignals {
  keywords: string[];
  /** Lookup names (libs/entities lookupName) of what the query may name: files, symbols, packages. */
  mentionedEntities: string[];
  /** The query's own error line's signature, when it quotes one. */
  errorSignatures: string[];
  intent: Intent;
  /** Event types worth showing as recent activity for this intent. */
  relevantEventTypes: string[];
}

/** Not keywords: function words, and words that say what kind of help is wanted rather than about what. */
const STOP = new Set([...FUNCTION_WORDS, ...'do get got make fix explain error bug'.split(' ')]);
const KEYWORD = /[\p{L}\p{N}_$][\p{L}\p{N}_$.\-/@]*[\p{L}\p{N}_$]|[\p{L}\p{N}]/gu;
const MAX_KEYWORDS = 16;

const EVENT_TYPES: Record<Intent, string[]> = {
  fix: ['error', 'command', 'file_edit', 'tool_call', 'tool_result'],
  explain: ['prompt', 'response', 'note', 'commit'],
  question: ['prompt', 'response', 'note', 'commit', 'tool_call'],
  action: ['prompt', 'tool_call', 'file_edit', 'command', 'commit'],
};

export function querySignals(query: string): QuerySignals {
  const intent = detectIntent(query);
  const words = (query.match(KEYWORD) ?? []).map((w) => w.toLowerCase());
  const keywords = [...new Set(words.filter((w) => w.length >= 3 && !STOP.has(w)))].slice(0, MAX_KEYWORDS);
  const named = textEntities(query).map(lookupName);
  // A bare word may be a package, a symbol or a file's name: the store decides which exist.
  const mentionedEntities = [...new Set([...named, ...keywords.map((k) => k.replace(/\(\)$/, ''))])];
  const signature = quotedErrorSignature(query);
  if (signature) mentionedEntities.push(lookupName({ kind: 'error', name: signature }));
  return {
    keywords,
    mentionedEntities,
    errorSignatures: signature ? [signature] : [],
    intent,
    relevantEventTypes: EVENT_TYPES[intent],
  };
}
