import type { IncomingMessage } from 'node:http';
import { Busboy, type BusboyInstance } from '@fastify/busboy';

const CLOSED_EARLY = 'the request was closed before its body was complete';

/**
 * An upload's body as it arrives, watched beside the form parser, which reads the request stream
 * itself and sees only what it makes of it:
 * - its bytes are counted against a limit whatever the framing: a declared length is checked
 *   before reading, but a chunked body has none, and the parser skips, unseen, what lies before
 *   the first part and after the last (RFC 2046 preamble and epilogue);
 * - its parts are counted: the parser drops a part that is not a form field (no
 *   `Content-Disposition: form-data` with a name, or a file name holding a line break) without a
 *   word, so more parsers of the same kind, each limited to a number of parts, tell how many
 *   there were.
 */
export class UploadBody {
  private received = 0;
  private failure: Error | undefined;
  /** `beyond[k]`: whether the body has more than k parts. */
  private readonly beyond: boolean[];
  private readonly partCounters: BusboyInstance[] = [];

  /** Starts watching; call before the form parser starts reading. `maxParts`: how many parts
   * a well-formed form has at most (a counter for each count up to it). */
  constructor(
    private readonly request: IncomingMessage,
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
    maxParts = 1,
  ) {
    this.beyond = Array.from({ length: maxParts + 1 }, () => false);
    for (let k = 0; k <= maxParts; k++) {
      const counter = partCounter(request, k, () => {
        this.beyond[k] = true;
      });
      if (counter) this.partCounters.push(counter);
    }
    request.on('data', this.onData);
    // Listening makes the stream flow; paused again, it waits for the form parser, whose pipe
    // resumes it. This listener, the first, then sees every chunk before the parser does.
    request.pause();
  }

  /** Whether the body holds more than one part, counting those the form parser skipped. */
  get hasSeveralParts(): boolean {
    return this.hasPartsBeyond(1);
  }

  /** Whether the body holds more than `count` parts (0 to `maxParts`), counting those the
   * form parser skipped. */
  hasPartsBeyond(count: number): boolean {
    const k = Math.min(Math.max(count, 0), this.beyond.length - 1);
    return this.beyond[k] ?? false;
  }

  /**
   * Resolves once the whole body has arrived: what the form parser left unread (an epilogue) is
   * read, counted and dropped. Rejects, with `tooLarge()`, once the body is beyond the limit.
   */
  end(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const request = this.request;
    if (request.readableEnded) return Promise.resolve();
    if (request.destroyed) return Promise.reject(new Error(CLOSED_EARLY));
    return new Promise((resolve, reject) => {
      const settle = (error?: Error) => {
        request.off('end', onEnd).off('error', settle).off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onEnd = () => {
        settle();
      };
      const onClose = () => {
        settle(new Error(CLOSED_EARLY));
      };
      request.once('end', onEnd).once('error', settle).once('close', onClose);
      request.resume();
    });
  }

  private readonly onData = (chunk: Buffer): void => {
    this.received += chunk.length;
    if (this.received <= this.maxBytes) {
      for (const counter of this.partCounters) counter.write(chunk);
      return;
    }
    // Beyond the limit: nothing more is read, and the form parser, which listens for errors of
    // the request stream, stops with this one. (The parser still gets this chunk: it was handed
    // to every listener at once.)
    const request = this.request;
    request.off('data', this.onData);
    request.unpipe();
    request.pause();
    this.failure = this.tooLarge();
    const failure = this.failure;
    process.nextTick(() => {
      if (request.listenerCount('error') > 0) request.emit('error', failure);
    });
  };
}

/** A multipart parser that only counts parts: `onMore` once it meets part `max + 1`. */
function partCounter(
  request: IncomingMessage,
  max: number,
  onMore: () => void,
): BusboyInstance | undefined {
  const type = request.headers['content-type'];
  if (type === undefined) return undefined;
  let counter: BusboyInstance;
  try {
    counter = new Busboy({
      headers: { ...request.headers, 'content-type': type },
      // Files without a 'file' listener, and fields of no size, are dropped as they come.
      limits: { parts: max, fieldSize: 0 },
    });
  } catch {
    // No multipart type or boundary it can read: the form parser refuses the body.
    return undefined;
  }
  counter.on('partsLimit', onMore);
  // What is malformed is the form parser's to report.
  counter.on('error', () => undefined);
  return counter;
}
