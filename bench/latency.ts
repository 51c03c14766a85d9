// Latency sampling for benchmarks: sequential calls, warm-up first, then percentiles.

export interface Latency {
  p50: number;
  p99: number;
  mean: number;
  samples: number;
}

/** Linear-interpolated percentile of sorted values (p in 0..1). */
function percentile(sorted: number[], p: number): number {
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const a = sorted[lo] ?? 0;
  const b = sorted[Math.ceil(pos)] ?? a;
  return a + (b - a) * (pos - lo);
}

export async function measure(
  work: () => Promise<unknown>,
  options: { warmup?: number; samples?: number } = {},
): Promise<Latency> {
  const { warmup = 20, samples = 300 } = options;
  for (let i = 0; i < warmup; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    samples: times.length,
  };
}

export const ms = (value: number): string =>
  value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`;
