import { Readable } from 'node:stream';
import { sql, type RawBuilder } from 'kysely';
import { limits } from '../limits.js';

/**
 * `length` bytes of a stored binary column from `offset` (0-based), computed in the database so
 * that only the slice leaves it. `substr` on a BLOB (SQLite) and on a `bytea` (PostgreSQL) counts
 * bytes from 1 on both backends.
 */
export function storedSlice(
  column: string,
  offset: number,
  length: number,
): RawBuilder<Uint8Array> {
  return sql<Uint8Array>`substr(${sql.ref(column)}, ${offset + 1}, ${length})`;
}

/** Reads `length` bytes from `offset` of one stored file; undefined when it is gone. */
export type ReadStoredChunk = (offset: number, length: number) => Promise<Uint8Array | undefined>;

/** A stored file to download: its size as stored, and its bytes chunk by chunk. */
export interface StoredBytes {
  size: number;
  stream(): Readable;
}

/**
 * The bytes of a stored file of `size` bytes, read `chunkBytes` at a time and only as fast as the
 * consumer takes them: a chunk is read once the one before it has left the stream's buffer, so a
 * download to a client that stops reading holds a chunk or two, not the file. Destroying the
 * stream (the client went away, the send deadline cut it) stops the reads. A file that is deleted
 * or changed while it is read ends the stream with an error rather than with other bytes.
 */
export function storedBytes(
  size: number,
  readChunk: ReadStoredChunk,
  chunkBytes: number = limits.downloads.chunkBytes,
): StoredBytes {
  return {
    size,
    stream() {
      let offset = 0;
      return new Readable({
        // One chunk waits in the stream at most; the next is read when it has been taken.
        highWaterMark: chunkBytes,
        read() {
          if (offset >= size) {
            this.push(null);
            return;
          }
          const length = Math.min(chunkBytes, size - offset);
          readChunk(offset, length).then(
            (chunk) => {
              if (this.destroyed) return;
              if (chunk?.byteLength !== length) {
                this.destroy(new Error(`stored file changed while read at byte ${String(offset)}`));
                return;
              }
              offset += length;
              this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            },
            (error: unknown) => this.destroy(error as Error),
          );
        },
      });
    },
  };
}
