import type { MarketStore } from '../market/market-store.js';
import type { ValuationRequest, ValueAtDates, ValueProperty } from './types.js';

/** How many recent distinct valuations are valued again on a new snapshot. */
const RECENT = 50;

/**
 * The model, remembering its most recent distinct requests: after the market store switches to
 * a new snapshot, they are valued again on it in the background, one after another, so that the
 * regional fits of the places users value (up to ~150 ms each on first use) are ready before the
 * next request needs them. A valuation at several dates counts as one request per date. Returns
 * the model's two entry points and the unsubscribe.
 */
export function warmAfterSwitch(
  model: ValueProperty,
  atDates: ValueAtDates,
  market: MarketStore,
): {
  valueProperty: ValueProperty;
  valueAtDates: ValueAtDates;
  stop: () => void;
  warmed: () => Promise<void>;
} {
  const recent = new Map<string, ValuationRequest>();
  let warming = Promise.resolve();
  const remember = (request: ValuationRequest) => {
    const key = JSON.stringify(request);
    recent.delete(key);
    recent.set(key, request);
    if (recent.size > RECENT) recent.delete(recent.keys().next().value as string);
  };
  const valueProperty: ValueProperty = (db, request) => {
    remember(request);
    return model(db, request);
  };
  const valueAtDates: ValueAtDates = (db, { dates, ...request }) => {
    for (const date of dates) remember({ ...request, date });
    return atDates(db, { ...request, dates });
  };
  const stop = market.onSwitch((read) => {
    const requests = [...recent.values()].reverse();
    warming = (async () => {
      for (const request of requests) {
        // Only the cache filling matters: a place the new data cannot value is skipped.
        await read((db) => model(db, request)).catch(() => undefined);
      }
    })();
  });
  return { valueProperty, valueAtDates, stop, warmed: () => warming };
}
