import { InsufficientDataError } from './errors.js';
import type { ValueAtDates, ValueProperty } from './types.js';

/**
 * `ValueAtDates` from a model that values one date per call (a stand-in model in tests): each
 * date valued on its own, in turn; a date the data cannot support gives its error, any other
 * failure fails the whole.
 */
export function oneDateAtATime(model: ValueProperty): ValueAtDates {
  return async (db, { dates, ...request }) => {
    const results = [];
    for (const date of dates) {
      try {
        results.push(await model(db, { ...request, date }));
      } catch (error) {
        if (!(error instanceof InsufficientDataError)) throw error;
        results.push(error);
      }
    }
    return results;
  };
}
