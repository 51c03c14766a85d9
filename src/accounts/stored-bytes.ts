import { Readable } from 'node:stream';
import { limits } from '../limits.js';

/**
 * Stored files (covers, attachments) are kept in rows of `limits.downloads.chunkBytes` bytes, in
 * order (`seq` from 0): a download reads one row per chunk, which costs the database that row
 * only (a part of one large value cost SQLite the whole value). Reading works whatever size the
 * rows were cut at; a file of 0 bytes has no row.
 */
export function chunksOf(
  bytes: Uint8Array,
  chunkBytes: number = limits.downloads.chunkBytes,
): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += chunkBytes) {
    chunks.push(bytes.subarray(offset, offset + chunkBytes));
  }
  return chunks;
}

/** A stored file's rows, in order, as one buffer. */
export function joinedChunks(chunks: readonly Uint8Array[]): Buffer {
  return Buffer.concat(chunks);
}

/** Reads row `seq` of one stored file; undefined when there is none (or the file is gone). */
export type ReadStoredChunk = (seq: number) => Promise<Uint8Array | undefined>;

/** A stored file to download: its size as stored, and its bytes chunk by chunk. */
export interface StoredBytes {
  size: number;
  stream(): Readable;
}

/**
 * The bytes of a stored file of `size` bytes, read a row at a time and only as fast as the
 * consumer takes them: a row is read once the one before it has left the stream's buffer, so a
 * download to a client that stops reading holds a chunk or two, not the file. Destroying the
 * stream (the client went away, the send deadline cut it) stops the reads. A file that is deleted
 * while it is read, or whose rows do not add up to its size, ends the stream with an error rather
 * than with other bytes.
 */
export function storedBytes(size: number, readChunk: ReadStoredChunk): StoredBytes {
  return {
    size,
    stream() {
      let offset = 0;
      let seq = 0;
      return new Readable({
        // One chunk waits in the stream at most; the next is read when it has been taken.
        highWaterMark: limits.downloads.chunkBytes,
        read() {
          if (offset >= size) {
            this.push(null);
            return;
          }
          readChunk(seq).then(
            (chunk) => {
              if (this.destroyed) return;
              if (!chunk || chunk.byteLength === 0 || offset + chunk.byteLength > size) {
                this.destroy(new Error(`stored file changed while read at byte ${String(offset)}`));
                return;
              }
              offset += chunk.byteLength;
              seq += 1;
              this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            },
            (error: unknown) => this.destroy(error as Error),
          );
        },
      });
    },
  };
}
