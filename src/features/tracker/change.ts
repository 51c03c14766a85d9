/**
 * `(today - past) / past * 100`, rounded half away from zero to one decimal: 21.57 → 21.6,
 * 21.55 → 21.6, −21.55 → −21.6. Null when the past value is 0 (no change can be stated).
 */
export function valuationChangePercent(past: number, today: number): number | null {
  if (past === 0) return null;
  const percent = ((today - past) / past) * 100;
  // Prices are decimal but doubles are not: 100 → 100.05 computes 0.04999999999999716 %. Twelve
  // significant digits drop that noise, and the small relative nudge keeps a half stored a hair
  // below .x5 from rounding down.
  const clean = Number(Math.abs(percent).toPrecision(12));
  const tenths = Math.round(clean * 10 * (1 + 4 * Number.EPSILON));
  const rounded = (Math.sign(percent) * tenths) / 10;
  return rounded === 0 ? 0 : rounded;
}
