// Report benchmark: `npm run bench -- reports [--offers 1000000[,10000000]]`.
// Through the HTTP API of a real server process: the appraisal report with every AT section
// (the dossier, template, covers and attachments of scripts/report-dossier.ts) on freshly
// generated demo offers, rendered one after another (p50/p99), then by 20 organizations at once
// with the server's peak resident memory. As a baseline in the same run: the synthetic model of
// bench/synthetic-report.ts rendered in this process, without market data or HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateDemoData } from '../src/market/generate/generate.js';
import { terminalProgress } from '../src/market/progress.js';
import { pageCount } from '../src/features/reports/render/merge.js';
import { renderReport } from '../src/features/reports/render/render.js';
import { ReportRenderer } from '../src/features/reports/render/renderer.js';
import { prepareReportDossier, type SendRequest } from '../scripts/report-dossier.js';
import { offerSizes } from './data.js';
import { measure, ms, type Latency } from './latency.js';
import { benchToken, startBenchServer, type BenchServer } from './server.js';
import { syntheticReportModel } from './synthetic-report.js';

const CONCURRENT = 20;
const SAMPLES = 50;
/** Attempts of one client whose report is refused by the budget for costly work (429/503). */
const ATTEMPTS = 10;
const TODAY = new Date().toISOString().slice(0, 10);
/** A year back: the report shows the offers and the change in value since then. */
const PAST = `${String(Number(TODAY.slice(0, 4)) - 1)}${TODAY.slice(4)}`;
const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const times = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

function sender(server: BenchServer, token: string): SendRequest {
  return async (method, url, body) => {
    const res = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
      body: body.payload,
    });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  };
}

interface Client {
  send: SendRequest;
  report: () => ReturnType<SendRequest>;
}

/** An organization with the sample dossier, ready to ask for its report. */
async function client(server: BenchServer, token: string, organization: string): Promise<Client> {
  const send = sender(server, token);
  const { dossierId, templateId } = await prepareReportDossier(send, organization);
  const body = Buffer.from(JSON.stringify({ templateId, locale: 'en', date: PAST }));
  return {
    send,
    report: () =>
      send('POST', `/api/v1/dossiers/${dossierId}/report`, {
        payload: body,
        contentType: 'application/json',
      }),
  };
}

/** The renderer alone on the synthetic model: in this thread, and through the server's worker. */
async function baseline(): Promise<{ rows: string[]; worker: Latency }> {
  process.stderr.write('synthetic baseline\n');
  const model = await syntheticReportModel('en');
  const direct = await measure(() => renderReport(model), { warmup: 3, samples: 40 });
  const renderer = new ReportRenderer();
  try {
    const worker = await measure(() => renderer.render(model), { warmup: 3, samples: 40 });
    const pages = await pageCount(await renderer.render(model), 'the report');
    const what = `synthetic model (${String(pages)} pages, 500 offers), no market data, no HTTP`;
    return {
      worker,
      rows: [
        row([
          '—',
          `${what}: render in this thread`,
          ms(direct.p50),
          ms(direct.p99),
          ms(direct.mean),
          String(direct.samples),
          '',
        ]),
        row([
          '—',
          `${what}: render through the report worker`,
          ms(worker.p50),
          ms(worker.p99),
          ms(worker.mean),
          String(worker.samples),
          '1.0× (baseline)',
        ]),
      ],
    };
  } finally {
    await renderer.close();
  }
}

/** 20 organizations ask at once; a refused one retries after `Retry-After`, as a client should. */
async function concurrent(server: BenchServer, clients: Client[]): Promise<string> {
  const before = server.rssBytes();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssBytes());
  }, 20);
  let refusals = 0;
  const waited: number[] = [];
  const started = performance.now();
  const results = await Promise.allSettled(
    clients.map(async (c) => {
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const res = await c.report();
        if (res.status === 200 && res.body.subarray(0, 5).toString() === '%PDF-') {
          waited.push(performance.now() - started);
          return;
        }
        if (res.status !== 429 && res.status !== 503) {
          throw new Error(`HTTP ${String(res.status)} ${res.body.toString().slice(0, 200)}`);
        }
        refusals++;
        await sleep(2000);
      }
      throw new Error(`refused ${String(ATTEMPTS)} times`);
    }),
  );
  const wall = performance.now() - started;
  clearInterval(sampler);
  const failed = results.filter((r) => r.status === 'rejected');
  for (const f of failed) process.stderr.write(`failed: ${String(f.reason)}\n`);
  return (
    `${String(CONCURRENT)} organizations asking at once: ${String(CONCURRENT - failed.length)} ` +
    `reports served, ${String(failed.length)} failed, ${String(refusals)} answers asking to ` +
    `retry later (the budget for costly work: 2 at once, one per organization) retried after ` +
    `2 s; each client had its PDF after ${seconds(median(waited))} (median), the last after ` +
    `${seconds(wall)}; server resident memory ${MiB(before)} ` +
    `before, ${MiB(peak)} at most.`
  );
}

async function httpAt(offers: number, base: Latency): Promise<string[]> {
  const size = offers.toLocaleString('en');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propdata-bench-reports-'));
  try {
    process.stderr.write(`generating ${size} demo offers into ${dir}\n`);
    await generateDemoData(dir, {
      offers,
      projects: Math.max(1000, Math.round(offers / 200)),
      seed: 1,
      progress: terminalProgress(),
    });
    // No shedding of load by event-loop delay: on a shared machine it would refuse at random.
    const server = await startBenchServer(dir, { PROPDATA_MAX_EVENT_LOOP_DELAY_MS: '600000' });
    try {
      process.stderr.write(`${size} offers: reports one after another\n`);
      const one = await client(server, server.token, 'Bench');
      // The first report pays for what later ones of the same dossier reuse (laid-out words,
      // images made opaque, the valuation model's regional fits): shown on its own.
      const firstStarted = performance.now();
      const first = await one.report();
      const firstMs = performance.now() - firstStarted;
      if (first.status !== 200)
        throw new Error(`report: HTTP ${String(first.status)} ${first.body.toString()}`);
      const pages = await pageCount(first.body, 'the report');
      const sequential = await measure(
        async () => {
          const res = await one.report();
          if (res.status !== 200) throw new Error(`report: HTTP ${String(res.status)}`);
        },
        { warmup: 2, samples: SAMPLES },
      );
      process.stderr.write(`${size} offers: ${String(CONCURRENT)} organizations at once\n`);
      const clients: Client[] = [];
      for (let i = 0; i < CONCURRENT; i++) {
        const token = await benchToken(server.databaseUrl, `bench-${String(i)}`);
        clients.push(await client(server, token, `Bench ${String(i)}`));
      }
      const together = await concurrent(server, clients);
      return [
        row([
          size,
          `\`POST /dossiers/{id}/report\`, every AT appraisal section, one at a time (${String(pages)} pages, ${String(Math.round(first.body.length / 1000))} kB)`,
          ms(sequential.p50),
          ms(sequential.p99),
          ms(sequential.mean),
          String(sequential.samples),
          `p50 ${times(sequential.p50, base.p50)}, p99 ${times(sequential.p99, base.p99)}`,
        ]),
        row([
          size,
          'the first of those reports, after the server started (nothing reused yet)',
          ms(firstMs),
          '',
          '',
          '1',
          '',
        ]),
        '',
        `${size} offers: ${together}`,
      ];
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchReports(args: string[]): Promise<string> {
  const { rows, worker } = await baseline();
  const table = [
    row(['offers', 'what', 'p50', 'p99', 'mean', 'samples', 'against the synthetic baseline']),
    row(['---', '---', '---', '---', '---', '---', '---']),
    ...rows,
  ];
  const notes: string[] = [];
  for (const offers of offerSizes(args, [1_000_000])) {
    const [first, ...rest] = await httpAt(offers, worker);
    if (first) table.push(first);
    notes.push(...rest);
  }
  return [...table, ...notes].join('\n');
}
