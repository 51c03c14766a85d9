import { describe, expect, it } from 'vitest';
import { busboyModule } from './busboy-internals.js';
import { multipartBoundary, PartCount } from './part-count.js';

interface DicerParser {
  on(event: 'part', listener: (part: NodeJS.ReadableStream) => void): void;
  on(event: 'finish' | 'error', listener: () => void): void;
  write(chunk: Buffer): boolean;
  end(): void;
}
const Dicer = busboyModule('deps/dicer/lib/Dicer.js') as new (config: {
  boundary: string;
}) => DicerParser;

/** The parts the form parser's own delimiter (Dicer) finds in `body`, written in `pieces`. */
async function partsByParser(boundary: string, pieces: Buffer[]): Promise<number> {
  const parser = new Dicer({ boundary });
  let parts = 0;
  parser.on('part', (part) => {
    parts += 1;
    // A body without its close delimiter ends its last part early, which is an error of it.
    part.on('error', () => undefined);
    part.resume();
  });
  parser.on('error', () => undefined);
  for (const piece of pieces) parser.write(piece);
  parser.end();
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
  return parts;
}

function counted(boundary: string, pieces: Buffer[], max = Infinity): number {
  const count = new PartCount(boundary, max);
  for (const piece of pieces) count.write(piece);
  return count.count;
}

/** A seeded generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('PartCount', () => {
  it('reads the boundary as the form parser does', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('multipart/form-data; BOUNDARY="a b;c"')).toBe('a b;c');
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
  });

  it('counts the parts the form parser delimits, however the body is cut', async () => {
    const next = random(7);
    const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)] as T;
    const boundaries = ['B', 'XyZ', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a b'];
    // Pieces a part may be made of: headers of every kind, data that looks like a delimiter.
    const bodies = (b: string) => [
      'Content-Disposition: form-data; name="f"\r\n\r\nvalue',
      '\r\n\r\nno headers',
      'Content-Type: text/plain\r\n\r\nno disposition',
      `Content-Disposition: form-data; name="g"\r\n\r\nlooks like --${b} but is not`,
      `Content-Disposition: form-data; name="h"\r\n\r\n-- ${b}\n--${b}`,
      `Content-Disposition: form-data; name="big"\r\n\r\n${'x'.repeat(20_000)}`,
      '',
    ];
    for (let round = 0; round < 300; round++) {
      const b = pick(boundaries);
      const parts = Array.from({ length: Math.floor(next() * 6) }, () => pick(bodies(b)));
      const preamble = pick(['', 'preamble text\r\n', `not a delimiter --${b}x\r\n`]);
      const epilogue = pick(['', '\r\n', `\r\nepilogue\r\n--${b}\r\nafter the end\r\n`]);
      const text =
        preamble +
        parts.map((p) => `--${b}\r\n${p}\r\n`).join('') +
        (next() < 0.9 ? `--${b}--` : `--${b}-x`) +
        epilogue;
      const body = Buffer.from(text, 'latin1');
      const pieces: Buffer[] = [];
      for (let at = 0; at < body.length;) {
        const size = 1 + Math.floor(next() * pick([3, 40, 70_000]));
        pieces.push(body.subarray(at, at + size));
        at += size;
      }
      expect(counted(b, pieces), JSON.stringify({ round, b, text: text.slice(0, 300) })).toBe(
        await partsByParser(b, pieces),
      );
    }
  });

  it('stops counting past its maximum', () => {
    const body = Buffer.from(`${'--B\r\n\r\nx\r\n'.repeat(1000)}--B--`, 'latin1');
    expect(counted('B', [body])).toBe(1000);
    expect(counted('B', [body], 3)).toBe(4);
  });
});
