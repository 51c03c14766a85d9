import { describe, expect, it } from 'vitest';
import { openDuck, type Row } from '../market/duck.js';
import { numberOrNull } from '../market/queries/values.js';
import { FEATURE_COLUMNS, FEATURES, featureRow } from './features.js';
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

  it('takes rooms as ln(rooms × 27 m² / area), at least one room', () => {
    // By hand: ln(3 × 27 / 70) = ln(1.157142…) = 0.145954…; ln(1 × 27 / 70) = −0.952658…
    expect(subject({ ...flat, numberOfRooms: 3 }).rooms).toBeCloseTo(0.1459539, 6);
    expect(subject({ ...flat, numberOfRooms: 0 }).rooms).toBeCloseTo(-0.9526584, 6);
    expect(subject(flat).rooms).toBeUndefined();
  });

  it('takes a room count under 8 m² per room as neutral: as many rooms as the size implies', () => {
    // 70 m² / 8.75 rooms = 8 m² per room still counts: ln(8.75 × 27 / 70) = 1.216395…
    expect(subject({ ...flat, numberOfRooms: 8.75 }).rooms).toBeCloseTo(1.2163953, 6);
    expect(subject({ ...flat, numberOfRooms: 9 }).rooms).toBe(0);
    expect(subject({ ...flat, numberOfRooms: 861 }).rooms).toBe(0);
    expect(subject({ ...flat, livingArea: 6, numberOfRooms: 0 }).rooms).toBe(0);
  });

  it("takes a house's land as ln(1 + land / living area), leaves it out where a house does not say", () => {
    const house: PropertyToValue = { ...flat, propertyType: 'house', livingArea: 140 };
    // By hand: ln(1 + 700 / 140) = ln 6 = 1.7917595….
    expect(subject({ ...house, landArea: 700 })).toMatchObject({ no_land: 0 });
    expect(subject({ ...house, landArea: 700 }).land).toBeCloseTo(1.7917595, 6);
    expect(subject({ ...house, landArea: 0 })).toMatchObject({ land: 0, no_land: 1 });
    expect(subject(house)).toMatchObject({ land: undefined, no_land: undefined });
    // An apartment has no land of its own, whatever it states.
    expect(subject(flat)).toMatchObject({ land: 0, no_land: 0 });
    expect(subject({ ...flat, landArea: 5000 })).toMatchObject({ land: 0, no_land: 0 });
  });

  it('gives stated flags as 0/1', () => {
    const s = subject({ ...flat, isFurnished: true, isSubsidized: false, hasBalcony: true });
    expect([s.furnished, s.subsidized, s.balcony, s.terrace]).toEqual([1, 0, 1, undefined]);
  });
});

describe('FEATURES in SQL and in code', () => {
  it('give the same value for every case of the columns', async () => {
    const instance = await openDuck(':memory:');
    const db = await instance.connect();
    try {
      // Every combination of the cases that lead each formula a different way: NULLs, the
      // boundaries of the age classes around the start year, rooms and floors below their floors.
      await db.run(`create table offers as
        select living_area::double as living_area, start_date, is_new, building_year,
          is_old_building, number_of_rooms::double as number_of_rooms,
          property_type, floor_number, flag as is_furnished, not flag as is_subsidized,
          flag as has_balcony, (flag is null) as has_terrace, land_area::double as land_area
        from (values (8), (9.5), (16), (133.3)) a(living_area),
          (values (date '2024-01-31'), (date '1991-06-01')) d(start_date),
          (values (null), (true), (false)) n(is_new),
          (values (null), (1900), (1945), (1946), (1990), (1991), (2022), (2023), (2024)) b(building_year),
          (values (null), (true), (false)) o(is_old_building),
          (values (null), (0), (0.5), (1.0), (2), (3.5), (16), (17)) r(number_of_rooms),
          (values ('apartment'), ('house')) t(property_type),
          -- Floors and land areas are independent formulas: their cases go in pairs.
          (values (null, null), (-2, 0), (0, 350.5), (7, 12000)) f(floor_number, land_area),
          (values (null), (true), (false)) g(flag)`);
      const sql = `select ${FEATURE_COLUMNS.join(', ')},
        ${FEATURES.map((f, i) => `${f.sql} as x${String(i)}`).join(', ')} from offers`;
      const rows = (await db.runAndReadAll(sql)).getRowObjectsJS() as Row[];
      expect(rows.length).toBe(4 * 2 * 3 * 9 * 3 * 8 * 2 * 4 * 3);
      const differ = new Set<string>();
      for (const row of rows) {
        const facts = featureRow(row);
        FEATURES.forEach((f, i) => {
          if (f.ofRow(facts) !== Number(row[`x${String(i)}`])) differ.add(f.name);
        });
      }
      // Bit for bit: the logarithms of DuckDB's C library and of V8 agree on these.
      expect([...differ]).toEqual([]);
      // The land terms: only houses with land have one; houses without (or not saying) are
      // "no land"; apartments neither. By hand: ln(1 + 350.5 / 133.3) = 1.2890694….
      const [land, noLand] = ['land', 'no_land'].map((n) =>
        FEATURES.findIndex((f) => f.name === n),
      );
      const landOf = (type: string, area: number, landArea: number | null) =>
        rows
          .filter(
            (r) =>
              r.property_type === type &&
              Number(r.living_area) === area &&
              numberOrNull(r.land_area) === landArea,
          )
          .map(
            (r) => `${Number(r[`x${String(land)}`]).toFixed(7)}/${String(r[`x${String(noLand)}`])}`,
          );
      expect(new Set(landOf('house', 133.3, 350.5))).toEqual(new Set(['1.2890694/0']));
      expect(new Set(landOf('house', 16, 12000))).toEqual(new Set(['6.6214057/0']));
      expect(new Set([...landOf('house', 16, null), ...landOf('house', 16, 0)])).toEqual(
        new Set(['0.0000000/1']),
      );
      expect(new Set(landOf('apartment', 133.3, 350.5))).toEqual(new Set(['0.0000000/0']));
      expect(new Set(landOf('apartment', 16, null))).toEqual(new Set(['0.0000000/0']));
      // And the rooms values are the intended ones: an offer without rooms is neutral.
      const rooms = FEATURES.findIndex((f) => f.name === 'rooms');
      const roomsOf = (area: number, count: number | null) =>
        rows
          .filter(
            (r) => Number(r.living_area) === area && numberOrNull(r.number_of_rooms) === count,
          )
          .map((r) => Number(r[`x${String(rooms)}`]));
      expect(new Set(roomsOf(133.3, null))).toEqual(new Set([0]));
      expect(new Set(roomsOf(9.5, null))).toEqual(new Set([0]));
      // By hand: a stated 0 counts as one room, ln(27 / 9.5) = 1.044545…; ln(3.5 × 27 / 133.3)
      // = ln(0.708927…) = −0.344002….
      expect(new Set(roomsOf(9.5, 0).map((v) => v.toFixed(9)))).toEqual(new Set(['1.044545067']));
      expect(new Set(roomsOf(133.3, 3.5).map((v) => v.toFixed(9)))).toEqual(
        new Set(['-0.344002393']),
      );
      // Under 8 m² per room the count says nothing (133.3 m² / 17 = 7.84); 8 m² still counts:
      // ln(2 × 27 / 16) = ln(3.375) = 1.216395….
      expect(new Set(roomsOf(133.3, 17))).toEqual(new Set([0]));
      expect(new Set(roomsOf(9.5, 2))).toEqual(new Set([0]));
      expect(new Set(roomsOf(16, 2).map((v) => v.toFixed(6)))).toEqual(new Set(['1.216395']));
      // Under one room counts as one: on 8 m² still a room, ln(27 / 8) = 1.216395…
      expect(new Set([...roomsOf(8, 0), ...roomsOf(8, 0.5)].map((v) => v.toFixed(6)))).toEqual(
        new Set(['1.216395']),
      );
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  });
});
