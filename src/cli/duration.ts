const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * The longest lifetime a token can be given short of `never`: 100 years (5,218 weeks). Expiry
 * times are ISO texts compared as text, and one after the year 9999 is written `+010000-…`,
 * which sorts before every date: a token that long-lived would be expired from the start.
 */
export const MAX_DURATION_SECONDS = 5218 * 604_800;

/**
 * `30d`, `12h`, `90m`, `45s`, `2w` → seconds; `never` → null. Anything else, and anything longer
 * than `MAX_DURATION_SECONDS`, → undefined.
 */
export function parseDuration(text: string): number | null | undefined {
  if (text === 'never') return null;
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const seconds = Number(match[1]) * (UNIT_SECONDS[match[2]] ?? 0);
  return seconds > 0 && seconds <= MAX_DURATION_SECONDS ? seconds : undefined;
}
