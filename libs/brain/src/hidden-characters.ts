/**
 * Characters that are not seen but change what is seen, or carry text no one sees:
 * - bidirectional controls: the marks (U+061C, U+200E, U+200F), embeddings and overrides
 *   (U+202A–U+202E) and isolates (U+2066–U+2069), which reorder text on screen, so that a
 *   person reviewing an item reads one thing and the model another (`file\u202Egnp.exe`
 *   shows as `fileexe.png`);
 * - zero-width and invisible characters: spaces, joiners and non-joiners (U+200B–U+200D),
 *   the word joiner and invisible operators (U+2060–U+2064), deprecated format controls
 *   (U+206A–U+206F), the byte order mark (U+FEFF), the soft hyphen (U+00AD), the Mongolian
 *   vowel separator (U+180E) and interlinear annotation controls (U+FFF9–U+FFFB), which
 *   split or hide words;
 * - tag characters (U+E0000–U+E007F), an invisible copy of ASCII that models read as
 *   letters: a whole instruction can be written in them.
 * Emoji variation selectors and combining marks are left: they are seen, as part of a
 * character.
 */
const HIDDEN =
  /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/gu;

/**
 * Text for a model (or a person) with the hidden characters above removed, so what is read is
 * what is shown. Removed rather than shown as `<U+202E>`: text from sessions is data, and a
 * marker per character would let a flood of them fill a token budget. Everything else, code
 * names included, is left exactly as written. Pure; removing twice changes nothing.
 */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, '');
}
