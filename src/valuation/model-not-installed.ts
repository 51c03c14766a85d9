import { AppError } from '../http/problem.js';
import type { ValueProperty } from './types.js';

/**
 * Stands in for the valuation model in a build that has none (`valueProperty` of
 * src/valuation/value-property.ts replaces it in src/app.ts): every valuation fails loudly as a
 * server fault instead of inventing a value.
 */
export const modelNotInstalled: ValueProperty = () =>
  Promise.reject(new AppError('internal', 'No valuation model is installed in this build'));
