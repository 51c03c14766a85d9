import { Busboy } from '@fastify/busboy';
import { describe, expect, it } from 'vitest';
import { installMultipartPauseFix } from './multipart-pause-fix.js';

installMultipartPauseFix();

const file = (bytes: number) =>
  Buffer.concat([
    Buffer.from(
      '--B\r\nContent-Disposition: form-data; name="cover"; filename="a.pdf"\r\n' +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    Buffer.alloc(bytes, 0x41),
  ]);
/** A part without any header: the parser skips it. */
const headerless = (bytes: number) =>
  Buffer.concat([Buffer.from('\r\n--B\r\n\r\n'), Buffer.alloc(bytes, 0x78)]);
const field = (bytes: number) =>
  Buffer.concat([
    Buffer.from('\r\n--B\r\nContent-Disposition: form-data; name="type"\r\n\r\n'),
    Buffer.alloc(bytes, 0x61),
  ]);
const END = Buffer.from('\r\n--B--\r\n');

/**
 * What the parser reported of `body` written in pieces of `piece` bytes, each once the one
 * before is taken (as a request's body is piped): its files, fields and whether it finished,
 * after the event loop has had every turn it needs (no clock involved).
 */
async function parse(body: Buffer, piece: number) {
  const parser = new Busboy({ headers: { 'content-type': 'multipart/form-data; boundary=B' } });
  const seen: string[] = [];
  let finished = false;
  parser.on('file', (name: string, stream: NodeJS.ReadableStream) => {
    seen.push(`file ${name}`);
    stream.resume();
  });
  parser.on('field', (name: string) => seen.push(`field ${name}`));
  parser.on('finish', () => {
    finished = true;
  });
  let taken = true;
  for (let at = 0; at < body.length && taken; at += piece) {
    taken = await new Promise<boolean>((resolve) => {
      parser.write(body.subarray(at, at + piece), () => {
        resolve(true);
      });
      // A write never taken leaves the loop after the event loop's turns run out.
      void idle().then(() => {
        resolve(false);
      });
    });
  }
  if (taken) parser.end();
  await idle();
  return { seen, finished };
}

/** Lets the event loop run its pending turns. */
async function idle(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the form parser with the pause fix', () => {
  it('finishes a form whose skipped part of more than 16 KB arrives with the boundary after it', async () => {
    const bodies = {
      'file, header-less part': Buffer.concat([file(10), headerless(20_000), END]),
      'file, header-less part, field': Buffer.concat([file(10), headerless(20_000), field(5), END]),
      'three header-less parts, then the file': Buffer.concat([
        Buffer.from('--B\r\n\r\n'),
        Buffer.alloc(20_000, 0x78),
        headerless(20_000),
        headerless(20_000),
        Buffer.from(
          '\r\n--B\r\nContent-Disposition: form-data; name="cover"; filename="a"\r\n\r\n',
        ),
        Buffer.alloc(30_000, 0x41),
        END,
      ]),
      'a large file alone': Buffer.concat([file(100_000), END]),
    };
    for (const [what, body] of Object.entries(bodies)) {
      // In one piece, in a request's usual 64 KiB pieces, in pieces smaller than a part's buffer,
      // and cut inside the header of the part after a skipped one.
      const cut = body.indexOf('Content-Disposition', 20_000) + 5;
      for (const piece of [body.length, 65_536, 16_384, cut > 5 ? cut : 1000]) {
        const parsed = await parse(body, piece);
        expect(parsed.finished, `${what}, pieces of ${String(piece)}`).toBe(true);
        expect(parsed.seen, what).toContain('file cover');
      }
    }
  });
});
