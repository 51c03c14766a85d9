// Report benchmark: `npm run bench -- reports`. Renders the sample appraisal report (every AT
// section, 500 offers, 12 projects, a floor plan, a two-page permit, both covers; the sample of
// scripts/report-sample.ts) in this thread, then through the worker the server uses, and 20 at
// once through it. The market queries behind a report are the property tracker's, measured by
// `npm run bench -- valuation`; this measures what a report adds to them.
import { renderReport } from '../src/features/reports/render/render.js';
import { ReportRenderer } from '../src/features/reports/render/renderer.js';
import { sampleReportModel } from '../scripts/report-sample.js';
import { measure, ms } from './latency.js';

const CONCURRENT = 20;
const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export async function benchReports(): Promise<string> {
  const model = await sampleReportModel('en');
  const rows: string[] = [
    '| What | p50 | p99 | mean | samples |',
    '| ---- | --- | --- | ---- | ------- |',
  ];
  const direct = await measure(() => renderReport(model), { warmup: 3, samples: 40 });
  rows.push(
    `| Render in this thread (pdfkit + pdf-lib merge) | ${ms(direct.p50)} | ${ms(direct.p99)} | ${ms(direct.mean)} | ${String(direct.samples)} |`,
  );
  const renderer = new ReportRenderer();
  try {
    const worker = await measure(() => renderer.render(model), { warmup: 3, samples: 40 });
    rows.push(
      `| Render through the worker (model and PDF copied across) | ${ms(worker.p50)} | ${ms(worker.p99)} | ${ms(worker.mean)} | ${String(worker.samples)} |`,
    );
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: CONCURRENT }, () => renderer.render(model)),
    );
    const wall = performance.now() - started;
    clearInterval(sampler);
    const failed = results.filter((r) => r.status === 'rejected').length;
    rows.push(
      '',
      `${String(CONCURRENT)} renders at once through the worker: ${String(CONCURRENT - failed)} ` +
        `succeeded, ${String(failed)} failed, all done in ${ms(wall)}; resident memory of the ` +
        `process ${MiB(before)} before, ${MiB(peak)} at most (the worker renders one at a time, ` +
        'so memory does not grow with the queue).',
    );
  } finally {
    await renderer.close();
  }
  return rows.join('\n');
}
