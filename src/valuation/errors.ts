/**
 * The market data cannot support a value for the property (too few comparables, or a point
 * outside the covered market). The model says so instead of inventing a value; the HTTP layer
 * answers it as `422 insufficient_data`, the backtest counts it.
 */
export class InsufficientDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InsufficientDataError';
  }
}

/** A result of `ValueAtDates` as a value, or its error thrown (missing: a caller's bug). */
export function valueOrThrow<T>(outcome: T | InsufficientDataError | undefined): T {
  if (outcome === undefined) throw new Error('no valuation for this date');
  if (outcome instanceof InsufficientDataError) throw outcome;
  return outcome;
}
