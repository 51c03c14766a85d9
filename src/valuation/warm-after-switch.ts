import type { MarketStore } from '../market/market-store.js';
import type { ValuationRequest, ValueProperty } from './types.js';

/** How many recent distinct valuations are valued again on a new snapshot. */
const RECENT = 50;

/**
 * The model, remembering its most recent distinct requests: after the market store switches to
 * a new snapshot, they are valued again on it in the background, one after another, so that the
 * regional fits of the places users value (up to ~150 ms each on first use) are ready before the
 * next request needs them. Returns the model and the unsubscribe.
 */
export function warmAfterSwitch(
  model: ValueProperty,
  market: MarketStore,
): { valueProperty: ValueProperty; stop: () => void; warmed: () => Promise<void> } {
  const recent = new Map<string, ValuationRequest>();
  let warming = Promise.resolve();
  const valueProperty: ValueProperty = (db, request) => {
    const key = JSON.stringify(request);
    recent.delete(key);
    recent.set(key, request);
    if (recent.size > RECENT) recent.delete(recent.keys().next().value as string);
    return model(db, request);
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
  return { valueProperty, stop, warmed: () => warming };
}
