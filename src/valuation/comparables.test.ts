import { describe, expect, it } from 'vitest';
import { distinctListings, searchPlan } from './comparables.js';
import type { Postcode } from './snapshot-cache.js';
import type { PropertyToValue } from './types.js';

const postcode: Postcode = {
  id: '1010',
  level6: '900',
  level8: '90001',
  latitude: 48.21,
  longitude: 16.37,
};

const property = (locationPrecision: 'exact' | 'postcode'): PropertyToValue => ({
  countryCode: 'AT',
  propertyType: 'apartment',
  latitude: 48.21,
  longitude: 16.37,
  locationPrecision,
  livingArea: 70,
});

describe('searchPlan', () => {
  it('searches radii inside the region, then the municipality and district, then 5 km across the boundary', () => {
    const plan = searchPlan(property('exact'), postcode);
    const areas = plan.map((q) => q.steps.map((s) => s.area));
    expect(areas.slice(0, 3).flat()).toEqual([
      { kind: 'radius', meters: 500 },
      { kind: 'radius', meters: 1000 },
      { kind: 'radius', meters: 2500 },
      { kind: 'radius', meters: 5000 },
      { kind: 'radius', meters: 5000 },
    ]);
    expect(areas.slice(3)).toEqual([
      [{ kind: 'division', column: 'division_level8' }],
      [{ kind: 'division', column: 'division_level6' }],
      [{ kind: 'radius', meters: 5000, anyRegion: true }],
    ]);
    // Only the district and the search across the boundary wait for everything else to fail.
    expect(plan.map((q) => q.lastResort)).toEqual([false, false, false, false, true, true]);
    expect(plan[5]?.steps[0]).toMatchObject({ widening: 6, months: 60 });
  });

  it('never leaves the postcode, municipality and district of a property known by postcode', () => {
    const plan = searchPlan(property('postcode'), postcode);
    expect(plan.flatMap((q) => q.steps).every((s) => s.area.kind === 'division')).toBe(true);
    expect(plan.map((q) => q.lastResort)).toEqual([false, false, false, true]);
  });
});

describe('distinctListings', () => {
  const offer = { y: 2.7, x: [4.1, 0], month: 600, distance: null, postcode: '1100', house: 'a|1' };

  it('keeps one offer of a flat advertised again, the latest', () => {
    const again = { ...offer, month: 604 };
    expect(distinctListings([offer, again, { ...offer, month: 602 }])).toEqual([again]);
  });

  it('takes offers at one point (coordinates) alike in every figure for one listing', () => {
    const here = { ...offer, house: undefined, distance: 120 };
    expect(distinctListings([here, { ...here, month: 601 }])).toEqual([{ ...here, month: 601 }]);
  });

  it('keeps offers without a point apart, however alike (different flats of a postcode)', () => {
    const somewhere = { ...offer, house: undefined };
    expect(distinctListings([somewhere, { ...somewhere, month: 601 }])).toHaveLength(2);
    expect(
      distinctListings([
        { ...offer, house: null },
        { ...offer, house: null },
      ]),
    ).toHaveLength(2);
  });

  it('takes offers of one street alike in every figure for one listing, house number or not', () => {
    const inStreet = { ...offer, house: null };
    const again = { ...inStreet, month: 603 };
    expect(distinctListings([inStreet, again], true)).toEqual([again]);
  });

  it('keeps offers that differ in place, building, price or features', () => {
    const others = [
      { ...offer, house: 'a|2' },
      { ...offer, house: null },
      { ...offer, y: 2.71 },
      { ...offer, x: [4.2, 0] },
      { ...offer, postcode: '1020' },
      { ...offer, distance: 120 },
    ];
    expect(distinctListings([offer, ...others])).toEqual([offer, ...others]);
  });
});
