import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRawProblem, rawHeaders } from '../../test/helpers/problem.js';
import { RawConnection } from '../../test/helpers/raw-http.js';
import { createWorld, loggingInto, type World } from '../../test/helpers/world.js';
import { limits } from '../limits.js';
import { answerClientError } from './client-errors.js';
import type { ErrorCode } from './problem.js';

/*
 * What the HTTP server refuses before there is a request to route (headers over the limit,
 * bytes that are not HTTP/1.1) is answered, like every other refusal, with problem details, and
 * the connection is closed. The deadlines' 408 is tested with the deadlines (timeouts.test.ts).
 */

describe('requests refused before routing, on a real socket', () => {
  let world: World;
  let port: number;
  const log: string[] = [];
  beforeAll(async () => {
    world = await createWorld('sqlite', loggingInto(log));
    await world.app.listen({ port: 0, host: '127.0.0.1' });
    port = (world.app.server.address() as AddressInfo).port;
  });
  afterAll(() => world.close());

  /** Sends `bytes` on a new connection, expects one problem answer and the connection closed. */
  const refusal = async (bytes: string, status: number, code: ErrorCode) => {
    const connection = await RawConnection.open(port);
    connection.write(bytes);
    const answer = await connection.response();
    const problem = expectRawProblem(answer, status, code);
    expect(rawHeaders(answer).connection).toBe('close');
    await connection.closed;
    expect(connection.text().length).toBe(answer.end);
    return problem;
  };

  it('a refused token on a request that declares a large body: 401 and the connection closed, the body never read', async () => {
    const connection = await RawConnection.open(port);
    connection.write(
      'POST /api/v1/offers/statistics HTTP/1.1\r\nHost: propdata\r\n' +
        'Content-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n{"a":',
    );
    const answer = await connection.response();
    expectRawProblem(answer, 401, 'unauthenticated');
    expect(rawHeaders(answer).connection).toBe('close');
    // Closed by the server while the client still owes almost 10 GiB.
    await connection.closed;
  });

  const health = (headers = '') => `GET /health HTTP/1.1\r\nHost: propdata\r\n${headers}\r\n`;

  it('headers beyond the limit (limits.requestHeaderBytes): 431 headers_too_large', async () => {
    const maxHeaderSize = limits.requestHeaderBytes;
    expect(maxHeaderSize).toBe(16 * 1024);
    const problem = await refusal(
      health(`X-Padding: ${'a'.repeat(maxHeaderSize)}\r\n`),
      431,
      'headers_too_large',
    );
    expect(problem.detail).toBe(
      'The request line and headers exceed the limit of 16384 bytes (16 KiB)',
    );

    // Just within the limit: served.
    const within = await RawConnection.open(port);
    within.write(health(`X-Padding: ${'a'.repeat(maxHeaderSize - 200)}\r\nConnection: close\r\n`));
    expect((await within.response()).head).toMatch(/^HTTP\/1\.1 200 /);
    within.destroy();
  });

  it('bytes that are not HTTP/1.1: 400 bad_request naming what the parser found', async () => {
    const cases: Record<string, [string, string]> = {
      'no method': ['NOT HTTP AT ALL\r\n\r\n', 'Invalid method encountered'],
      'header line without a colon': [health('No colon here\r\n'), 'Invalid header token'],
      'two lengths': [
        health('Content-Length: 1\r\nContent-Length: 2\r\n'),
        'Duplicate Content-Length',
      ],
      'bad chunk size': [
        'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\n' +
          'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        'Invalid character in chunk size',
      ],
    };
    for (const [name, [bytes, reason]] of Object.entries(cases)) {
      const problem = await refusal(bytes, 400, 'bad_request');
      expect(problem.detail, name).toBe(`The request is not valid HTTP/1.1: ${reason}`);
    }
  });

  it('garbage after an answered request on a kept-alive connection: 400 bad_request', async () => {
    const connection = await RawConnection.open(port);
    connection.write(health());
    const first = await connection.response();
    expect(first.head).toMatch(/^HTTP\/1\.1 200 /);
    connection.write('\u0000\u0001\u0002\r\n\r\n');
    const second = await connection.response(first.end);
    expectRawProblem(second, 400, 'bad_request');
    await connection.closed;
    expect(connection.text().length).toBe(second.end);
  });

  it('chunk extensions beyond the limit (16 KiB): 413 payload_too_large', async () => {
    const problem = await refusal(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\n' +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `2;x=${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
      413,
      'payload_too_large',
    );
    expect(problem.detail).toBe('The chunk extensions of the body exceed 16 KiB');
  });

  it('logs each refusal under its requestId', async () => {
    const problem = await refusal('BREW /coffee HTCPCP/1.0\r\n\r\n', 400, 'bad_request');
    const line = log
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((entry) => entry.reqId === problem.requestId);
    expect(line).toMatchObject({ level: 30, msg: 'request refused', code: 'bad_request' });
  });

  it('an HTTP/1.1 request without Host: 400 bad_request as problem details', async () => {
    const problem = await refusal('GET /health HTTP/1.1\r\n\r\n', 400, 'bad_request');
    expect(problem.detail).toBe('An HTTP/1.1 request must have a Host header');
    // HTTP/1.0 has no Host requirement.
    const old = await RawConnection.open(port);
    old.write('GET /health HTTP/1.0\r\n\r\n');
    expect((await old.response()).head).toMatch(/^HTTP\/1\.1 200 /);
    old.destroy();
  });

  it('an Expect other than 100-continue: 417 expectation_failed as problem details', async () => {
    const problem = await refusal(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\nExpect: 200-ok\r\n' +
        'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      417,
      'expectation_failed',
    );
    expect(problem.detail).toBe('The expectation "200-ok" is not supported; only 100-continue is');
  });

  it('a body coding the server does not undo: 415 for Content-Encoding, 501 for Transfer-Encoding', async () => {
    // Plain JSON that only says it is gzipped was parsed as if the header were not there.
    const gzip = await refusal(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\nContent-Encoding: gzip\r\n' +
        'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      415,
      'unsupported_media_type',
    );
    expect(gzip.detail).toBe(
      "The body's Content-Encoding gzip is not supported: send it uncompressed",
    );
    const transfer = await refusal(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\n' +
        'Transfer-Encoding: gzip, chunked\r\nContent-Type: application/json\r\n\r\n' +
        '2\r\n{}\r\n0\r\n\r\n',
      501,
      'not_implemented',
    );
    expect(transfer.detail).toBe('The Transfer-Encoding gzip is not supported; only chunked is');
    // A refusal of what the client asked for, logged as one: not an error-level entry.
    const logged = log
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((entry) => entry.reqId === transfer.requestId && Number(entry.level) >= 40);
    expect(logged).toEqual([]);
    // Without a body the header says nothing (some clients send it on every GET).
    const get = await RawConnection.open(port);
    get.write('GET /health HTTP/1.1\r\nHost: propdata\r\nContent-Encoding: gzip\r\n\r\n');
    expect((await get.response()).head).toMatch(/^HTTP\/1\.1 200 /);
    get.destroy();
    // identity is no coding at all.
    const plain = await RawConnection.open(port);
    plain.write(
      'POST /auth/login/credentials HTTP/1.1\r\nHost: propdata\r\nContent-Encoding: identity\r\n' +
        'Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect((await plain.response()).head).toMatch(/^HTTP\/1\.1 400 /);
    plain.destroy();
  });

  it('CONNECT: 501 not_implemented as problem details instead of a dropped connection', async () => {
    const problem = await refusal(
      'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n',
      501,
      'not_implemented',
    );
    expect(problem.detail).toMatch(/CONNECT is not supported/);
    const line = log
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((entry) => entry.reqId === problem.requestId);
    expect(line).toMatchObject({ level: 30, msg: 'request refused', code: 'not_implemented' });
  });

  it('keeps serving other connections', async () => {
    const connection = await RawConnection.open(port);
    connection.write(health('Connection: close\r\n'));
    expect((await connection.response()).head).toMatch(/^HTTP\/1\.1 200 /);
    connection.destroy();
  });
});

describe('answerClientError', () => {
  const timeouts = { headersMs: 10_000, requestMs: 30_000 };
  const quiet = { info: () => undefined };

  /** A socket that records what is done to it. */
  const fakeSocket = (state: {
    destroyed?: boolean;
    writable?: boolean;
    headersSent?: boolean;
  }) => {
    const written: string[] = [];
    let destroyed = state.destroyed ?? false;
    const socket = {
      get destroyed() {
        return destroyed;
      },
      writable: state.writable ?? true,
      _httpMessage: state.headersSent === undefined ? null : { headersSent: state.headersSent },
      write: (data: string) => void written.push(data),
      destroy: () => {
        destroyed = true;
      },
    };
    return { socket: socket as unknown as Socket, written, isDestroyed: () => destroyed };
  };
  const parseError = Object.assign(new Error('Parse Error: Invalid method encountered'), {
    code: 'HPE_INVALID_METHOD',
    reason: 'Invalid method encountered',
  });

  it('answers and closes a connection on which no answer is under way', () => {
    const { socket, written, isDestroyed } = fakeSocket({});
    answerClientError(parseError, socket, quiet, timeouts);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(isDestroyed()).toBe(true);
  });

  it('writes nothing into an answer already under way, and closes the connection', () => {
    const { socket, written, isDestroyed } = fakeSocket({ headersSent: true });
    answerClientError(parseError, socket, quiet, timeouts);
    expect(written).toEqual([]);
    expect(isDestroyed()).toBe(true);
  });

  it('does nothing on a connection the client reset or that is gone', () => {
    const reset = fakeSocket({});
    answerClientError(
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      reset.socket,
      quiet,
      timeouts,
    );
    expect(reset.written).toEqual([]);
    const gone = fakeSocket({ destroyed: true, writable: false });
    answerClientError(parseError, gone.socket, quiet, timeouts);
    expect(gone.written).toEqual([]);
  });
});
