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
 * are exact, upper bounds generous.
 */

const HEADERS_MS = 300;
const REQUEST_MS = 2000;
const KEEP_ALIVE_MS = 1000;
const CHECK_MS = 50;
const SEND_MS = 1000;
/** Node keeps an idle socket up to 1 s beyond the keep-alive timeout it announces. */
const NODE_KEEP_ALIVE_GRACE_MS = 1000;
/** Lateness tolerated on a loaded machine. */
const SLACK_MS = 1500;

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
  let world: World;
  let port: number;
  const log: string[] = [];
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      env: { PROPDATA_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS), LOG_LEVEL: 'info' },
      app: {
        timeouts: {
          headersMs: HEADERS_MS,
          requestMs: REQUEST_MS,
          checkIntervalMs: CHECK_MS,
          sendMs: SEND_MS,
        },
        logStream: { write: (line: string) => void log.push(line) },
      },
    });
    await world.app.listen({ port: 0, host: '127.0.0.1' });
    port = (world.app.server.address() as AddressInfo).port;
  });
  afterAll(() => world.close());

  /** The one answer on `connection`: a 408 problem+json naming both deadlines, then the end. */
  const expectTimeoutAnswer = async (connection: RawConnection, name: string) => {
    const answer = await connection.response();
    const problem = expectRawProblem(answer, 408, 'request_timeout');
    expect(problem.detail, name).toContain(`${String(HEADERS_MS / 1000)} s`);
    expect(problem.detail, name).toContain(`${String(REQUEST_MS / 1000)} s`);
    expect(rawHeaders(answer).connection, name).toBe('close');
    expect(connection.text().length, name).toBe(answer.end);
  };

  /** How long after it was opened the server closed `connection`. */
  const closedAfter = async (connection: RawConnection) =>
    (await connection.closed) - connection.openedAt;

  const storedCovers = async () => {
    const row = await world.stores.accounts.db
      .selectFrom('cover_files')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** The server still answers new connections. */
  const expectServing = async () => {
    const connection = await RawConnection.open(port);
    connection.write('GET /health HTTP/1.1\r\nHost: propdata\r\nConnection: close\r\n\r\n');
    expect((await connection.response()).head).toMatch(/^HTTP\/1\.1 200 /);
    connection.destroy();
  };

  it('headers timeout (limits.timeouts.headersMs): stalled, trickled or missing headers get a 408 problem and the connection closed', async () => {
    const stalled = await RawConnection.open(port);
    stalled.write('GET /health HTTP/1.1\r\nHost: propdata\r\n');
    // Slow-loris: a new header line every 50 ms, never the blank line that ends them.
    const trickled = await RawConnection.open(port);
    trickled.write('GET /health HTTP/1.1\r\nHost: propdata\r\n');
    void trickled.trickle(
      Array.from({ length: 200 }, (_, i) => `X-Slow-${String(i)}: x\r\n`),
      CHECK_MS,
    );
    const silent = await RawConnection.open(port);

    for (const [name, connection] of Object.entries({ stalled, trickled, silent })) {
      const after = await closedAfter(connection);
      expect(after, name).toBeGreaterThanOrEqual(HEADERS_MS);
      // Well before the request deadline: it is the header deadline that ended it.
      expect(after, name).toBeLessThan(HEADERS_MS + SLACK_MS);
      expect(after, name).toBeLessThan(REQUEST_MS);
      await expectTimeoutAnswer(connection, name);
    }
    await expectServing();
  });

  it('request timeout (limits.timeouts.requestMs): a trickled or stalled body gets a 408 problem and the connection closed, and nothing is stored', async () => {
    const body = JSON.stringify({ username: 'admin-a', password: 'x'.repeat(400) });
    const trickled = await RawConnection.open(port);
    trickled.write(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n`,
    );
    // One byte every 50 ms: the whole body would take 20 s.
    void trickled.trickle(
      Array.from(Buffer.from(body), (byte) => Buffer.of(byte)),
      CHECK_MS,
    );

    const form = coverForm(await makePdf(1, 'Stalled'));
    const stalled = await RawConnection.open(port);
    stalled.write(
      `POST /api/v1/user-settings/covers/user/front HTTP/1.1\r\nHost: propdata\r\n` +
        `Authorization: Bearer ${world.adminA.token}\r\n` +
        `Content-Type: ${form.headers['content-type'] ?? ''}\r\n` +
        `Content-Length: ${String(form.payload.length)}\r\n\r\n`,
    );
    stalled.write(form.payload.subarray(0, form.payload.length >> 1));

    for (const [name, connection] of Object.entries({ trickled, stalled })) {
      const after = await closedAfter(connection);
      expect(after, name).toBeGreaterThanOrEqual(REQUEST_MS);
      expect(after, name).toBeLessThan(REQUEST_MS + SLACK_MS);
      await expectTimeoutAnswer(connection, name);
    }
    expect(await storedCovers()).toBe(0);
    await expectServing();
  });

  it('a request whose body is slow but complete within the request timeout is answered', async () => {
    const body = JSON.stringify({ username: 'admin-a', password: 'not the password' });
    const slow = await RawConnection.open(port);
    slow.write(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\n\r\n`,
    );
    // Three parts over 2 × 300 ms: past the header deadline (which no longer applies once the
    // headers are in), within the request deadline.
    const third = Math.ceil(body.length / 3);
    await slow.trickle([body.slice(0, third), body.slice(third, 2 * third)], HEADERS_MS);
    slow.write(body.slice(2 * third));
    const { head, body: answer } = await slow.response();
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(JSON.parse(answer)).toMatchObject({ code: 'unauthenticated' });
    expect(performance.now() - slow.openedAt).toBeGreaterThan(2 * HEADERS_MS);
    slow.destroy();
  });

  it('keep-alive timeout (PROPDATA_KEEP_ALIVE_TIMEOUT_MS): an idle connection is kept for it, then closed', async () => {
    const connection = await RawConnection.open(port);
    const get = 'GET /health HTTP/1.1\r\nHost: propdata\r\n\r\n';
    connection.write(get);
    const first = await connection.response();
    expect(first.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(first.head).toMatch(/\r\nkeep-alive: timeout=1\b/i);

    // Idle for half the timeout: the connection is still there and serves the next request.
    await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS / 2));
    expect(connection.isOpen).toBe(true);
    connection.write(get);
    const second = await connection.response(first.end);
    expect(second.head).toMatch(/^HTTP\/1\.1 200 /);
    const idleFrom = performance.now();

    const idle = (await connection.closed) - idleFrom;
    expect(idle).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - CHECK_MS);
    expect(idle).toBeLessThan(KEEP_ALIVE_MS + NODE_KEEP_ALIVE_GRACE_MS + SLACK_MS);
    // Closed quietly: an idle connection gets no 408.
    expect(connection.text().length).toBe(second.end);
  });

  it('send deadline (limits.timeouts.sendMs): a client that stops reading a large download is disconnected', async () => {
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
    while (!cut() && performance.now() - sentAt < SEND_MS + 4 * SLACK_MS) {
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
    await expectServing();
  });
});
