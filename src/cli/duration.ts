const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `30d`, `12h`, `90m`, `45s`, `2w` → seconds; `never` → null. Anything else → undefined. */
export function parseDuration(text: string): number | null | undefined {
  if (text === 'never') return null;
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const seconds = Number(match[1]) * (UNIT_SECONDS[match[2]] ?? 0);
  return seconds > 0 ? seconds : undefined;
}
