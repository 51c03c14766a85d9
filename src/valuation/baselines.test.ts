import { describe, expect, it } from 'vitest';
import { referenceNearest, referencePostcode } from '../../test/helpers/baseline-reference.js';
import { baselinesOf, type KnownOffer, type OfferToValue } from './baselines.js';

/** A small deterministic generator (LCG) for the hand-made market. */
function lcg(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

const DATES = ['2021-02-10', '2021-05-20', '2021-06-30', '2022-01-03', '2022-12-31'];

/**
 * Two clusters in FR (a dense one with many offers on the same points, and a sparse one 60 km
 * away), a few offers in AT, some without coordinates or postcode; no offer in 2021-Q3/Q4 (a gap
 * in the index) and none after 2022-Q4.
 */
function market(): KnownOffer[] {
  const rand = lcg(7);
  const offers: KnownOffer[] = [];
  const points = Array.from({ length: 12 }, () => [48.85 + rand() * 0.03, 2.33 + rand() * 0.04]);
  for (let i = 0; i < 160; i++) {
    const point = points[Math.floor(rand() * points.length)] as number[];
    const area = Math.round(15 + rand() * 120);
    offers.push({
      id: `fr-${String(i).padStart(3, '0')}`,
      countryCode: 'FR',
      propertyType: rand() < 0.8 ? 'apartment' : 'house',
      date: DATES[Math.floor(rand() * DATES.length)] as string,
      price: Math.round(area * (8000 + rand() * 6000)),
      livingArea: area,
      postcode: rand() < 0.1 ? null : `7500${1 + Math.floor(rand() * 4)}`,
      latitude: i % 17 === 0 ? null : (point[0] as number),
      longitude: i % 17 === 0 ? null : (point[1] as number),
    });
  }
  for (let i = 0; i < 6; i++) {
    offers.push({
      id: `far-${i}`,
      countryCode: 'FR',
      propertyType: 'apartment',
      date: DATES[i % DATES.length] as string,
      price: 100000 + 7000 * i,
      livingArea: 40 + 3 * i,
      postcode: '45000',
      latitude: 47.9 + 0.01 * i,
      longitude: 1.9 + 0.013 * i,
    });
  }
  for (let i = 0; i < 5; i++) {
    offers.push({
      id: `at-${i}`,
      countryCode: 'AT',
      propertyType: 'apartment',
      date: i < 3 ? '2022-03-01' : '2022-09-01',
      price: 300000 + 10000 * i,
      livingArea: 60 + i,
      postcode: '1010',
      latitude: 48.21,
      longitude: 16.37,
    });
  }
  return offers;
}

function cases(): OfferToValue[] {
  const rand = lcg(11);
  const out: OfferToValue[] = [];
  for (let i = 0; i < 80; i++) {
    out.push({
      countryCode: 'FR',
      propertyType: rand() < 0.75 ? 'apartment' : 'house',
      date: ['2021-08-01', '2022-04-15', '2023-01-01', '2024-06-30', '2020-01-01'][i % 5] as string,
      livingArea: Math.round(12 + rand() * 140),
      postcode: `7500${1 + Math.floor(rand() * 5)}`,
      latitude: 48.84 + rand() * 0.05,
      longitude: 2.32 + rand() * 0.06,
    });
  }
  return out;
}

describe('backtest baselines against a plain reference', () => {
  const training = market();
  const { postcode, nearest } = baselinesOf(training);

  it('postcode median × area and time-adjusted kNN-10 equal the reference exactly', () => {
    for (const c of cases()) {
      expect(postcode.value(c)).toBe(referencePostcode(training, c));
      expect(nearest.value(c)).toBe(referenceNearest(training, c));
    }
  });

  it('searches beyond the grid rings where offers are sparse, and across same-point ties', () => {
    const far: OfferToValue = {
      countryCode: 'FR',
      propertyType: 'apartment',
      date: '2023-05-01',
      livingArea: 45,
      postcode: '45000',
      latitude: 47.5,
      longitude: 1.5,
    };
    const value = nearest.value(far);
    expect(value).not.toBeNull();
    expect(value).toBe(referenceNearest(training, far));
    // The same point as many training offers: the tie is broken by id, as in the reference.
    const onPoint = { ...far, latitude: 48.85, longitude: 2.33, postcode: '75001' };
    const shared = training.find((t) => t.countryCode === 'FR' && t.latitude !== null);
    const tied = { ...onPoint, latitude: shared?.latitude ?? 0, longitude: shared?.longitude ?? 0 };
    expect(nearest.value(tied)).toBe(referenceNearest(training, tied));
  });

  it('uses the last quarter with data for later quarters and values nothing it cannot', () => {
    // AT: offers in 2022-Q1 and 2022-Q3 only; 2024-Q1 takes 2022-Q3's level.
    const at: OfferToValue = {
      countryCode: 'AT',
      propertyType: 'apartment',
      date: '2024-02-01',
      livingArea: 60,
      postcode: '1010',
      latitude: 48.21,
      longitude: 16.37,
    };
    const atTraining = training.filter((t) => t.countryCode === 'AT');
    const perM2 = atTraining.map((t) => t.price / t.livingArea);
    const q3Level = ((perM2[3] as number) + (perM2[4] as number)) / 2;
    const q1Level = perM2[1] as number;
    // Neighbours (all at one point, ties by id): at-0…at-4; adjusted to 2022-Q3, median of five.
    const adjusted = perM2
      .map((v, i) => (i < 3 ? (v * q3Level) / q1Level : (v * q3Level) / q3Level))
      .sort((a, b) => a - b);
    expect(nearest.value(at)).toBe((adjusted[2] as number) * 60);
    expect(postcode.value(at)).toBe((perM2[2] as number) * 60);

    expect(nearest.value({ ...at, countryCode: 'DE' })).toBeNull();
    expect(nearest.value({ ...at, latitude: null, longitude: null })).toBeNull();
    expect(nearest.value({ ...at, livingArea: 200 })).toBeNull();
    expect(postcode.value({ ...at, postcode: '1020' })).toBeNull();
    expect(postcode.value({ ...at, postcode: null })).toBeNull();
  });
});
