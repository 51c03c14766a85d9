import type { IncomingMessage } from 'node:http';
import { multipartBoundary, PartCount } from './part-count.js';

const CLOSED_EARLY = 'the request was closed before its body was complete';

/**
 * An upload's body as it arrives, watched beside the form parser, which reads the request stream
 * itself and sees only what it makes of it:
 * - its bytes are counted against a limit whatever the framing: a declared length is checked
 *   before reading, but a chunked body has none, and the parser skips, unseen, what lies before
 *   the first part and after the last (RFC 2046 preamble and epilogue);
 * - its parts are counted (`PartCount`): the parser drops a part that is not a form field (no
 *   `Content-Disposition: form-data` with a name, or a file name holding a line break) without a
 *   word.
 * Once the form is refused (`stop`), nothing more of it is parsed.
 */
export class UploadBody {
  private received = 0;
  private failure: Error | undefined;
  private readonly parts: PartCount | undefined;

  /** Starts watching; call before the form parser starts reading. `maxParts`: how many parts
   * a well-formed form has at most (the count stops beyond it). */
  constructor(
    private readonly request: IncomingMessage,
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
    maxParts = 1,
  ) {
    const type = request.headers['content-type'];
    // Without a boundary the form parser refuses the body.
    const boundary = type === undefined ? undefined : multipartBoundary(type);
    this.parts = boundary === undefined ? undefined : new PartCount(boundary, maxParts);
    request.on('data', this.onData);
    // Listening makes the stream flow; paused again, it waits for the form parser, whose pipe
    // resumes it. This listener, the first, then sees every chunk before the parser does.
    request.pause();
  }

  /**
   * Stops parsing the body: the form is refused, and what is left of it would only cost the
   * parsers (a body of many tiny parts is refused at its first wrong part, and had been parsed
   * to its end all the same). What arrives until the answer closes the connection is read and
   * dropped unparsed, so that a client still sending can take the answer.
   */
  stop(): void {
    const request = this.request;
    request.off('data', this.onData);
    request.unpipe();
    request.resume();
  }

  /** Whether the body holds more than `count` parts (0 to `maxParts`), counting those the
   * form parser skipped. */
  hasPartsBeyond(count: number): boolean {
    return this.parts !== undefined && this.parts.count > count;
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
      this.parts?.write(chunk);
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
