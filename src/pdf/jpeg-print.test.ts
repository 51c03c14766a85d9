import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { makeJpeg } from '../../test/helpers/images.js';
import { inspectAttachment } from './image-inspection.js';
import { jpegWithoutFill, pdfkitRefusal } from './jpeg-print.js';

/** `bytes` with `count` fill bytes (0xFF) put before the marker at `at`. */
function withFill(bytes: Buffer, at: number, count: number): Buffer {
  return Buffer.concat([bytes.subarray(0, at), Buffer.alloc(count, 0xff), bytes.subarray(at)]);
}

/** Where the frame header (SOF0) of a JPEG jpeg-js wrote starts. */
function frameHeader(bytes: Buffer): number {
  const at = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  if (at < 0) throw new Error('no SOF0');
  return at;
}

describe('JPEGs with fill bytes', () => {
  const plain = makeJpeg(64, 48);

  it('are made printable without their fill bytes before the frame header', async () => {
    for (const file of [withFill(plain, frameHeader(plain), 3), withFill(plain, 2, 1)]) {
      // Decoders show the file; pdfkit, which reports draw with, refuses it.
      expect(jpeg.decode(file, { useTArray: true }).width).toBe(64);
      expect(await pdfkitRefusal(file)).toMatch(/JPEG/);
      const print = jpegWithoutFill(file);
      expect(print?.equals(plain)).toBe(true);
      expect(await pdfkitRefusal(print ?? file)).toBeUndefined();
    }
    expect(jpegWithoutFill(plain)).toBeUndefined();
    expect(await pdfkitRefusal(plain)).toBeUndefined();
  });

  it('are accepted as attachments with that print version; a plain one needs none', async () => {
    const file = withFill(plain, frameHeader(plain), 2);
    const facts = await inspectAttachment(file);
    expect(facts).toMatchObject({ contentType: 'image/jpeg', width: 64, height: 48 });
    expect('print' in facts && Buffer.from(facts.print ?? []).equals(plain)).toBe(true);
    expect(await inspectAttachment(plain)).toEqual({
      contentType: 'image/jpeg',
      width: 64,
      height: 48,
    });
  });
});
