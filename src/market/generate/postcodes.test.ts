import { describe, expect, it } from 'vitest';
import type { CountryCode } from '../countries.js';
import { postcodeWeights, type Postcode } from './postcodes.js';

/** A code of a small country far from its cities: weighed by the codes around it alone. */
const code = (country: CountryCode, id: string, level6: string | null, lon: number): Postcode => ({
  country,
  id,
  name: id,
  level6,
  level8: null,
  latitude: 10,
  longitude: lon,
  location: 1,
  regional: 1,
});

describe('postcodeWeights', () => {
  it('draws no offer at a code outside every district of a country that has districts', () => {
    const weights = postcodeWeights([
      code('FR', '01000', '01', 0),
      code('FR', '01100', '01', 1),
      // Clipperton Island: a French code in no département.
      code('FR', '98799', null, 2),
    ]);
    expect(weights.map((w) => w > 0)).toEqual([true, true, false]);
  });

  it('draws at every code of a country without districts', () => {
    const weights = postcodeWeights([code('NL', '1011', null, 0), code('NL', '1012', null, 1)]);
    expect(weights.every((w) => w > 0)).toBe(true);
  });
});
