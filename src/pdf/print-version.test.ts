import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { limits } from '../limits.js';
import { palettePng } from '../../test/helpers/images.js';
import {
  needsPrintVersion,
  pngChunk,
  pngChunkCount,
  pngForPdfkit,
  printVersion,
  printVersionOfPng,
} from './print-version.js';
import { inspectAttachment } from './image-inspection.js';

function rgba(width: number, height: number, pixel: (x: number, y: number) => number[]): PNG {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) image.data.set(pixel(x, y), (y * width + x) * 4);
  }
  return image;
}

const encode = (image: PNG, options: { colorType?: 0 | 2 | 4 | 6; bitDepth?: 8 | 16 } = {}) =>
  PNG.sync.write(image, options);

describe('needsPrintVersion', () => {
  const opaque = encode(
    rgba(4, 3, () => [10, 20, 30, 255]),
    { colorType: 2 },
  );

  it('passes an opaque 8-bit PNG of a printable size as it is', () => {
    expect(needsPrintVersion(opaque)).toBe(false);
  });

  it('makes one for transparency, 16 bits, interlacing and a size beyond the page', () => {
    expect(needsPrintVersion(encode(rgba(4, 3, () => [1, 2, 3, 200])))).toBe(true);
    expect(
      needsPrintVersion(
        encode(
          rgba(4, 3, () => [1, 2, 3, 255]),
          { bitDepth: 16 },
        ),
      ),
    ).toBe(true);
    // IHDR byte 12 of its data (file byte 28) is the interlace method; only the header is read.
    const interlaced = Buffer.from(opaque);
    interlaced[28] = 1;
    expect(needsPrintVersion(interlaced)).toBe(true);
    const side = limits.attachments.printSide;
    expect(
      needsPrintVersion(
        encode(
          rgba(side, 1, () => [0, 0, 0, 255]),
          { colorType: 2 },
        ),
      ),
    ).toBe(false);
    expect(
      needsPrintVersion(
        encode(
          rgba(1, side + 1, () => [0, 0, 0, 255]),
          { colorType: 2 },
        ),
      ),
    ).toBe(true);
  });
});

/** `png` with `chunk` put before its first chunk of type `before`, found by walking its chunks. */
function withChunk(png: Buffer, chunk: Buffer, before: 'IDAT' | 'IEND'): Buffer {
  let at = 8;
  while (png.toString('latin1', at + 4, at + 8) !== before) at += 12 + png.readUInt32BE(at);
  return Buffer.concat([png.subarray(0, at), chunk, png.subarray(at)]);
}

/** The chunk types of a PNG, in order. */
function chunkTypes(png: Buffer): string[] {
  const types = [];
  for (let at = 8; at + 12 <= png.length; at += 12 + png.readUInt32BE(at)) {
    types.push(png.toString('latin1', at + 4, at + 8));
  }
  return types;
}

describe('what pdfkit is given of a PNG', () => {
  const opaque = encode(
    rgba(4, 3, () => [10, 20, 30, 255]),
    { colorType: 2 },
  );

  it('finds transparency by its chunk wherever it lies, however long, not by its bytes', () => {
    // After the image data, and longer than an RGB image's 6 bytes: png-js takes it whole.
    const late = withChunk(opaque, pngChunk('tRNS', Buffer.alloc(100_000, 7)), 'IEND');
    expect(needsPrintVersion(late)).toBe(true);
    // "IDAT" inside a text before a tRNS had made the tRNS look as if after the image data.
    const text = pngChunk('tEXt', Buffer.from('Comment\0IDAT', 'latin1'));
    const hidden = withChunk(
      withChunk(opaque, text, 'IDAT'),
      pngChunk('tRNS', Buffer.alloc(6)),
      'IDAT',
    );
    expect(needsPrintVersion(hidden)).toBe(true);
    // And the word in a text alone is no transparency.
    expect(
      needsPrintVersion(withChunk(opaque, pngChunk('tEXt', Buffer.from('a\0tRNS')), 'IDAT')),
    ).toBe(false);
  });

  it('keeps the chunks that draw it: texts and a truecolour image’s palette are left out', async () => {
    const text = pngChunk(
      'tEXt',
      Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(600_000, 0x41)]),
    );
    const suggested = pngChunk('PLTE', Buffer.from([255, 0, 0, 0, 255, 0]));
    const busy = withChunk(withChunk(opaque, suggested, 'IDAT'), text, 'IEND');
    expect(chunkTypes(busy)).toEqual(['IHDR', 'PLTE', 'IDAT', 'tEXt', 'IEND']);
    expect(needsPrintVersion(busy)).toBe(false);
    const given = pngForPdfkit(busy);
    expect(chunkTypes(given)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(PNG.sync.read(given).data).toEqual(PNG.sync.read(opaque).data);
    // Nothing to leave out: the same bytes.
    expect(pngForPdfkit(opaque)).toBe(opaque);
    // A palette image keeps its palette.
    const indexed = palettePng({
      width: 8,
      height: 8,
      bitDepth: 8,
      palette: [
        [0, 0, 0],
        [255, 255, 255],
      ],
    });
    expect(chunkTypes(pngForPdfkit(indexed))).toContain('PLTE');
    expect(await inspectAttachment(busy)).toEqual({
      contentType: 'image/png',
      width: 4,
      height: 3,
    });
  });

  it('refuses a PNG of too many chunks before decoding it', async () => {
    const max = limits.attachments.pngChunks;
    const idat = opaque.indexOf('IDAT', 8, 'latin1') - 4;
    const end = opaque.indexOf('IEND', 8, 'latin1') - 4;
    const empty = pngChunk('IDAT', Buffer.alloc(0));
    const many = Buffer.concat([
      opaque.subarray(0, end),
      ...Array.from({ length: max }, () => empty),
      opaque.subarray(end),
    ]);
    expect(idat).toBeLessThan(end);
    expect(pngChunkCount(many, max)).toBe(max + 1);
    expect(pngChunkCount(opaque, max)).toBe(3);
    await expect(inspectAttachment(many)).rejects.toThrow(`more than ${String(max)} chunks`);
  });
});

describe('printVersion', () => {
  it('scales a large image down to the print side, averaging the pixels each one covers', () => {
    const side = limits.attachments.printSide;
    // Columns alternately black and white, twice as wide as the page allows: each printed
    // pixel covers one of each, so every one is mid-grey ((0 + 255) / 2 = 127.5 → 128).
    const wide = rgba(2 * side, 6, (x) => (x % 2 === 0 ? [0, 0, 0, 255] : [255, 255, 255, 255]));
    const made = PNG.sync.read(printVersion(wide));
    expect([made.width, made.height]).toEqual([side, 3]);
    expect(new Set(made.data)).toEqual(new Set([128, 255]));
    for (let i = 3; i < made.data.length; i += 4) expect(made.data[i]).toBe(255);
  });

  it('lays transparent pixels on white before averaging, and writes RGB without alpha', () => {
    const image = rgba(
      3,
      1,
      (x) =>
        [
          [255, 0, 0, 128],
          [0, 0, 255, 0],
          [0, 200, 0, 255],
        ][x] ?? [],
    );
    const bytes = printVersionOfPng(encode(image));
    expect(bytes[25]).toBe(2); // IHDR colour type: RGB
    expect(needsPrintVersion(bytes)).toBe(false);
    const over = (c: number, a: number) => Math.round((c * a + 255 * (255 - a)) / 255);
    expect([...PNG.sync.read(bytes).data]).toEqual([
      ...[255, over(0, 128), over(0, 128), 255],
      ...[255, 255, 255, 255],
      ...[0, 200, 0, 255],
    ]);
  });
});

describe('the print version of a transparent palette PNG', () => {
  const palette: [number, number, number][] = [
    [255, 0, 0],
    [0, 0, 255],
    [0, 200, 0],
    [20, 20, 20],
  ];
  const alphas = [128, 0, 255]; // the fourth entry has none: opaque
  const over = (c: number, a: number) => Math.round((c * a + 255 * (255 - a)) / 255);

  it('is the same indexes with the palette laid on white, as small as the file', () => {
    const file = palettePng({ width: 300, height: 200, bitDepth: 2, palette, alphas });
    expect(needsPrintVersion(file)).toBe(true);
    const print = printVersionOfPng(file);
    expect(print[25]).toBe(3); // still a palette
    expect(print[24]).toBe(2); // of 2 bits
    expect(print.indexOf('tRNS', 0, 'latin1')).toBe(-1);
    expect(needsPrintVersion(print)).toBe(false);
    expect(print.length).toBeLessThanOrEqual(file.length);
    expect(print.length).toBeGreaterThan(file.length - 32);
    // Pixel by pixel, what the decoded file laid on white gives (the RGB way, independently).
    const original = PNG.sync.read(file);
    const printed = PNG.sync.read(print);
    for (let i = 0; i < original.data.length; i += 4) {
      const a = original.data[i + 3] as number;
      const expected = [0, 1, 2].map((c) => over(original.data[i + c] as number, a));
      expect([...printed.data.subarray(i, i + 3)], String(i)).toEqual(expected);
      expect(printed.data[i + 3]).toBe(255);
    }
    expect(PNG.sync.read(printVersion(original)).data).toEqual(printed.data);
  });

  it('is made from pixels where the palette PNG is interlaced or larger than the page', () => {
    const interlaced = palettePng({
      width: 30,
      height: 20,
      bitDepth: 8,
      palette,
      alphas,
      interlaced: true,
    });
    expect(printVersionOfPng(interlaced)[25]).toBe(2); // RGB
    const side = limits.attachments.printSide;
    const large = palettePng({ width: side + 1, height: 2, bitDepth: 1, palette, index: () => 0 });
    expect(printVersionOfPng(large)[25]).toBe(2);
  });
});
