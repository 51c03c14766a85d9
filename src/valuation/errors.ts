/**
 * The market data cannot support a value for the property (too few comparables, or a point
 * outside the covered market). The model says so instead of inventing a value; the HTTP layer
 * answers it as `422 insufficient_data`, the backtest counts it.
 */
export class InsufficientDataError extends Error {
  constructor(
    message: string,
    /** The valuation date that could not be supported, where the caller names it. */
    readonly date?: string,
  ) {
    super(message);
    this.name = 'InsufficientDataError';
  }
}
