import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** A PNG of `width`×`height` pixels: a gradient, so it does not compress to nothing. */
export function makePng(width = 64, height = 48): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = (i * 7) % 256;
    png.data[i * 4 + 1] = (i * 13) % 256;
    png.data[i * 4 + 2] = 180;
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** A PNG of random pixels, stored without compression: a file of about `width × height × 4`
 * bytes, for tests of sizes. */
export function makeLargePng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  randomBytes(width * height * 4).copy(png.data);
  return PNG.sync.write(png, { deflateLevel: 0 });
}

/** A JPEG of `width`×`height` pixels. */
export function makeJpeg(width = 64, height = 48): Buffer {
  const data = Buffer.alloc(width * height * 4, 200);
  return Buffer.from(jpeg.encode({ data, width, height }, 80).data);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A small PNG whose header declares `width`×`height` pixels: a decompression bomb if decoded. */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const valid = makePng(4, 4);
  // The real image data of a 4×4 image: its IDAT would not fill the declared size.
  const idat = valid.subarray(33, valid.length - 12);
  return Buffer.concat([
    valid.subarray(0, 8),
    chunk('IHDR', header),
    idat,
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose frame header declares `width`×`height` pixels. */
export function jpegBomb(width: number, height: number): Buffer {
  const bytes = Buffer.from(makeJpeg(8, 8));
  for (let at = 2; at < bytes.length;) {
    const marker = bytes[at + 1] as number;
    if (marker === 0xc0 || marker === 0xc2) {
      bytes.writeUInt16BE(height, at + 5);
      bytes.writeUInt16BE(width, at + 7);
      return bytes;
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('no frame header');
}
