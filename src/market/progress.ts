import cliProgress from 'cli-progress';

/** Progress of a long command: a bar on a terminal, one line per step otherwise. */
export interface Progress {
  start(label: string, total: number): void;
  update(done: number): void;
  stop(): void;
}

export const silentProgress: Progress = {
  start: () => undefined,
  update: () => undefined,
  stop: () => undefined,
};

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) {
    let current = '';
    return {
      start(label) {
        current = label;
        stream.write(`${label}…\n`);
      },
      update: () => undefined,
      stop() {
        if (current) stream.write(`${current}: done\n`);
        current = '';
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}',
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let running = false;
  return {
    start(label, total) {
      if (running) bar.stop();
      bar.start(total, 0, { label: label.padEnd(22) });
      running = true;
    },
    update: (done) => bar.update(done),
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}

/** Steps of a job shown as one bar: `next()` finishes a step and names the next one. */
export function steps(progress: Progress, label: string, names: readonly string[]) {
  let done = 0;
  const show = () => {
    progress.start(`${label}: ${names[done] ?? 'done'}`, names.length);
    progress.update(done);
  };
  show();
  return {
    next() {
      done += 1;
      show();
    },
    finish() {
      progress.stop();
    },
  };
}
