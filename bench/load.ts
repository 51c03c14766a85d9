// Load benchmark: `npm run bench -- load [--offers 300000] [--fresh]`.
// autocannon, 50 connections for 30 s, against a mix of statistics, property tracker, template
// and cover reads on demo data; twice per worker count (memory must not grow between two
// identical runs), with 1 and with 2 worker processes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { PDFDocument } from 'pdf-lib';
import { exampleTemplate } from '../src/features/templates/provider-templates.js';
import { queryOne } from '../src/market/duck.js';
import { benchData, offerSizes, openBenchSnapshot } from './data.js';
import { startBenchServer, type BenchServer } from './server.js';

const CONNECTIONS = 50;
const SECONDS = 30;
const DUCKDB_MEMORY = '256MB';
/**
 * Idle time before memory is read after a run: right after a burst the V8 heap holds whatever
 * garbage the last seconds left, a random amount; V8 collects it once allocation stops.
 */
const SETTLE_MS = 10_000;
/** Time a full garbage collection (bench/full-gc.js) is given before memory is read again. */
const GC_MS = 3_000;
/** Node flags of the server: a full garbage collection on SIGWINCH. */
const GC_ON_SIGNAL = ['--expose-gc', '--import', path.resolve('bench', 'full-gc.js')];

async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('Cover', { x: 50, y: 780 });
  return doc.save();
}

/** A flat where the demo market is busy, so that the tracker always has data to value from. */
export async function busyFlat(dataDir: string) {
  const snapshot = await openBenchSnapshot(dataDir);
  try {
    const row = await queryOne(
      snapshot.db,
      `with busiest as (
         select country_code, division_level6 from offers
          where deal_type = 'sale' and property_type = 'apartment' and division_level6 is not null
          group by all order by count(*) desc limit 1)
       select o.country_code, o.division_level6, o.latitude, o.longitude
         from offers o join busiest using (country_code, division_level6)
        where o.deal_type = 'sale' and o.property_type = 'apartment' and o.latitude is not null
        order by o.start_date desc, o.id limit 1`,
    );
    if (!row) throw new Error('no offers');
    return {
      countryCode: String(row.country_code),
      level6: String(row.division_level6),
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
    };
  } finally {
    snapshot.close();
  }
}

async function send(
  server: BenchServer,
  method: string,
  path: string,
  body?: string | FormData,
  type?: string,
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(type ? { 'content-type': type } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${String(res.status)} ${text}`);
  return JSON.parse(text || '{}') as Record<string, string>;
}

/** The objects the mix reads: a dossier, a template and a cover of the bench organization. */
export async function setUp(server: BenchServer, flat: Awaited<ReturnType<typeof busyFlat>>) {
  const dossier = await send(
    server,
    'POST',
    '/api/v1/dossiers',
    JSON.stringify({
      title: 'load',
      dealType: 'sale',
      countryCode: flat.countryCode,
      property: {
        location: { coordinates: { latitude: flat.latitude, longitude: flat.longitude } },
        propertyType: { code: 'apartment' },
        livingArea: 70,
      },
    }),
    'application/json',
  );
  const template = await send(
    server,
    'POST',
    '/api/v1/user-settings/templates/',
    JSON.stringify(exampleTemplate()),
    'application/json',
  );
  const form = new FormData();
  form.append('cover', new Blob([await onePagePdf()], { type: 'application/pdf' }), 'cover.pdf');
  const cover = await send(server, 'POST', '/api/v1/user-settings/covers/user/front', form);
  return { dossierId: dossier.id ?? '', templateId: template.id ?? '', coverId: cover.uuid ?? '' };
}

export function mix(
  flat: Awaited<ReturnType<typeof busyFlat>>,
  ids: Awaited<ReturnType<typeof setUp>>,
) {
  const json = { 'content-type': 'application/json' };
  return [
    {
      method: 'POST' as const,
      path: '/api/v1/offers/statistics',
      headers: json,
      body: JSON.stringify({
        countryCode: flat.countryCode,
        filters: { divisionLevel6: flat.level6, dealType: 'sale' },
        statistics: [
          { type: 'count', metric: 'sale_price_per_square_meter' },
          {
            type: 'percentile',
            metric: 'sale_price_per_square_meter',
            parameters: { percentileRank: 50 },
          },
        ],
      }),
    },
    {
      method: 'POST' as const,
      path: '/api/v1/property_tracker',
      headers: json,
      body: JSON.stringify({
        dossierId: ids.dossierId,
        date: `${String(new Date().getUTCFullYear() - 1)}-06-15`,
        countryCode: flat.countryCode,
        radius: 500,
      }),
    },
    { method: 'GET' as const, path: `/api/v1/user-settings/templates/${ids.templateId}` },
    { method: 'GET' as const, path: '/api/v1/user-settings/covers/user/front' },
    { method: 'GET' as const, path: `/api/v1/user-settings/covers/file/${ids.coverId}` },
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The memory use each of the server's processes wrote after a full GC (bench/full-gc.js). */
async function collectedUsage(server: BenchServer, dir: string) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  const processes = server.signal('SIGWINCH');
  const written = () => fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  for (let waited = 0; written().length < processes; waited += 100) {
    if (waited > GC_MS)
      throw new Error(
        `only ${String(written().length)} of ${String(processes)} processes wrote their memory use`,
      );
    await sleep(100);
  }
  return written().map(
    (file) =>
      JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
        heapTotal: number;
        heapUsed: number;
      },
  );
}

/**
 * The server's memory (MiB, all its processes): resident after an idle pause; resident after a
 * full garbage collection; and in use after it, that is resident minus the part of the V8 heap
 * that is committed but holds nothing (what V8 keeps for later allocations).
 */
async function settledMemory(server: BenchServer, dir: string) {
  await sleep(SETTLE_MS);
  const idle = server.rssBytes() / 2 ** 20;
  const usage = await collectedUsage(server, dir);
  // Resident memory settles once the collection has returned its pages.
  await sleep(GC_MS);
  const slack = usage.reduce((sum, u) => sum + u.heapTotal - u.heapUsed, 0);
  const collected = server.rssBytes() / 2 ** 20;
  return { idle, collected, inUse: collected - slack / 2 ** 20 };
}

async function run(server: BenchServer, requests: ReturnType<typeof mix>, memoryDir: string) {
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${server.token}` },
    requests,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    memory: await settledMemory(server, memoryDir),
  };
}

type RunResult = Awaited<ReturnType<typeof run>>;

function row(workers: number, label: string, r: RunResult): string {
  const cells = [
    String(workers),
    label,
    r.rps.toFixed(0),
    `${String(r.p50)} ms`,
    `${String(r.p99)} ms`,
    String(r.errors),
    String(r.timeouts),
    String(r.non2xx),
    `${r.memory.idle.toFixed(0)} MB`,
    `${r.memory.collected.toFixed(0)} MB`,
    `${r.memory.inUse.toFixed(0)} MB`,
  ];
  return `| ${cells.join(' | ')} |`;
}

const change = (from: number, to: number) => `${((to / from - 1) * 100).toFixed(1)}%`;

export async function benchLoad(args: string[]): Promise<string> {
  const offers = offerSizes(args, [300_000])[0] ?? 300_000;
  const dataDir = await benchData(offers, args);
  const flat = await busyFlat(dataDir);
  const rows = [
    `| workers | run | req/s | p50 | p99 | errors | timeouts | non-2xx | server RSS 10 s after | RSS after a full GC | in use after a full GC |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const notes: string[] = [];
  const memoryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-bench-memory-'));
  try {
    for (const workers of [1, 2]) {
      // Each worker has its own DuckDB buffer pool: bounded as the README recommends for workers.
      const server = await startBenchServer(
        dataDir,
        { PROPDATA_DUCKDB_MEMORY_LIMIT: DUCKDB_MEMORY, PROPDATA_BENCH_MEMORY_DIR: memoryDir },
        GC_ON_SIGNAL,
        ['--workers', String(workers)],
      );
      try {
        const requests = mix(flat, await setUp(server, flat));
        // A warm-up run fills the per-process caches (DuckDB buffers, prepared statements, the
        // valuation model's regional statistics): growth after it would be a leak, before it is not.
        process.stderr.write(`load: ${String(workers)} worker(s), warm-up\n`);
        rows.push(row(workers, 'warm-up', await run(server, requests, memoryDir)));
        const measured: RunResult[] = [];
        for (const round of [1, 2]) {
          process.stderr.write(
            `load: ${String(workers)} worker(s), run ${String(round)}, ${String(SECONDS)} s\n`,
          );
          const r = await run(server, requests, memoryDir);
          measured.push(r);
          rows.push(row(workers, String(round), r));
        }
        const [first, second] = measured;
        if (first && second)
          notes.push(
            `- ${String(workers)} worker(s), run 1 → run 2: in use ${change(first.memory.inUse, second.memory.inUse)}; resident ${change(first.memory.collected, second.memory.collected)} after a full GC, ${change(first.memory.idle, second.memory.idle)} after 10 s idle.`,
          );
      } finally {
        await server.stop();
      }
    }
  } finally {
    fs.rmSync(memoryDir, { recursive: true, force: true });
  }
  return [...rows, '', ...notes].join('\n');
}
