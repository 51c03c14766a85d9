import net from 'node:net';

/**
 * One TCP connection to a listening server, driven byte by byte: for clients no HTTP library
 * would send (stalled headers, trickled bodies, idle keep-alive connections).
 */
export class RawConnection {
  private received = Buffer.alloc(0);
  private readonly waiters: (() => void)[] = [];
  /**
   * When the connection was opened, by `performance.now()`: taken before connecting, so that it
   * is never later than the moment the server saw the connection (its deadlines start there; a
   * time taken in the connect callback ran late on a busy machine, and a closing measured from
   * it came out a few ms short of the deadline).
   */
  readonly openedAt: number;
  /** Resolves when the server (or the network) has closed the connection, at `performance.now()`. */
  readonly closed: Promise<number>;
  private isClosed = false;

  private constructor(
    private readonly socket: net.Socket,
    openedAt: number,
  ) {
    this.openedAt = openedAt;
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.isClosed = true;
        this.wake();
        resolve(performance.now());
      });
    });
    // A reset by the server is a way of closing too; 'close' follows.
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const openedAt = performance.now();
      const socket = net.connect({ port, host: '127.0.0.1' }, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket, openedAt));
      });
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  /** Sends bytes unless the connection is gone. */
  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  /** Sends one chunk every `everyMs` until all are sent or the connection is closed. */
  async trickle(chunks: readonly (string | Buffer)[], everyMs: number): Promise<void> {
    for (const chunk of chunks) {
      if (!this.isOpen) return;
      this.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  /** Everything received so far, as text. */
  text(): string {
    return this.received.toString('latin1');
  }

  /**
   * The next complete response (head and `Content-Length` body) received after `from` bytes;
   * rejects if the connection closes first.
   */
  async response(from = 0): Promise<{ head: string; body: string; end: number }> {
    for (;;) {
      const text = this.received.toString('latin1', from);
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd >= 0) {
        const head = text.slice(0, headEnd);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        const bodyStart = headEnd + 4;
        if (text.length >= bodyStart + length) {
          return {
            head,
            body: text.slice(bodyStart, bodyStart + length),
            end: from + bodyStart + length,
          };
        }
      }
      if (!this.isOpen) throw new Error(`connection closed; received ${JSON.stringify(text)}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

/** `payload` in HTTP/1.1 chunked transfer coding, `size` bytes a chunk, with the last chunk. */
export function chunked(payload: Buffer, size = 64 * 1024): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < payload.length; at += size) {
    const chunk = payload.subarray(at, at + size);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
