/** The joiner and presentation selectors of emoji sequences: the fonts draw them as nothing
 * at best, and nothing is left to join once the emoji are out. */
const EMOJI_JOINERS = new Set([0x200d, 0xfe0e, 0xfe0f]);

/** Characters DejaVu Sans draws, checked without asking it: ASCII, Latin-1, Latin Extended-A. */
const COMMON = /^[\n\t\x20-\x7e\u00a0-\u017f]*$/;

/**
 * Text the report's typefaces can print: code points they have no glyph for (emoji, CJK, the
 * joiners and variation selectors of emoji sequences) are left out, where they would print as
 * empty boxes; spaces doubled by a removal are made one. White space and control characters
 * are kept (line breaks are laid out, not drawn).
 */
export function printableText(text: string, drawable: (codePoint: number) => boolean): string {
  // Most texts (numbers, dates, Latin names) are ASCII and Latin-1/Extended-A, which the
  // typefaces draw whole: they skip the per-character lookups.
  if (COMMON.test(text)) return text;
  let out = '';
  let removed = false;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (EMOJI_JOINERS.has(codePoint)) removed = true;
    else if (codePoint < 0x20 || /\s/u.test(char) || drawable(codePoint)) out += char;
    else removed = true;
  }
  return removed ? out.replace(/ {2,}/g, ' ').trim() : text;
}
