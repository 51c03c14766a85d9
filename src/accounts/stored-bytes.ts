import type { ByteRange } from '../http/byte-range.js';
import { Readable } from 'node:stream';
import { limits } from '../limits.js';
import { FairQueue } from '../work/fair-queue.js';

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

/**
 * The reads of stored files' rows under way in this process, organizations taking turns. A row
 * costs the server's one thread more than its query (on PostgreSQL, 5–9 ms a MiB to decode the
 * `bytea` the driver hands over as hex text, measured on 2026-11-25): one organization's 48
 * downloads in flight, each reading its next row as soon as its client took the last, had kept
 * the thread decoding rows while other organizations' requests waited behind them (their median
 * 2 → 985 ms). A row is read in its organization's turn, `limits.downloads.rowReadsAtOnce` at a
 * time, so another organization's request waits for at most those. A row waits as long as its
 * download may take (the send deadline), and each open download waits for one row at most.
 */
const rowReads = new FairQueue({
  slots: limits.downloads.rowReadsAtOnce,
  perOrganization: 1,
  waitingPerOrganization: Number.POSITIVE_INFINITY,
  maxWaitMs: limits.timeouts.sendMs,
});

/** Reads row `seq` of one stored file; undefined when there is none (or the file is gone). */
export type ReadStoredChunk = (seq: number) => Promise<Uint8Array | undefined>;

/** A stored file to download: its size as stored, and its bytes chunk by chunk. */
export interface StoredBytes {
  size: number;
  /**
   * The bytes, or those of `range` (offsets within the file, both included), once the first of
   * them are read: a file deleted before then is `StoredFileGone`, which a download can still
   * answer as such (its status and headers are not sent yet).
   */
  open(range?: ByteRange): Promise<Readable>;
}

/** A stored file that changed or went while it was read: deleted, or rows not adding up. */
export class StoredFileChanged extends Error {}

/** A stored file deleted while it was read: a row it had is gone. */
export class StoredFileGone extends StoredFileChanged {}

/**
 * The bytes of a stored file of `size` bytes, read a row at a time and only as fast as the
 * consumer takes them: a row is read once the one before it has left the stream's buffer, so a
 * download to a client that stops reading holds a chunk or two, not the file. Destroying the
 * stream (the client went away, the send deadline cut it) stops the reads. A file that is deleted
 * while it is read, or whose rows do not add up to its size, ends the stream with an error rather
 * than with other bytes.
 *
 * Rows are read in `organizationId`'s turn (`rowReads`).
 *
 * A range is read from the row that holds its first byte: a file's rows are all cut at one size
 * but the last (`chunksOf`), which row 0 tells, so a range far into the file costs row 0 and its
 * own rows, not the ones between; when rows skipped so turn out not to be of one size, the stream
 * ends with an error.
 */
export function storedBytes(
  size: number,
  readChunk: ReadStoredChunk,
  organizationId: string,
): StoredBytes {
  const whole = { start: 0, end: size - 1 };
  /** A stream that starts with `first` (already read), then reads on with `next`. */
  const streamOf = (next: () => Promise<Buffer | null>, first: Buffer | null): Readable => {
    let pending: Buffer | null | undefined = first;
    return new Readable({
      // One chunk waits in the stream at most; the next is read when it has been taken.
      highWaterMark: limits.downloads.chunkBytes,
      read() {
        if (pending !== undefined) {
          this.push(pending);
          pending = undefined;
          return;
        }
        next().then(
          (bytes) => {
            if (!this.destroyed) this.push(bytes);
          },
          (error: unknown) => this.destroy(error as Error),
        );
      },
    });
  };
  return {
    size,
    async open(range = whole) {
      const next = rowReader(size, range, (seq) =>
        rowReads.run(organizationId, () => readChunk(seq)),
      );
      return streamOf(next, await next());
    },
  };
}

/**
 * The bytes of `range` of a file of `size` bytes, a row's share at a time (null: the range is
 * done), read by `read` (row `seq`, undefined where there is none).
 */
function rowReader(
  size: number,
  range: ByteRange,
  read: (seq: number) => Promise<Uint8Array | undefined>,
): () => Promise<Buffer | null> {
  /** File offset of row `seq`, the next to read. */
  let offset = 0;
  let seq = 0;
  /** The size rows are cut at, once row 0 has told it. */
  let cut: number | undefined;
  const next = async (): Promise<Buffer | null> => {
    // Reads rows until one holds bytes of the range.
    for (;;) {
      if (offset > range.end || offset >= size) return null;
      const chunk = await read(seq);
      const length = chunk?.byteLength ?? 0;
      const last = offset + length === size;
      // A range reached by skipping rows relies on their one size.
      const odd = cut !== undefined && range.start >= cut && length !== cut && !last;
      if (!chunk || length === 0 || offset + length > size || odd) {
        const message = `stored file changed while read at byte ${String(offset)}`;
        throw chunk ? new StoredFileChanged(message) : new StoredFileGone(message);
      }
      const from = Math.max(0, range.start - offset);
      const to = Math.min(length, range.end + 1 - offset);
      cut ??= length;
      offset += length;
      seq += 1;
      if (offset <= range.start) {
        // Straight to the row that holds the range's first byte.
        seq = Math.floor(range.start / cut);
        offset = seq * cut;
      }
      if (from < to) return Buffer.from(chunk.buffer, chunk.byteOffset + from, to - from);
    }
  };
  return next;
}
