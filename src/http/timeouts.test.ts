import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { limits } from '../limits.js';
import { openStores } from '../stores.js';
import { coverForm } from '../../test/helpers/multipart.js';
import { makePdf, pdfOfSize } from '../../test/helpers/pdf.js';
import { expectRawProblem, rawHeaders } from '../../test/helpers/problem.js';
import { RawConnection } from '../../test/helpers/raw-http.js';
import { createWorld, testConfig, type World } from '../../test/helpers/world.js';

/*
 * Slow and idle clients against a real listening server: the deadlines of `limits.timeouts` (and
 * PROPDATA_KEEP_ALIVE_TIMEOUT_MS), shortened so that the suite takes seconds. A deadline may
 * fire late by the check interval and by a loaded machine's scheduling, never early: lower bounds
 * are exact; upper bounds are far above any lateness and only tell the deadlines apart, which
 * are chosen far apart for that.
 */

const HEADERS_MS = 300;
/** The request deadline where the header deadline is tested: far beyond it. */
const LONG_REQUEST_MS = 60_000;
/** The request deadline where it is itself tested. */
const REQUEST_MS = 2000;
/** Long enough that the client's next request, sent at once, cannot miss it on a loaded machine. */
const KEEP_ALIVE_MS = 3000;
const CHECK_MS = 50;
/** The send deadline where it is tested. */
const SEND_MS = 1000;
/** Node keeps an idle socket up to 1 s beyond the keep-alive timeout it announces. */
const NODE_KEEP_ALIVE_GRACE_MS = 1000;
/** Lateness tolerated, even on a loaded machine. */
const LATE_MS = 10_000;

describe('server deadlines by default', () => {
  it('are those of src/limits.ts and the configuration', async () => {
    const config = await testConfig('sqlite');
    const stores = await openStores(config);
    try {
      const app = await buildApp({ config, stores });
      expect(app.server.headersTimeout).toBe(limits.timeouts.headersMs);
      expect(app.server.requestTimeout).toBe(limits.timeouts.requestMs);
      expect(app.server.keepAliveTimeout).toBe(limits.timeouts.defaultKeepAliveMs);
      expect(limits.timeouts).toMatchObject({
        headersMs: 10_000,
        requestMs: 30_000,
        defaultKeepAliveMs: 72_000,
        checkIntervalMs: 1_000,
        sendMs: 60_000,
      });
      await app.close();
    } finally {
      await stores.close();
    }
  });

  it('refuse to start with a header deadline beyond the request deadline', async () => {
    const config = await testConfig('sqlite');
    const stores = await openStores(config);
    try {
      await expect(
        buildApp({ config, stores, timeouts: { headersMs: 2000, requestMs: 1000 } }),
      ).rejects.toThrow(/headersTimeout/);
    } finally {
      await stores.close();
    }
  });
});

describe('slow and idle clients on a real socket', () => {
  interface Server {
    world: World;
    port: number;
    requestMs: number;
  }
  const servers: Server[] = [];
  const listening = async (
    requestMs: number,
    send?: { sendMs: number; log: string[] },
  ): Promise<Server> => {
    const world = await createWorld('sqlite', {
      env: {
        PROPDATA_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
        ...(send ? { LOG_LEVEL: 'info' } : {}),
      },
      app: {
        timeouts: {
          headersMs: HEADERS_MS,
          requestMs,
          checkIntervalMs: CHECK_MS,
          ...(send ? { sendMs: send.sendMs } : {}),
        },
        ...(send ? { logStream: { write: (line: string) => void send.log.push(line) } } : {}),
      },
    });
    await world.app.listen({ port: 0, host: '127.0.0.1' });
    const server = { world, port: (world.app.server.address() as AddressInfo).port, requestMs };
    servers.push(server);
    return server;
  };
  /** Header deadline and keep-alive: the request deadline is out of reach. */
  let slow: Server;
  /** The request deadline. */
  let strict: Server;
  beforeAll(async () => {
    slow = await listening(LONG_REQUEST_MS);
    strict = await listening(REQUEST_MS);
  });
  afterAll(() => Promise.all(servers.map((s) => s.world.close())));

  /** The one answer on `connection`: a 408 problem+json naming both deadlines, then the end. */
  const expectTimeoutAnswer = async (server: Server, connection: RawConnection, name: string) => {
    const answer = await connection.response();
    const problem = expectRawProblem(answer, 408, 'request_timeout');
    expect(problem.detail, name).toContain(`${String(HEADERS_MS / 1000)} s`);
    expect(problem.detail, name).toContain(`${String(server.requestMs / 1000)} s`);
    expect(rawHeaders(answer).connection, name).toBe('close');
    expect(connection.text().length, name).toBe(answer.end);
  };

  /** How long after it was opened the server closed `connection`. */
  const closedAfter = async (connection: RawConnection) =>
    (await connection.closed) - connection.openedAt;

  const storedCovers = async (server: Server) => {
    const row = await server.world.stores.accounts.db
      .selectFrom('cover_chunks')
      .select((eb) => eb.fn.count<string | number>('cover_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** The server still answers new connections. */
  const expectServing = async (server: Server) => {
    const connection = await RawConnection.open(server.port);
    connection.write('GET /health HTTP/1.1\r\nHost: propdata\r\nConnection: close\r\n\r\n');
    expect((await connection.response()).head).toMatch(/^HTTP\/1\.1 200 /);
    connection.destroy();
  };

  it('headers timeout (limits.timeouts.headersMs): stalled, trickled or missing headers get a 408 problem and the connection closed', async () => {
    const stalled = await RawConnection.open(slow.port);
    stalled.write('GET /health HTTP/1.1\r\nHost: propdata\r\n');
    // Slow-loris: a new header line every 50 ms, never the blank line that ends them.
    const trickled = await RawConnection.open(slow.port);
    trickled.write('GET /health HTTP/1.1\r\nHost: propdata\r\n');
    void trickled.trickle(
      Array.from({ length: 200 }, (_, i) => `X-Slow-${String(i)}: x\r\n`),
      CHECK_MS,
    );
    const silent = await RawConnection.open(slow.port);

    for (const [name, connection] of Object.entries({ stalled, trickled, silent })) {
      const after = await closedAfter(connection);
      expect(after, name).toBeGreaterThanOrEqual(HEADERS_MS);
      // Long before the request deadline: it is the header deadline that ended it.
      expect(after, name).toBeLessThan(HEADERS_MS + LATE_MS);
      expect(HEADERS_MS + LATE_MS).toBeLessThan(slow.requestMs);
      await expectTimeoutAnswer(slow, connection, name);
    }
    await expectServing(slow);
  });

  it('request timeout (limits.timeouts.requestMs): a trickled or stalled body gets a 408 problem and the connection closed, and nothing is stored', async () => {
    const body = JSON.stringify({ username: 'admin-a', password: 'x'.repeat(400) });
    const trickled = await RawConnection.open(strict.port);
    trickled.write(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n`,
    );
    // One byte every 50 ms: the whole body would take 20 s, more than the deadline and any
    // lateness together.
    void trickled.trickle(
      Array.from(Buffer.from(body), (byte) => Buffer.of(byte)),
      CHECK_MS,
    );
    expect(REQUEST_MS + LATE_MS).toBeLessThan(body.length * CHECK_MS);

    const form = coverForm(await makePdf(1, 'Stalled'));
    const stalled = await RawConnection.open(strict.port);
    stalled.write(
      `POST /api/v1/user-settings/covers/user/front HTTP/1.1\r\nHost: propdata\r\n` +
        `Authorization: Bearer ${strict.world.adminA.token}\r\n` +
        `Content-Type: ${form.headers['content-type'] ?? ''}\r\n` +
        `Content-Length: ${String(form.payload.length)}\r\n\r\n`,
    );
    stalled.write(form.payload.subarray(0, form.payload.length >> 1));

    for (const [name, connection] of Object.entries({ trickled, stalled })) {
      const after = await closedAfter(connection);
      expect(after, name).toBeGreaterThanOrEqual(REQUEST_MS);
      expect(after, name).toBeLessThan(REQUEST_MS + LATE_MS);
      await expectTimeoutAnswer(strict, connection, name);
    }
    expect(await storedCovers(strict)).toBe(0);
    await expectServing(strict);
  });

  it('a request whose body is slow but complete within the request timeout is answered', async () => {
    const body = JSON.stringify({ username: 'admin-a', password: 'not the password' });
    const connection = await RawConnection.open(slow.port);
    connection.write(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n`,
    );
    // Three parts over 2 × 300 ms: past the header deadline (which no longer applies once the
    // headers are in), well within the request deadline.
    const third = Math.ceil(body.length / 3);
    await connection.trickle([body.slice(0, third), body.slice(third, 2 * third)], HEADERS_MS);
    connection.write(body.slice(2 * third));
    const { head, body: answer } = await connection.response();
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(JSON.parse(answer)).toMatchObject({ code: 'unauthenticated' });
    expect(performance.now() - connection.openedAt).toBeGreaterThan(2 * HEADERS_MS);
    connection.destroy();
  });

  it('keep-alive timeout (PROPDATA_KEEP_ALIVE_TIMEOUT_MS): an idle connection is kept for it, then closed', async () => {
    const connection = await RawConnection.open(slow.port);
    const get = 'GET /health HTTP/1.1\r\nHost: propdata\r\n\r\n';
    connection.write(get);
    const first = await connection.response();
    expect(first.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(first.head).toMatch(/\r\nkeep-alive: timeout=3\b/i);

    // The connection serves the next request, and is then closed after being idle for the
    // keep-alive timeout: not before it (exact), and not much later (generous).
    connection.write(get);
    const second = await connection.response(first.end);
    expect(second.head).toMatch(/^HTTP\/1\.1 200 /);
    const idleFrom = performance.now();

    const idle = (await connection.closed) - idleFrom;
    expect(idle).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - CHECK_MS);
    expect(idle).toBeLessThan(KEEP_ALIVE_MS + NODE_KEEP_ALIVE_GRACE_MS + LATE_MS);
    // Closed quietly: an idle connection gets no 408.
    expect(connection.text().length).toBe(second.end);
  });

  it('send deadline (limits.timeouts.sendMs): a client that stops reading a large download is disconnected', async () => {
    const log: string[] = [];
    const server = await listening(LONG_REQUEST_MS, { sendMs: SEND_MS, log });
    const { world, port } = server;
    const pdf = await pdfOfSize(16 * 1024 * 1024);
    const form = coverForm(pdf);
    const upload = await world.app.inject({
      method: 'POST',
      url: '/api/v1/user-settings/covers/user/back',
      headers: { ...form.headers, authorization: `Bearer ${world.adminA.token}` },
      payload: form.payload,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const { uuid } = upload.json<{ uuid: string }>();

    // A client that asks for the file and never reads: the network's buffers fill up long
    // before 16 MiB are sent.
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause();
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    const sentAt = performance.now();
    socket.write(
      `GET /api/v1/user-settings/covers/file/${uuid} HTTP/1.1\r\nHost: propdata\r\n` +
        `Authorization: Bearer ${world.adminA.token}\r\n\r\n`,
    );

    const cut = () => log.some((line) => line.includes('response not taken by the client in time'));
    while (!cut() && performance.now() - sentAt < SEND_MS + LATE_MS) {
      await new Promise((resolve) => setTimeout(resolve, CHECK_MS));
    }
    const after = performance.now() - sentAt;
    expect(cut()).toBe(true);
    expect(after).toBeGreaterThanOrEqual(SEND_MS);

    // Reading now gets what the network had buffered, then the end: never the whole file.
    socket.resume();
    await ended;
    const bytes = Buffer.concat(received);
    expect(bytes.toString('latin1', 0, 15)).toBe('HTTP/1.1 200 OK');
    expect(bytes.length).toBeLessThan(pdf.length);
    await expectServing(server);
  });
});
