import type { DuckDBConnection } from '@duckdb/node-api';
import { isoDay } from '../dates.js';
import { limits } from '../limits.js';
import { queryChunks } from '../market/duck.js';
import { copyVector } from '../market/queries/division-slice.js';
import { PRICE_COLUMN } from '../market/queries/offer-columns.js';
import { textOrNull } from '../market/queries/values.js';
import type { FeatureRow } from './features.js';
import { AREA_LIMITS, type RegionKind } from './model-sums.js';
import type { DealType } from './types.js';

/**
 * The offers around recently valued places, in memory: square tiles of TILE_DEGREES per country,
 * deal and property type, each a set of typed arrays. The 500 m and 1 km comparables searches
 * (the first steps of every valuation with coordinates, two per tracker request) then read the
 * tiles instead of running a query: at 10 M offers such a query costs about 5 ms whatever it
 * returns (DuckDB reads the row groups of the search box), the search in memory well under one.
 *
 * A tile holds every offer of its cell that any comparables search could use (a price, a living
 * area within the model's limits), over all dates; the search applies the query's filters and
 * order to them (`nearestInTiles`, checked equal to the query in place-tiles.test.ts).
 * Tiles of all snapshots share one memory budget, least recently used dropped first; a snapshot
 * never changes, so a tile is valid as long as it is held.
 */

/** Tile side in degrees of latitude and of longitude (1.1 km × 0.75 km at 48°). */
export const TILE_DEGREES = 0.01;

/** Number columns of a tile besides the position; SQL NULL is NaN, yes/no 1/0. */
const NUMBERS = [
  'living_area',
  'building_year',
  'number_of_rooms',
  'floor_number',
  'is_new',
  'is_old_building',
  'is_furnished',
  'is_subsidized',
  'has_balcony',
  'has_terrace',
  'land_area',
] as const;
type TileNumber = (typeof NUMBERS)[number];

/**
 * An offer's divisions (postcode, level 8, level 6), as one number: the code of the triple in the
 * snapshot's `Divisions`.
 */
const DIVISIONS_SQL = 'division_level100, division_level8, division_level6';

/** Bytes per offer in a tile: y, latitude, longitude, row, the start day, numbers, divisions. */
export const TILE_BYTES_PER_OFFER = 4 * 8 + 4 + NUMBERS.length * 8 + 4;
/**
 * What a tile costs besides its offers, counted against the budget: its typed arrays and map
 * entry take about 3 KB whatever they hold. Cells without offers share one empty tile and cost
 * their map entry: without these a search over empty land held tiles the budget never saw.
 */
export const TILE_OVERHEAD_BYTES = 4096;
export const EMPTY_TILE_BYTES = 256;

interface Tile {
  readonly length: number;
  /** ln(price per m²), as the comparables query computes it. */
  readonly y: Float64Array;
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  /**
   * The offer's row in `offers_by_place`: the query orders offers at the same distance by it,
   * and so does the search here.
   */
  readonly row: Float64Array;
  /** The start date as days since 1970-01-01. */
  readonly day: Int32Array;
  readonly numbers: Readonly<Record<TileNumber, Float64Array>>;
  /** Codes of the offer's divisions in the snapshot's `Divisions`. */
  readonly divisions: Int32Array;
  readonly bytes: number;
}

/** The offers a search reads tiles of: one country, deal and property type of one snapshot. */
export interface TileGroup {
  /** The snapshot (its database name, unique per snapshot file). */
  snapshot: string;
  countryCode: string;
  deal: DealType;
  propertyType: string;
}

/** A radius search as the comparables query states it (comparables.ts `querySql`). */
export interface RadiusSearch {
  /** The search box, bounds included. */
  lat0: number;
  lat1: number;
  lon0: number;
  lon1: number;
  /** The point the offers are ordered by distance from, and cos(latitude). */
  lat: number;
  lon: number;
  coslat: number;
  /** Start days, bounds included (days since 1970-01-01). */
  sinceDay: number;
  untilDay: number;
  /** Living area, bounds included. */
  amin: number;
  amax: number;
  /** Only offers of this region (model-sums.ts REGION_FILTER_SQL); undefined: any region. */
  region: { kind: RegionKind; id: string } | undefined;
  limit: number;
}

/** One offer a search found: what comparables.ts makes a comparable of. */
export interface PlacedOffer {
  y: number;
  facts: FeatureRow;
  /** Always known in tiles; an offer a division search found may have none. */
  latitude: number | null;
  longitude: number | null;
  postcode: string | null;
}

const cell = (degrees: number): number => Math.floor(degrees / TILE_DEGREES);

interface CellRange {
  i0: number;
  i1: number;
  j0: number;
  j1: number;
}

const groupKey = (g: TileGroup) => `${g.snapshot}|${g.countryCode}|${g.deal}|${g.propertyType}`;

interface DivisionTriple {
  postcode: string | null;
  level8: string | null;
  level6: string | null;
}

/**
 * The division triples of one snapshot's offers that tiles hold, each with a code. Rows are read
 * with a 53-bit hash of their triple instead of its three texts (decoding three texts per row
 * took most of a tile's loading time); each load first reads its box's distinct triples with
 * their hashes, so a hash shared by two triples is seen, and the snapshot's tiles are then no
 * longer used (`collided`).
 */
export class Divisions {
  readonly list: DivisionTriple[] = [];
  /** The region code of each triple's code. */
  readonly regionOf: number[] = [];
  private readonly byHash = new Map<number, number>();
  private readonly regions = new Map<string, number>();
  collided = false;

  /** Records a triple's hash; false when the hash is another triple's. */
  add(hash: number, triple: DivisionTriple): boolean {
    const code = this.byHash.get(hash);
    if (code === undefined) {
      this.byHash.set(hash, this.list.length);
      this.list.push(triple);
      const region =
        triple.level6 !== null
          ? `level6|${triple.level6}`
          : triple.level8 !== null
            ? `level8|${triple.level8}`
            : 'country|';
      if (!this.regions.has(region)) this.regions.set(region, this.regions.size);
      this.regionOf.push(this.regions.get(region) as number);
      return true;
    }
    const known = this.list[code] as DivisionTriple;
    const same =
      known.postcode === triple.postcode &&
      known.level8 === triple.level8 &&
      known.level6 === triple.level6;
    if (!same) this.collided = true;
    return same;
  }

  /** The code of a recorded hash, -1 for none. */
  code(hash: number): number {
    return this.byHash.get(hash) ?? -1;
  }

  /**
   * Which codes belong to the region (model-sums.ts REGION_FILTER_SQL): `regionCode` of the
   * region equals `regionOf[code]`. A triple lies in one region: its level 6 where it has one,
   * else its level 8, else the country's part without divisions.
   */
  regionCode(region: { kind: RegionKind; id: string }): number {
    return this.regions.get(`${region.kind}|${region.id}`) ?? -1;
  }
}

const HASH_SQL = `(hash(${DIVISIONS_SQL}) >> 11)::double`;

/** Copies the rows `order[from…to)` of `source` into a new array. */
function pickFloat(
  source: Float64Array,
  order: Int32Array,
  from: number,
  to: number,
): Float64Array {
  const target = new Float64Array(to - from);
  for (let k = from; k < to; k++) target[k - from] = source[order[k] as number] as number;
  return target;
}

function pickInt(source: Int32Array, order: Int32Array, from: number, to: number): Int32Array {
  const target = new Int32Array(to - from);
  for (let k = from; k < to; k++) target[k - from] = source[order[k] as number] as number;
  return target;
}

/**
 * Reads the tiles of `range` (whole cells) and splits the rows into tiles; undefined when two
 * division triples share a hash.
 */
async function loadTiles(
  db: DuckDBConnection,
  group: TileGroup,
  range: CellRange,
  divisions: Divisions,
): Promise<Map<string, Tile> | undefined> {
  const price = PRICE_COLUMN[group.deal];
  // Slightly wider than the cells: each row goes to the tile of its own cell below, by the same
  // arithmetic as the search, and rows of cells outside the range are dropped.
  const pad = TILE_DEGREES / 1000;
  const where = `country_code = $cc and deal_type = $deal and property_type = $type
    and ${price} > 0 and living_area between ${String(AREA_LIMITS.min)} and ${String(AREA_LIMITS.max)}
    and latitude >= $lat0 and latitude < $lat1 and longitude >= $lon0 and longitude < $lon1`;
  const params = {
    cc: group.countryCode,
    deal: group.deal,
    type: group.propertyType,
    lat0: range.i0 * TILE_DEGREES - pad,
    lat1: (range.i1 + 1) * TILE_DEGREES + pad,
    lon0: range.j0 * TILE_DEGREES - pad,
    lon1: (range.j1 + 1) * TILE_DEGREES + pad,
  };
  const triples = await queryChunks(
    db,
    `select distinct ${HASH_SQL} as h, ${DIVISIONS_SQL} from offers_by_place where ${where}`,
    params,
  );
  for (const chunk of triples)
    for (let row = 0; row < chunk.rowCount; row++) {
      const value = (column: number) => chunk.getColumnVector(column).getItem(row);
      const added = divisions.add(Number(value(0)), {
        postcode: textOrNull(value(1)),
        level8: textOrNull(value(2)),
        level6: textOrNull(value(3)),
      });
      if (!added) return undefined;
    }
  const chunks = await queryChunks(
    db,
    `select ln(${price} / living_area) as y, latitude, longitude, rowid::double as row,
       (start_date - date '1970-01-01')::integer as day,
       ${NUMBERS.map((n) => `coalesce(${n}::double, 'NaN'::double) as ${n}`).join(', ')},
       ${HASH_SQL} as h
     from offers_by_place where ${where}`,
    params,
  );
  const length = chunks.reduce((sum, chunk) => sum + chunk.rowCount, 0);
  const y = new Float64Array(length);
  const latitude = new Float64Array(length);
  const longitude = new Float64Array(length);
  const rows = new Float64Array(length);
  const day = new Int32Array(length);
  const numbers = NUMBERS.map(() => new Float64Array(length));
  const hashes = new Float64Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    [y, latitude, longitude, rows, day, ...numbers, hashes].forEach((array, column) =>
      copyVector(chunk.getColumnVector(column), array, offset),
    );
    offset += chunk.rowCount;
  }
  const codes = new Int32Array(length);
  for (let row = 0; row < length; row++) {
    const code = divisions.code(hashes[row] as number);
    if (code < 0) return undefined;
    codes[row] = code;
  }

  // Each row's cell in the range (-1: outside), then the rows of each cell in the order read
  // (a counting sort: one pass per column).
  const width = range.j1 - range.j0 + 1;
  const cells = width * (range.i1 - range.i0 + 1);
  const cellOf = new Int32Array(length);
  const starts = new Int32Array(cells + 1);
  for (let row = 0; row < length; row++) {
    const i = cell(latitude[row] as number) - range.i0;
    const j = cell(longitude[row] as number) - range.j0;
    const c = i < 0 || j < 0 || j >= width || i * width + j >= cells ? -1 : i * width + j;
    cellOf[row] = c;
    if (c >= 0) starts[c + 1] = (starts[c + 1] as number) + 1;
  }
  for (let c = 0; c < cells; c++) starts[c + 1] = (starts[c + 1] as number) + (starts[c] as number);
  const order = new Int32Array(starts[cells] as number);
  const next = starts.slice(0, cells);
  for (let row = 0; row < length; row++) {
    const c = cellOf[row] as number;
    if (c >= 0) {
      order[next[c] as number] = row;
      next[c] = (next[c] as number) + 1;
    }
  }
  const tiles = new Map<string, Tile>();
  for (let c = 0; c < cells; c++) {
    const from = starts[c] as number;
    const to = starts[c + 1] as number;
    const key = `${String(range.i0 + Math.floor(c / width))}|${String(range.j0 + (c % width))}`;
    if (to === from) {
      tiles.set(key, EMPTY_TILE);
      continue;
    }
    tiles.set(key, {
      length: to - from,
      y: pickFloat(y, order, from, to),
      latitude: pickFloat(latitude, order, from, to),
      longitude: pickFloat(longitude, order, from, to),
      row: pickFloat(rows, order, from, to),
      day: pickInt(day, order, from, to),
      numbers: Object.fromEntries(
        NUMBERS.map((name, k) => [name, pickFloat(numbers[k] as Float64Array, order, from, to)]),
      ) as Record<TileNumber, Float64Array>,
      divisions: pickInt(codes, order, from, to),
      bytes: TILE_OVERHEAD_BYTES + (to - from) * TILE_BYTES_PER_OFFER,
    });
  }
  return tiles;
}

const EMPTY_TILE: Tile = {
  length: 0,
  y: new Float64Array(0),
  latitude: new Float64Array(0),
  longitude: new Float64Array(0),
  row: new Float64Array(0),
  day: new Int32Array(0),
  numbers: Object.fromEntries(NUMBERS.map((name) => [name, new Float64Array(0)])) as Record<
    TileNumber,
    Float64Array
  >,
  divisions: new Int32Array(0),
  bytes: EMPTY_TILE_BYTES,
};

/** Snapshots whose tiles are kept (the current one and those requests may still read). */
const SNAPSHOTS = 4;
/** Tiles asked for and not (yet) loaded that are remembered, for `admitAfter`. */
const SEEN_TILES = 100_000;

/**
 * Tiles of every snapshot within one budget of bytes, least recently used dropped first.
 * Concurrent searches that need the same tiles share one load.
 */
export class PlaceTiles {
  private readonly tiles = new Map<string, Tile>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly divisions = new Map<string, Divisions>();
  /** Tiles searched and not loaded, with how often (the oldest dropped beyond SEEN_TILES). */
  private readonly seen = new Map<string, number>();
  private heldBytes = 0;

  /**
   * `admitAfter`: how many searches must ask for a tile before it is loaded. Loading a search's
   * tiles costs two queries (about 15 ms at 10 M offers), more than the one query it saves: a
   * place valued once (a backtest's sample scattered over the market: 1,500 valuations took 116
   * s loading every tile against 92 s without tiles) is searched in SQL, a place valued again
   * (a dossier, a busy neighbourhood, the tracker's two dates) from memory.
   */
  constructor(
    public budgetBytes: number,
    public admitAfter = 2,
  ) {}

  get bytes(): number {
    return this.heldBytes;
  }

  /** Tiles being loaded now. */
  get loadsInFlight(): number {
    return this.loading.size;
  }

  /** Drops every tile (and sets a new budget and admission). */
  reset(budgetBytes = this.budgetBytes, admitAfter = this.admitAfter): void {
    this.budgetBytes = budgetBytes;
    this.admitAfter = admitAfter;
    this.tiles.clear();
    this.divisions.clear();
    this.seen.clear();
    this.heldBytes = 0;
  }

  /** Counts a search's asking for tiles not held; true once each was asked for `admitAfter` times. */
  private admitted(keys: readonly string[]): boolean {
    let admitted = true;
    for (const key of keys) {
      const times = (this.seen.get(key) ?? 0) + 1;
      if (times < this.admitAfter) admitted = false;
      this.seen.delete(key);
      this.seen.set(key, times);
    }
    for (const key of this.seen.keys()) {
      if (this.seen.size <= SEEN_TILES) break;
      this.seen.delete(key);
    }
    if (admitted) for (const key of keys) this.seen.delete(key);
    return admitted;
  }

  /** The divisions of a snapshot; one beyond the last SNAPSHOTS is dropped with its tiles. */
  private divisionsOf(snapshot: string): Divisions {
    let divisions = this.divisions.get(snapshot);
    if (!divisions) {
      divisions = new Divisions();
      this.divisions.set(snapshot, divisions);
      for (const old of [...this.divisions.keys()].slice(0, -SNAPSHOTS)) this.dropSnapshot(old);
    }
    return divisions;
  }

  private dropSnapshot(snapshot: string): void {
    this.divisions.delete(snapshot);
    for (const [key, tile] of this.tiles)
      if (key.startsWith(`${snapshot}|`)) {
        this.tiles.delete(key);
        this.heldBytes -= tile.bytes;
      }
  }

  /**
   * The offers of the search box nearest to its point, as the comparables query finds them;
   * undefined when the tiles are not admitted yet or do not fit the budget (the query must
   * answer).
   */
  async search(
    db: DuckDBConnection,
    group: TileGroup,
    search: RadiusSearch,
  ): Promise<PlacedOffer[] | undefined> {
    const divisions = this.divisionsOf(group.snapshot);
    if (this.budgetBytes <= 0 || divisions.collided) return undefined;
    const range = {
      i0: cell(search.lat0),
      i1: cell(search.lat1),
      j0: cell(search.lon0),
      j1: cell(search.lon1),
    };
    const prefix = groupKey(group);
    const keys: string[] = [];
    for (let i = range.i0; i <= range.i1; i++)
      for (let j = range.j0; j <= range.j1; j++) keys.push(`${prefix}|${String(i)}|${String(j)}`);
    const missing = keys.filter((k) => !this.tiles.has(k) && !this.loading.has(k));
    if (missing.length > 0 && !this.admitted(missing)) return undefined;
    const others = new Set(keys.flatMap((k) => this.loading.get(k) ?? []));
    const loads = [...others];
    if (missing.length > 0) {
      // The tiles held are used by this search: made the most recent, so that its load drops
      // others first to make room (within a budget too small for all, the query answers).
      for (const key of keys) {
        const tile = this.tiles.get(key);
        if (!tile) continue;
        this.tiles.delete(key);
        this.tiles.set(key, tile);
      }
      const load = this.load(db, group, prefix, range, missing, divisions);
      for (const key of missing) this.loading.set(key, load);
      loads.push(load);
    }
    // A failed load (this search's own or another's) leaves its tiles out: the query answers
    // this search, and fails in turn if the cause was the request's (its deadline, say).
    await Promise.all(loads.map((load) => load.catch(() => undefined)));
    // Tiles coded by divisions no longer in use (the snapshot dropped or the tiles reset
    // meanwhile) are not read with them.
    if (this.divisions.get(group.snapshot) !== divisions) return undefined;
    const tiles: Tile[] = [];
    for (const key of keys) {
      const tile = this.tiles.get(key);
      if (!tile) return undefined;
      // Most recently used last.
      this.tiles.delete(key);
      this.tiles.set(key, tile);
      tiles.push(tile);
    }
    return nearestInTiles(tiles, search, divisions, group.propertyType);
  }

  private async load(
    db: DuckDBConnection,
    group: TileGroup,
    prefix: string,
    range: CellRange,
    missing: readonly string[],
    divisions: Divisions,
  ): Promise<void> {
    try {
      // The cells of the missing tiles only (a box mostly misses a whole edge or all of it).
      const cells = missing.map((k) =>
        k
          .slice(prefix.length + 1)
          .split('|')
          .map(Number),
      );
      const is = cells.map(([i]) => i as number);
      const js = cells.map(([, j]) => j as number);
      const loaded = await loadTiles(
        db,
        group,
        {
          i0: Math.max(range.i0, Math.min(...is)),
          i1: Math.min(range.i1, Math.max(...is)),
          j0: Math.max(range.j0, Math.min(...js)),
          j1: Math.min(range.j1, Math.max(...js)),
        },
        divisions,
      );
      // The snapshot dropped or the tiles reset while loading: its codes are of divisions no
      // longer in use, so its tiles are not kept.
      if (this.divisions.get(group.snapshot) !== divisions) return;
      for (const [cellKey, tile] of loaded ?? []) {
        const key = `${prefix}|${cellKey}`;
        if (this.tiles.has(key)) continue;
        this.tiles.set(key, tile);
        this.heldBytes += tile.bytes;
      }
      for (const [key, tile] of this.tiles) {
        if (this.heldBytes <= this.budgetBytes) break;
        this.tiles.delete(key);
        this.heldBytes -= tile.bytes;
      }
    } finally {
      for (const key of missing) this.loading.delete(key);
    }
  }
}

/** The search's filters and order (comparables.ts `querySql`) applied to the offers of tiles. */
function nearestInTiles(
  tiles: readonly Tile[],
  search: RadiusSearch,
  divisions: Divisions,
  propertyType: string,
): PlacedOffer[] {
  const { lat0, lat1, lon0, lon1, lat, lon, coslat, sinceDay, untilDay, amin, amax } = search;
  const region = search.region ? divisions.regionCode(search.region) : undefined;
  const { regionOf } = divisions;
  const found: { tile: Tile; row: number; key: number; order: number }[] = [];
  for (const tile of tiles) {
    const { latitude, longitude, day } = tile;
    const area = tile.numbers.living_area;
    for (let row = 0; row < tile.length; row++) {
      const la = latitude[row] as number;
      const lo = longitude[row] as number;
      if (la < lat0 || la > lat1 || lo < lon0 || lo > lon1) continue;
      const d = day[row] as number;
      if (d < sinceDay || d > untilDay) continue;
      const a = area[row] as number;
      if (a < amin || a > amax) continue;
      if (region !== undefined && regionOf[tile.divisions[row] as number] !== region) continue;
      // Products, not powers: DuckDB's power is not always the product to the last bit.
      const dy = la - lat;
      const dx = (lo - lon) * coslat;
      found.push({ tile, row, key: dy * dy + dx * dx, order: tile.row[row] as number });
    }
  }
  // Nearest first, offers at the same distance by their row, as the query orders them.
  found.sort((a, b) => a.key - b.key || a.order - b.order);
  return found
    .slice(0, search.limit)
    .map(({ tile, row }) => placedOffer(tile, row, divisions, propertyType));
}

function placedOffer(
  tile: Tile,
  row: number,
  divisions: Divisions,
  propertyType: string,
): PlacedOffer {
  const number = (n: TileNumber): number | null => {
    const value = tile.numbers[n][row] as number;
    return Number.isNaN(value) ? null : value;
  };
  const flag = (n: TileNumber): boolean | null => {
    const value = number(n);
    return value === null ? null : value === 1;
  };
  return {
    y: tile.y[row] as number,
    latitude: tile.latitude[row] as number,
    longitude: tile.longitude[row] as number,
    postcode: divisions.list[tile.divisions[row] as number]?.postcode ?? null,
    facts: {
      living_area: tile.numbers.living_area[row] as number,
      start_date: isoDay(new Date((tile.day[row] as number) * 86_400_000)),
      is_new: flag('is_new'),
      building_year: number('building_year'),
      is_old_building: flag('is_old_building'),
      number_of_rooms: number('number_of_rooms'),
      property_type: propertyType,
      floor_number: number('floor_number'),
      is_furnished: flag('is_furnished'),
      is_subsidized: flag('is_subsidized'),
      has_balcony: flag('has_balcony'),
      has_terrace: flag('has_terrace'),
      land_area: number('land_area'),
    },
  };
}

/** The process's tiles. Their budget is PROPDATA_VALUATION_CACHE_MB (stores.ts sets it). */
export const placeTiles = new PlaceTiles(limits.valuation.defaultCacheMaxMb * 1024 * 1024);
