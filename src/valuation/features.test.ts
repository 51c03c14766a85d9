import { describe, expect, it } from 'vitest';
import { FEATURES } from './features.js';
import type { PropertyToValue } from './types.js';

const flat: PropertyToValue = {
  countryCode: 'AT',
  propertyType: 'apartment',
  latitude: 48.2,
  longitude: 16.37,
  locationPrecision: 'postcode',
  livingArea: 70,
};

const subject = (p: PropertyToValue) =>
  Object.fromEntries(FEATURES.map((f) => [f.name, f.subject(p, 2026)]));

describe('FEATURES subject values', () => {
  it('leaves unstated groups undefined', () => {
    const s = subject(flat);
    expect(s.log_area).toBe(0);
    for (const name of [
      'new',
      'floor',
      'no_floor',
      'furnished',
      'subsidized',
      'balcony',
      'terrace',
    ])
      expect(s[name]).toBeUndefined();
  });

  it('puts an old building without a year in the before-1946 class (all age terms 0)', () => {
    const s = subject({ ...flat, isOldBuilding: true });
    expect([s.new, s.built_1991, s.built_1946, s.no_year]).toEqual([0, 0, 0, 0]);
  });

  it('takes the floor as ln(1 + floor), ground floor and below 0', () => {
    expect(subject({ ...flat, floorNumber: 3 }).floor).toBeCloseTo(Math.log(4), 12);
    expect(subject({ ...flat, floorNumber: -1 }).floor).toBe(0);
    expect(subject({ ...flat, floorNumber: 3 }).no_floor).toBe(0);
  });

  it('gives stated flags as 0/1', () => {
    const s = subject({ ...flat, isFurnished: true, isSubsidized: false, hasBalcony: true });
    expect([s.furnished, s.subsidized, s.balcony, s.terrace]).toEqual([1, 0, 1, undefined]);
  });
});
