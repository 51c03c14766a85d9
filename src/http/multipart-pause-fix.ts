import { busboyModule } from './busboy-internals.js';

/** The state of the multipart parser (`@fastify/busboy`'s Dicer) this fix reads and sets. */
interface DicerState {
  _pause: boolean;
  _cb: (() => void) | undefined;
  _part: unknown;
  _inHeader: boolean;
  _write: (this: DicerState, data: Buffer, encoding: string, cb: () => void) => void;
}

let installed = false;

/**
 * The form parser (`@fastify/busboy` 3.2.6, under `@fastify/multipart`) holds back a write while
 * a part it has just filled beyond its buffer (16 KB) is read, and lets the next write in when
 * that part asks for more or, if it counted the part, when the part ends. A part it skips (one
 * without a form field's header, or beyond the form's parts) whose data and closing boundary
 * arrive in one write is not counted (its data came before the boundary was seen) and asks for
 * nothing once ended: the write is never let go, the parser waits for ever, and so did the
 * upload (a 20 kB header-less part after the file, on every upload route, held each connection
 * unanswered past the request timeout; four of them took an organization's whole upload
 * allowance, and 800 every connection slot of the server).
 *
 * Fixed here: a write still held once no part is open — or only one whose header has not been
 * read, which has no data yet — is let go. The parts that held it have ended; their readers
 * still get what they buffered, and new data goes to new parts with buffers of their own, so
 * nothing waits for memory that could be freed. Installed for the whole process (every form
 * parser is one of these); idempotent.
 */
export function installMultipartPauseFix(): void {
  if (installed) return;
  installed = true;
  const Dicer = busboyModule('deps/dicer/lib/Dicer.js') as { prototype: DicerState };
  const write = Dicer.prototype._write;
  Dicer.prototype._write = function patchedWrite(this: DicerState, data, encoding, cb) {
    write.call(this, data, encoding, cb);
    const held = this._cb;
    if (!this._pause || held === undefined) return;
    if (this._part !== undefined && !this._inHeader) return;
    this._pause = false;
    this._cb = undefined;
    held();
  };
}
