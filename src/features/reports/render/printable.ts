/** The joiner and presentation selectors of emoji sequences: the fonts draw them as nothing
 * at best, and nothing is left to join once the emoji are out. */
const EMOJI_JOINERS = new Set([0x200d, 0xfe0e, 0xfe0f]);

/**
 * Text the report's typefaces can print: code points they have no glyph for (emoji, CJK, the
 * joiners and variation selectors of emoji sequences) are left out, where they would print as
 * empty boxes; spaces doubled by a removal are made one. White space and control characters
 * are kept (line breaks are laid out, not drawn).
 */
export function printableText(text: string, drawable: (codePoint: number) => boolean): string {
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

/**
 * Every string of a report's model made printable (`printableText`), however deep: titles,
 * addresses, organization and template names, captions, place and division names. Byte arrays
 * (covers, attachments) and other non-plain objects are kept as they are.
 */
export function printableStrings<T>(value: T, drawable: (codePoint: number) => boolean): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return printableText(v, drawable);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([key, inner]) => [key, walk(inner)]));
    }
    return v;
  };
  return walk(value) as T;
}
