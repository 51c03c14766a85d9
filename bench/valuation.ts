// Valuation benchmark: `npm run bench -- valuation [--offers 10000000] [--fresh]`.
// The property tracker and a single property value over HTTP against a real server process, and
// the valuation model called directly on DuckDB in this process (the same work without HTTP).
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../src/market/duck.js';
import type { CountryCode } from '../src/market/countries.js';
import { valueProperty } from '../src/valuation/value-property.js';
import { benchData, offerSizes, openBenchSnapshot } from './data.js';
import { measure, ms } from './latency.js';
import { startBenchServer, type BenchServer } from './server.js';

const PROPERTIES = 100;
const TODAY = new Date().toISOString().slice(0, 10);
const PAST = `${String(Number(TODAY.slice(0, 4)) - 1)}${TODAY.slice(4)}`;

interface Sample {
  countryCode: CountryCode;
  latitude: number;
  longitude: number;
  livingArea: number;
  propertyType: 'apartment' | 'house';
}

/** Properties where offers are, drawn by a hash of the offer id: busy and quiet areas alike. */
async function samples(db: DuckDBConnection): Promise<Sample[]> {
  const rows = await queryRows(
    db,
    `select country_code, latitude, longitude, living_area, property_type from offers
      where deal_type = 'sale' and latitude is not null and living_area between 20 and 400
      order by hash(country_code, id) limit ${String(PROPERTIES)}`,
  );
  return rows.map((r) => ({
    countryCode: String(r.country_code) as CountryCode,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    livingArea: Math.round(Number(r.living_area)),
    propertyType: String(r.property_type) as Sample['propertyType'],
  }));
}

const propertyBody = (s: Sample) => ({
  location: { coordinates: { latitude: s.latitude, longitude: s.longitude } },
  propertyType: { code: s.propertyType },
  livingArea: s.livingArea,
});

async function createDossiers(server: BenchServer, list: Sample[]): Promise<string[]> {
  const ids: string[] = [];
  for (const s of list) {
    const res = await server.post(
      '/api/v1/dossiers',
      JSON.stringify({
        title: 'bench',
        dealType: 'sale',
        countryCode: s.countryCode,
        property: propertyBody(s),
      }),
    );
    if (res.status !== 201) throw new Error(`dossier: HTTP ${String(res.status)} ${res.body}`);
    ids.push((JSON.parse(res.body) as { id: string }).id);
  }
  return ids;
}

/** Cycles through the samples; answers other than 200 and 422 (no data there) are errors. */
function cycling(work: (i: number) => Promise<{ status: number; body: string }>) {
  let i = 0;
  let unvalued = 0;
  return {
    run: async () => {
      const res = await work(i++ % PROPERTIES);
      if (res.status === 422) unvalued++;
      else if (res.status !== 200) throw new Error(`HTTP ${String(res.status)}: ${res.body}`);
    },
    unvalued: () => unvalued,
  };
}

async function benchSize(offers: number, args: string[]): Promise<string[]> {
  const dataDir = await benchData(offers, args);
  const snapshot = await openBenchSnapshot(dataDir);
  const { db } = snapshot;
  const server = await startBenchServer(dataDir);
  const size = offers.toLocaleString('en');
  try {
    const list = await samples(db);
    const dossiers = await createDossiers(server, list);
    const rows: string[] = [];
    const sampleOf = (i: number) => list[i % list.length] as Sample;

    // The model caches per-region statistics per snapshot: the first valuation in a region pays
    // for them. One pass over every sample measures that cold cost; the steady state follows.
    process.stderr.write(`${size} offers: valuation model, direct (first pass: cold caches)\n`);
    let direct = 0;
    const valueNext = async () => {
      const s = sampleOf(direct++);
      await valueProperty(db, {
        dealType: 'sale',
        date: TODAY,
        property: { ...s, locationPrecision: 'exact' },
      }).catch(() => undefined);
    };
    const cold = await measure(valueNext, { warmup: 0, samples: list.length });
    rows.push(
      `| ${size} | one sale valuation, model called directly, first in its region (cold cache, ${String(list.length)} properties) | ${ms(cold.p50)} | ${ms(cold.p99)} | |`,
    );
    // The offers around a place are loaded into memory the second time it is valued
    // (src/valuation/place-tiles.ts): that pass is measured too, then the steady state.
    const second = await measure(valueNext, { warmup: 0, samples: list.length });
    rows.push(
      `| ${size} | the same, second valuation at the place (its tiles load) | ${ms(second.p50)} | ${ms(second.p99)} | |`,
    );
    const bare = await measure(valueNext, { warmup: 0 });
    rows.push(
      `| ${size} | one sale valuation, model called directly (no HTTP), warm | ${ms(bare.p50)} | ${ms(bare.p99)} | |`,
    );

    process.stderr.write(`${size} offers: POST /api/v1/valuation/property_value\n`);
    const single = cycling((i) =>
      server.post(
        '/api/v1/valuation/property_value',
        JSON.stringify({
          dealType: 'sale',
          countryCode: sampleOf(i).countryCode,
          valuationInputs: [{ property: propertyBody(sampleOf(i)) }],
        }),
      ),
    );
    // Warm the server's caches the same way: two passes over every property first.
    const one = await measure(single.run, { warmup: 2 * list.length });
    rows.push(
      `| ${size} | \`POST /valuation/property_value\`, one property today | ${ms(one.p50)} | ${ms(one.p99)} | p50 ≤ 30 ms, p99 ≤ 100 ms${one.p50 <= 30 && one.p99 <= 100 ? ' ✓' : ' ✗'}; ${String(single.unvalued())} answers 422 |`,
    );

    process.stderr.write(`${size} offers: POST /api/v1/property_tracker\n`);
    const tracker = cycling((i) =>
      server.post(
        '/api/v1/property_tracker',
        JSON.stringify({
          dossierId: dossiers[i],
          date: PAST,
          countryCode: sampleOf(i).countryCode,
          radius: 1000,
        }),
      ),
    );
    const tr = await measure(tracker.run);
    rows.push(
      `| ${size} | \`POST /property_tracker\` (2 valuations, offers, projects, trends; 1 km) | ${ms(tr.p50)} | ${ms(tr.p99)} | p50 ≤ 30 ms, p99 ≤ 100 ms${tr.p50 <= 30 && tr.p99 <= 100 ? ' ✓' : ' ✗'}; ${String(tracker.unvalued())} answers 422 |`,
    );
    return rows;
  } finally {
    await server.stop();
    snapshot.close();
  }
}

export async function benchValuation(args: string[]): Promise<string> {
  const rows = ['| offers | request | p50 | p99 | target |', '| --- | --- | --- | --- | --- |'];
  for (const offers of offerSizes(args, [10_000_000]))
    rows.push(...(await benchSize(offers, args)));
  return rows.join('\n');
}
