import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../test/helpers/world.js';
import { limits } from '../limits.js';
import { defaultMaxConnections, openFilesLimit } from './connection-cap.js';

describe('the connection cap', () => {
  it('reads the soft open-files limit', () => {
    const text =
      'Limit                     Soft Limit           Hard Limit           Units     \n' +
      'Max processes             95282                95282                processes \n' +
      'Max open files            1024                 524288               files     \n';
    expect(openFilesLimit(text)).toBe(1024);
    expect(openFilesLimit(text.replace('1024 ', 'unlimited'))).toBe(Infinity);
    expect(openFilesLimit('nothing here')).toBeUndefined();
  });

  it('leaves the stores a share of the descriptors, within a floor and a ceiling', () => {
    expect(defaultMaxConnections(1024)).toBe(Math.floor(1024 * 0.8) - 64);
    expect(defaultMaxConnections(20_000)).toBe(limits.connections.ceiling);
    expect(defaultMaxConnections(Infinity)).toBe(limits.connections.ceiling);
    expect(defaultMaxConnections(50)).toBe(16);
    expect(defaultMaxConnections(undefined)).toBe(limits.connections.fallback);
  });
});

describe('a server at its connection cap, on real sockets', () => {
  const CAP = 16;
  let world: World;
  let port: number;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    world = await createWorld('sqlite', { env: { PROPDATA_MAX_CONNECTIONS: String(CAP) } });
    await world.app.listen({ port: 0, host: '127.0.0.1' });
    port = (world.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await world.close();
  });

  /** A connection that asks for /health once, keeping the connection alive, then idles. */
  const idleAfterOneRequest = async (): Promise<{ socket: net.Socket; closed: Promise<void> }> => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    sockets.push(socket);
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const answered = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n') && text.includes('"ok"')) resolve(text);
      });
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /health HTTP/1.1\r\nHost: propdata\r\n\r\n');
    expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    return { socket, closed };
  };

  it('closes a connection beyond it at once, frees the idle ones, and serves the next', async () => {
    const idle = [];
    for (let i = 0; i < CAP; i++) idle.push(await idleAfterOneRequest());

    // One more: closed by the server without an answer, and the idle ones with it.
    const extra = net.connect({ port, host: '127.0.0.1' });
    sockets.push(extra);
    extra.on('error', () => undefined);
    let answeredExtra = '';
    extra.on('data', (chunk: Buffer) => (answeredExtra += chunk.toString('latin1')));
    extra.write('GET /health HTTP/1.1\r\nHost: propdata\r\n\r\n');
    await new Promise((resolve) => extra.once('close', resolve));
    expect(answeredExtra).toBe('');
    await Promise.all(idle.map(({ closed }) => closed));

    // The server is alive and takes connections again.
    const next = await idleAfterOneRequest();
    next.socket.destroy();
  });
});
