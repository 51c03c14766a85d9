// Loaded into a benchmarked server (`node --expose-gc --import bench/full-gc.js`, which cluster
// workers inherit). On SIGWINCH (ignored by default, and not one of the service's shutdown
// signals) the process runs a full garbage collection and writes its memory use to
// `$PROPDATA_BENCH_MEMORY_DIR/<pid>.json`. The load benchmark compares what the server keeps
// between runs: resident memory alone also moves with how much of the V8 heap is committed but
// unused (young generation, free pages), which a burst of requests changes at random.
import fs from 'node:fs';
import path from 'node:path';

process.on('SIGWINCH', () => {
  globalThis.gc?.();
  const dir = process.env.PROPDATA_BENCH_MEMORY_DIR;
  if (!dir) return;
  // Written under another name, then renamed: the reader never sees half a file.
  const file = path.join(dir, `${String(process.pid)}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
  fs.renameSync(`${file}.tmp`, file);
});
