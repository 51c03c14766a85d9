import type { Doc } from './page.js';
import { chunksOf, needsPrintVersion } from '../../../pdf/print-version.js';

/**
 * An image pdfkit's `image()` embeds by calling it, as it does its own PNG and JPEG images: it
 * takes any object with a size, a label and an `embed` method in place of bytes.
 */
interface EmbeddableImage {
  width: number;
  height: number;
  label: string;
  obj: PDFKit.PDFKitReference | null;
  embed(document: Doc): void;
}

/** Image labels within a document: pdfkit's own are I1, I2, … */
let embedded = 0;

const COLOURS: Record<number, { colors: number; space: string } | undefined> = {
  0: { colors: 1, space: 'DeviceGray' },
  2: { colors: 3, space: 'DeviceRGB' },
  3: { colors: 1, space: 'Indexed' },
};

/**
 * A PNG that pdfkit would embed without decoding (opaque, at most 8 bits, not interlaced:
 * `needsPrintVersion` false, as every PNG a report draws is once it has its print version),
 * embedded as pdfkit does — its image data unchanged, as a Flate stream with the PNG predictor —
 * without pdfkit's PNG reader, which copies the image data into a JavaScript array a byte at a
 * time: 0.7 s of the one render worker for a 17 MB 2,400 × 2,400 photo, every report.
 * Undefined for any other PNG (pdfkit reads those itself).
 */
export function pngXObject(bytes: Buffer): EmbeddableImage | undefined {
  if (needsPrintVersion(bytes)) return undefined;
  const colorType = bytes[25] ?? -1;
  const bits = bytes[24] ?? 0;
  const colour = COLOURS[colorType];
  if (!colour || ![1, 2, 4, 8].includes(bits)) return undefined;
  const chunks = chunksOf(bytes);
  const data = Buffer.concat(
    chunks.filter((c) => c.type === 'IDAT').map((c) => bytes.subarray(c.start, c.end)),
  );
  const plte = chunks.find((c) => c.type === 'PLTE');
  if (colorType === 3 && !plte) return undefined;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  embedded += 1;
  const image: EmbeddableImage = {
    width,
    height,
    label: `PNG${String(embedded)}`,
    obj: null,
    embed(document) {
      const params = {
        Predictor: 15,
        Colors: colour.colors,
        BitsPerComponent: bits,
        Columns: width,
      };
      let colorSpace: unknown = colour.space;
      if (plte && colorType === 3) {
        const palette = document.ref({});
        palette.end(Buffer.from(bytes.subarray(plte.start, plte.end)));
        colorSpace = ['Indexed', 'DeviceRGB', (plte.end - plte.start) / 3 - 1, palette];
      }
      const obj = document.ref({
        Type: 'XObject',
        Subtype: 'Image',
        BitsPerComponent: bits,
        Width: width,
        Height: height,
        Filter: 'FlateDecode',
        DecodeParms: params,
        ColorSpace: colorSpace,
      });
      obj.end(data);
      image.obj = obj;
    },
  };
  return image;
}

/**
 * Draws image bytes as pdfkit would, a PNG through `pngXObject` where it applies. pdfkit's
 * types name bytes and paths only, but its `image()` takes an image object as well (what its
 * `openImage` returns), which is how this one reaches it.
 */
export function drawImage(
  document: Doc,
  bytes: Buffer,
  x: number,
  y: number,
  size: { width: number; height: number },
): void {
  let images = opened.get(document);
  if (!images) {
    images = new WeakMap();
    opened.set(document, images);
  }
  let image = images.get(bytes);
  if (!image) {
    image =
      (bytes[0] === 0x89 ? pngXObject(bytes) : undefined) ?? opener(document).openImage(bytes);
    images.set(bytes, image);
  }
  document.image(image as Buffer, x, y, size);
}

/**
 * The images a document has opened, by the bytes they were opened from: bytes drawn again (a
 * brochure's lead photo, shown again among the photos) are the same image object, which pdfkit
 * embeds once. Opened from bytes anew, it embeds them again (a 16 MB photo twice).
 */
const opened = new WeakMap<Doc, WeakMap<Buffer, object>>();

/** pdfkit's `openImage`, which its types do not name. */
const opener = (document: Doc) => document as unknown as { openImage(bytes: Buffer): object };
