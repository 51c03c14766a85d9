import PDFKitDocument from 'pdfkit';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { handMadePng, makePng, palettePng } from '../../../../test/helpers/images.js';
import { chunksOf, pngChunk } from '../../../pdf/print-version.js';
import { drawImage, pngXObject } from './png-xobject.js';

/** A PDF of one page showing `bytes`, drawn by pdfkit itself or through `drawImage`. */
async function pdfShowing(bytes: Buffer, how: 'pdfkit' | 'drawImage'): Promise<Buffer> {
  const doc = new PDFKitDocument({ size: [300, 300] });
  const parts: Buffer[] = [];
  doc.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  const size = { width: 200, height: 150 };
  if (how === 'pdfkit') doc.image(bytes, 10, 10, size);
  else drawImage(doc, bytes, 10, 10, size);
  doc.end();
  await ended;
  return Buffer.concat(parts);
}

/** A value with references followed and streams decoded, to compare two files' images. */
function resolved(document: PDFDocument, value: PDFObject | undefined): unknown {
  const object = value instanceof PDFRef ? document.context.lookup(value) : value;
  if (object instanceof PDFRawStream) {
    return {
      dict: resolved(document, object.dict),
      data: [...decodePDFRawStream(object).decode()],
    };
  }
  if (object instanceof PDFArray) return object.asArray().map((v) => resolved(document, v));
  if (object instanceof PDFDict) {
    return Object.fromEntries(
      object
        .entries()
        .filter(([key]) => key.asString() !== '/Length')
        .map(([key, v]) => [key.asString(), resolved(document, v)]),
    );
  }
  return object?.toString();
}

/** The image XObject of a one-image PDF: its dictionary resolved, its data as stored. */
async function imageOf(pdf: Buffer) {
  const document = await PDFDocument.load(pdf);
  const images = document.context
    .enumerateIndirectObjects()
    .filter(
      ([, o]) =>
        o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
    );
  expect(images).toHaveLength(1);
  const stream = images[0]?.[1] as PDFRawStream;
  return { dict: resolved(document, stream.dict), data: Buffer.from(stream.contents) };
}

/** `makePng`'s gradient written as RGB (pngjs writes RGBA unless told). */
function rgbPng(width: number, height: number): Buffer {
  return PNG.sync.write(PNG.sync.read(makePng(width, height)), { colorType: 2 });
}

function grayPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.fill((i * 5) % 256, i * 4, i * 4 + 3);
  png.data.forEach((_, i) => {
    if (i % 4 === 3) png.data[i] = 255;
  });
  return PNG.sync.write(png, { colorType: 0 });
}

/** The same image with its data cut into chunks of at most `size` bytes. */
function splitData(bytes: Buffer, size: number): Buffer {
  const chunks = chunksOf(bytes);
  const data = Buffer.concat(
    chunks.filter((c) => c.type === 'IDAT').map((c) => bytes.subarray(c.start, c.end)),
  );
  const idat: Buffer[] = [];
  for (let at = 0; at < data.length; at += size)
    idat.push(pngChunk('IDAT', data.subarray(at, at + size)));
  const ihdr = chunks[0] as { start: number; end: number };
  return Buffer.concat([
    bytes.subarray(0, 8),
    bytes.subarray(ihdr.start - 8, ihdr.end + 4),
    ...idat,
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PALETTE: [number, number, number][] = [
  [0, 0, 0],
  [200, 30, 30],
  [30, 200, 30],
  [250, 250, 250],
];

describe('pngXObject', () => {
  it('embeds a PNG exactly as pdfkit does, without its PNG reader', async () => {
    const cases: Record<string, Buffer> = {
      rgb: rgbPng(120, 80),
      gray: grayPng(90, 70),
      'palette, 1 bit': palettePng({
        width: 33,
        height: 17,
        bitDepth: 1,
        palette: PALETTE.slice(0, 2),
      }),
      'palette, 2 bits': palettePng({ width: 61, height: 40, bitDepth: 2, palette: PALETTE }),
      'palette, 4 bits': palettePng({ width: 45, height: 9, bitDepth: 4, palette: PALETTE }),
      'palette, 8 bits': palettePng({ width: 64, height: 64, bitDepth: 8, palette: PALETTE }),
      'data in many chunks': splitData(rgbPng(200, 100), 1000),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      expect(pngXObject(bytes), name).toBeDefined();
      const ours = await imageOf(await pdfShowing(bytes, 'drawImage'));
      const theirs = await imageOf(await pdfShowing(bytes, 'pdfkit'));
      expect(ours.dict, name).toEqual(theirs.dict);
      expect(ours.data.equals(theirs.data), name).toBe(true);
    }
  });

  it('leaves to pdfkit what it must decode: interlaced, transparent or 16-bit PNGs', async () => {
    expect(pngXObject(handMadePng(20, 20, true))).toBeUndefined();
    expect(pngXObject(makePng(20, 20))).toBeUndefined(); // RGBA
    const transparent = palettePng({
      width: 8,
      height: 8,
      bitDepth: 2,
      palette: PALETTE,
      alphas: [0],
    });
    expect(pngXObject(transparent)).toBeUndefined();
    const deep = new PNG({ width: 4, height: 4, bitDepth: 16 });
    deep.data.fill(255);
    expect(pngXObject(PNG.sync.write(deep, { colorType: 2, bitDepth: 16 }))).toBeUndefined();
    // Drawn through drawImage all the same, by pdfkit.
    const interlaced = handMadePng(20, 20, true);
    const ours = await imageOf(await pdfShowing(interlaced, 'drawImage'));
    const theirs = await imageOf(await pdfShowing(interlaced, 'pdfkit'));
    expect(ours).toEqual(theirs);
  });
});
