import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { limits } from '../limits.js';

/** The process's soft limit of open files (Linux `/proc/self/limits`), if it can be read. */
export function openFilesLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1];
  if (soft === undefined) return undefined;
  return soft === 'unlimited' ? Infinity : Number(soft);
}

/** The connections a process may hold under an open-files limit (`limits.connections`). */
export function defaultMaxConnections(openFiles: number | undefined): number {
  const { shareOfOpenFiles, reservedFiles, ceiling, fallback } = limits.connections;
  if (openFiles === undefined) return fallback;
  const share = Math.floor(openFiles * shareOfOpenFiles) - reservedFiles;
  return Math.max(16, Math.min(ceiling, share));
}

/** How often at most a refused connection is logged. */
const LOG_EVERY_MS = 60_000;

/** How often at most the idle connections are closed: each time walks every connection, and a
 * flood of new connections at the cap must not make it run thousands of times a second. */
const FREE_EVERY_MS = 1000;

/**
 * Caps the server's open connections at `max`: a connection beyond it is closed as soon as it
 * is accepted, and such a refusal also closes the idle keep-alive connections (at most once a
 * second), so that clients holding connections they do not use cannot keep others out for the
 * keep-alive timeout. Connections with a request under way are kept; slow ones end at the
 * request timeouts. Counted here rather than by Node's `maxConnections`: under `--workers` (the
 * cluster module) a worker at that limit hands the connection back to the primary, which offers
 * it to the next worker and back again, burning the cores while the connection hangs.
 */
export function capConnections(server: Server, max: number, log: FastifyBaseLogger): void {
  let open = 0;
  let dropped = 0;
  let loggedAt = -Infinity;
  let freedAt = -Infinity;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      socket.destroy();
      refused();
      return;
    }
    open += 1;
    socket.once('close', () => (open -= 1));
  });
  function refused(): void {
    dropped += 1;
    const now = Date.now();
    if (now - freedAt >= FREE_EVERY_MS) {
      server.closeIdleConnections();
      freedAt = now;
    }
    if (now - loggedAt >= LOG_EVERY_MS) {
      log.warn(
        { maxConnections: max, dropped },
        'connection limit reached: new connections closed, idle ones freed',
      );
      loggedAt = now;
      dropped = 0;
    }
  }
}
