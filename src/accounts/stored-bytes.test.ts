import { organizationTurnsFor } from './organization-turns.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../../test/helpers/backends.js';
import { expectProblem } from '../../test/helpers/problem.js';
import { call, createWorld, type Member, type World } from '../../test/helpers/world.js';
import type { DossierContent } from '../features/dossiers/dossier.js';
import { createDossier } from '../features/dossiers/dossiers.js';
import { EXAMPLE_DOSSIER } from '../features/dossiers/schemas.js';
import { storePdfWithoutWeight } from '../../test/helpers/fixtures.js';
import { insertCover } from '../features/covers/store.js';
import { limits } from '../limits.js';
import { storedBytes, StoredFileGone } from './stored-bytes.js';

/*
 * Downloads of stored files (covers, attachments) are read from the account database in chunks
 * of `limits.downloads.chunkBytes`, as the client takes them. Every binary value the app's
 * queries return is counted by a Kysely plugin, so the tests see how much of a file was read
 * from the store, and when.
 */

const CHUNK = limits.downloads.chunkBytes;

/** Counts the binary values (and their bytes) the account database returns to the app. */
class StoreReads implements KyselyPlugin {
  values = 0;
  bytes = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const value of Object.values(row)) {
        if (value instanceof Uint8Array) {
          this.values += 1;
          this.bytes += value.byteLength;
        }
      }
    }
    return Promise.resolve(args.result);
  }
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Stores `bytes` as `member`'s own front cover, without the upload's PDF check. */
async function storeCover(world: World, member: Member, bytes: Buffer): Promise<string> {
  const id = randomUUID();
  await insertCover(
    world.stores.accounts.db,
    {
      id,
      organization_id: member.organizationId,
      user_id: member.userId,
      side: 'front',
      position: 0,
      title: 'cover.pdf',
      pages: 1,
      size: bytes.length,
      created_at: new Date().toISOString(),
    },
    bytes,
  );
  return `/api/v1/user-settings/covers/file/${id}`;
}

/** Stores `bytes` as a PDF of `dossierId` (member A's), without the upload's check: its URL. */
async function storeAttachment(world: World, dossierId: string, bytes: Buffer): Promise<string> {
  const id = await storePdfWithoutWeight(world, dossierId, bytes);
  return `/api/v1/dossiers/${dossierId}/attachments/${id}`;
}

describe('storedBytes', () => {
  const read = async (rows: number[][], range?: { start: number; end: number }) => {
    const size = rows.reduce((n, row) => n + row.length, 0);
    const stream = await storedBytes(
      size,
      (seq) => Promise.resolve(rows[seq] && Uint8Array.from(rows[seq])),
      'org',
    ).open(range);
    const out: number[] = [];
    for await (const chunk of stream) out.push(...(chunk as Buffer));
    return out;
  };

  it('reads a range from rows of any one size, and any rows whole', async () => {
    const rows = [
      [0, 1, 2],
      [3, 4, 5],
      [6, 7],
    ];
    expect(await read(rows, { start: 4, end: 6 })).toEqual([4, 5, 6]);
    expect(await read(rows, { start: 7, end: 7 })).toEqual([7]);
    expect(await read([[0, 1], [2, 3, 4], [5]])).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('opens a stream once its first bytes are read, and refuses a file whose rows are gone', async () => {
    const bytes = (rows: number[][], missing = false) =>
      storedBytes(
        rows.reduce((n, row) => n + row.length, 0),
        (seq) => Promise.resolve(missing ? undefined : rows[seq] && Uint8Array.from(rows[seq])),
        'org',
      );
    const stream = await bytes([[0, 1], [2]]).open({ start: 1, end: 2 });
    const out: number[] = [];
    for await (const chunk of stream) out.push(...(chunk as Buffer));
    expect(out).toEqual([1, 2]);
    await expect(bytes([[0, 1], [2]], true).open()).rejects.toBeInstanceOf(StoredFileGone);
  });

  it('ends with an error, never other bytes, when rows skipped for a range are not of one size', async () => {
    await expect(read([[0, 1], [2, 3, 4], [5]], { start: 5, end: 5 })).rejects.toThrow(/changed/);
  });
  it("reads rows in turns: one organization's many downloads do not hold up another's", async () => {
    const order: string[] = [];
    /** A download of `rows` one-byte rows of `organization`'s, its rows read in order. */
    const download = async (organization: string, name: string, rows: number) => {
      const stream = await storedBytes(
        rows,
        async (seq) => {
          order.push(`${name}${String(seq)}`);
          await new Promise((resolve) => setImmediate(resolve));
          return Uint8Array.from([seq]);
        },
        organization,
      ).open();
      // Taken as it comes.
      await stream.toArray();
    };
    // Ten downloads of one organization start first, then one of another's.
    const many = Array.from({ length: 10 }, (_, i) => download('busy', `busy${String(i)}:`, 3));
    const other = download('other', 'other:', 3);
    await Promise.all([...many, other]);
    expect(order).toHaveLength(33);
    // The other organization's rows are read among the first ones, not after the busy one's 30:
    // one row of each organization at a time, in turns.
    const first = order.indexOf('other:0');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(3);
    expect(order.indexOf('other:2')).toBeLessThan(8);
  });
});

describeBackends('downloads of stored files', (backend) => {
  let world: World;
  const reads = new StoreReads();
  let dossierId: string;
  beforeAll(async () => {
    world = await createWorld(backend, { appDb: (db) => db.withPlugin(reads) });
    const { memberA, stores } = world;
    dossierId = await createDossier(
      {
        db: stores.accounts.db,
        market: stores.market,
        now: () => new Date(),
        organizationTurns: organizationTurnsFor(backend, 10),
      },
      { ...memberA, isAdmin: false, tokenId: 'test' },
      EXAMPLE_DOSSIER as DossierContent,
    );
  });
  afterAll(() => world.close());

  const sizes = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17];

  for (const size of sizes) {
    it(`gives back ${String(size)} bytes identical, read in ${String(Math.ceil(size / CHUNK))} chunks`, async () => {
      const bytes = randomBytes(size);
      const urls = [
        await storeCover(world, world.memberA, bytes),
        await storeAttachment(world, dossierId, bytes),
      ];
      for (const url of urls) {
        const before = reads.values;
        const res = await call(world.app, { method: 'GET', url, token: world.memberA.token });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-length'], url).toBe(String(size));
        expect(res.headers['transfer-encoding'], url).toBeUndefined();
        expect(res.rawPayload.length, url).toBe(size);
        expect(sha256(res.rawPayload), url).toBe(sha256(bytes));
        expect(reads.values - before, url).toBe(Math.ceil(size / CHUNK));
      }
    });
  }

  it('answers a HEAD with the headers of a GET, reading none of the file', async () => {
    const bytes = randomBytes(3 * CHUNK + 17);
    const url = await storeCover(world, world.memberA, bytes);
    const before = reads.values;
    const get = await call(world.app, { method: 'GET', url, token: world.memberA.token });
    expect(reads.values - before).toBe(4);
    for (const headers of [{}, { range: 'bytes=5-9' }]) {
      const head = await call(world.app, {
        method: 'HEAD',
        url,
        token: world.memberA.token,
        headers,
      });
      expect(head.statusCode).toBe('range' in headers ? 206 : 200);
      expect(head.rawPayload.length).toBe(0);
      expect(head.headers['content-length']).toBe(
        'range' in headers ? '5' : get.headers['content-length'],
      );
      expect(head.headers.etag).toBe(get.headers.etag);
      expect(head.headers['content-disposition']).toBe(get.headers['content-disposition']);
    }
    // A HEAD had made the server read every row of the file, to send none of it.
    expect(reads.values - before).toBe(4);
  });

  it('answers 404, not a half-sent file, for a file deleted between its row’s read and its bytes’', async () => {
    // The state a download meets when the file is deleted after its row was read: the bytes are
    // gone (deleted with it), the row it already holds is not. With and without a range.
    const bytes = randomBytes(CHUNK + 1);
    const cover = await storeCover(world, world.memberA, bytes);
    const attachment = await storeAttachment(world, dossierId, bytes);
    const db = world.stores.accounts.db;
    await db
      .deleteFrom('cover_chunks')
      .where('cover_id', '=', cover.split('/').at(-1) ?? '')
      .execute();
    await db
      .deleteFrom('attachment_chunks')
      .where('attachment_id', '=', attachment.split('/').at(-1) ?? '')
      .execute();
    for (const url of [cover, attachment]) {
      for (const headers of [{}, { range: `bytes=${String(CHUNK)}-` }]) {
        const res = await call(world.app, {
          method: 'GET',
          url,
          token: world.memberA.token,
          headers,
        });
        expectProblem(res, 404, 'not_found');
        // Not saved as the file by a browser.
        expect(res.headers['content-disposition'], url).toBeUndefined();
      }
    }
  });

  it("reads nothing of another organization's or another user's file: the same 404 as a missing one", async () => {
    const bytes = randomBytes(CHUNK + 1);
    const cover = await storeCover(world, world.memberA, bytes);
    const attachment = await storeAttachment(world, dossierId, bytes);
    const missing = `/api/v1/user-settings/covers/file/${randomUUID()}`;
    const before = reads.bytes;
    const answers = await Promise.all(
      [
        { url: cover, member: world.memberB },
        { url: cover, member: world.adminB },
        // A user's own cover is not their organization's: the admin does not see it either.
        { url: cover, member: world.adminA },
        { url: attachment, member: world.memberB },
        { url: missing, member: world.memberA },
      ].map(({ url, member }) => call(world.app, { method: 'GET', url, token: member.token })),
    );
    for (const res of answers) expect(res.statusCode).toBe(404);
    const problem = (body: string) => ({ ...JSON.parse(body), requestId: undefined }) as object;
    const asMissing = problem(answers[4]?.body ?? '');
    for (const res of answers.slice(0, 3)) expect(problem(res.body)).toEqual(asMissing);
    expect(reads.bytes).toBe(before);
  });

  describe('ranges', () => {
    const SIZE = 3 * CHUNK + 17;
    let bytes: Buffer;
    let urls: string[];
    beforeAll(async () => {
      bytes = randomBytes(SIZE);
      urls = [
        await storeCover(world, world.memberA, bytes),
        await storeAttachment(world, dossierId, bytes),
      ];
    });
    const get = (url: string, headers: Record<string, string>) =>
      call(world.app, { method: 'GET', url, token: world.memberA.token, headers });

    it('sends the one range asked for, reading row 0 and the rows that hold it', async () => {
      const cases: [string, number, number, number][] = [
        // header, first byte, last byte, rows read
        ['bytes=0-9', 0, 9, 1],
        ['bytes=10-', 10, SIZE - 1, 4],
        ['bytes=-17', SIZE - 17, SIZE - 1, 2],
        ['bytes=-18', SIZE - 18, SIZE - 1, 3],
        [`bytes=${String(CHUNK - 1)}-${String(CHUNK)}`, CHUNK - 1, CHUNK, 2],
        [
          `bytes=${String(2 * CHUNK + 5)}-${String(2 * CHUNK + 5)}`,
          2 * CHUNK + 5,
          2 * CHUNK + 5,
          2,
        ],
        [`bytes=${String(CHUNK)}-99999999999`, CHUNK, SIZE - 1, 4],
      ];
      for (const url of urls) {
        const whole = await get(url, {});
        const etag = whole.headers.etag;
        expect(whole.headers['accept-ranges']).toBe('bytes');
        expect(etag).toMatch(/^"[0-9a-f-]{36}"$/);
        for (const [range, first, last, rows] of cases) {
          const before = reads.values;
          const res = await get(url, { range });
          expect(res.statusCode, range).toBe(206);
          expect(res.headers['content-range'], range).toBe(
            `bytes ${String(first)}-${String(last)}/${String(SIZE)}`,
          );
          expect(res.headers['content-length'], range).toBe(String(last - first + 1));
          expect(res.headers['content-disposition'], range).toMatch(/^attachment; /);
          expect(res.headers.etag, range).toBe(etag);
          expect(sha256(res.rawPayload), range).toBe(sha256(bytes.subarray(first, last + 1)));
          expect(reads.values - before, range).toBe(rows);
          // With an If-Range of this file's tag, the same; of another, the whole file.
          const same = await get(url, { range, 'if-range': String(etag) });
          expect(same.statusCode, range).toBe(206);
          const other = await get(url, { range, 'if-range': '"another"' });
          expect(other.statusCode, range).toBe(200);
          expect(sha256(other.rawPayload), range).toBe(sha256(bytes));
        }
      }
    });

    it('answers a range past the end 416 with the size, and sends the whole file for several ranges', async () => {
      for (const url of urls) {
        const before = reads.values;
        const past = await get(url, { range: `bytes=${String(SIZE)}-` });
        expectProblem(past, 416, 'range_not_satisfiable');
        expect(past.headers['content-range']).toBe(`bytes */${String(SIZE)}`);
        expect(past.headers['content-disposition']).toBeUndefined();
        expect(reads.values).toBe(before);
        for (const range of ['bytes=0-1,5-6', 'pages=1', 'bytes=5-1']) {
          const res = await get(url, { range });
          expect(res.statusCode, range).toBe(200);
          expect(res.headers['content-length'], range).toBe(String(SIZE));
          expect(sha256(res.rawPayload), range).toBe(sha256(bytes));
        }
      }
    });

    it("reads nothing of another organization's file for a range: the 404 of a missing one", async () => {
      const before = reads.bytes;
      for (const url of urls) {
        const res = await call(world.app, {
          method: 'GET',
          url,
          token: world.memberB.token,
          headers: { range: 'bytes=0-9' },
        });
        expectProblem(res, 404, 'not_found');
      }
      expect(reads.bytes).toBe(before);
    });
  });

  describe('clients that stop reading, on a real socket', () => {
    /** Large against the network's buffers (a few MiB on loopback) and the chunk. */
    const SIZE = 12 * 1024 * 1024;
    const CLIENTS = 4;
    /** Held per response: one chunk waiting in the stream, one being handed to the socket, and
     * one for the rest of the pipeline. */
    const HELD_CHUNKS = 4;

    interface Client {
      socket: net.Socket;
      received: Buffer[];
    }
    const serverSockets: net.Socket[] = [];
    /** `count` clients that ask for `url` and read nothing. */
    const stalledClients = async (url: string, count: number): Promise<Client[]> => {
      if (!world.app.server.listening) {
        world.app.server.on('connection', (socket: net.Socket) => serverSockets.push(socket));
        await world.app.listen({ port: 0, host: '127.0.0.1' });
      }
      const { port } = world.app.server.address() as AddressInfo;
      const clients: Client[] = [];
      for (let i = 0; i < count; i++) {
        const socket = net.connect({ port, host: '127.0.0.1' });
        socket.on('error', () => undefined);
        const client: Client = { socket, received: [] };
        clients.push(client);
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.pause();
        socket.on('data', (chunk: Buffer) => client.received.push(chunk));
        socket.write(
          `GET ${url} HTTP/1.1\r\nHost: propdata\r\nAuthorization: Bearer ${world.memberA.token}\r\n\r\n`,
        );
      }
      return clients;
    };
    /** Waits until the server has stopped reading from the store and writing to the network, and
     * has read at least `minBytes`. How long that takes does not matter: the bounds hold at every
     * moment. */
    const stillAfter = async (minBytes: number): Promise<void> => {
      const progress = () =>
        `${String(reads.bytes)}/${String(serverSockets.reduce((n, s) => n + s.bytesWritten, 0))}`;
      let last = '';
      for (let still = 0; still < 5;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = progress();
        still = now === last && reads.bytes >= minBytes ? still + 1 : 0;
        last = now;
      }
    };

    it('hold a few chunks per response in the process, and get the whole file once they read', async () => {
      const bytes = randomBytes(SIZE);
      const url = await storeCover(world, world.memberA, bytes);
      const before = reads.bytes;
      const clients: Client[] = [];
      try {
        clients.push(...(await stalledClients(url, CLIENTS)));
        await stillAfter(before + CLIENTS * CHUNK);
        const read = reads.bytes - before;
        // What the kernel has taken is out of the process; the rest was read and is still here.
        const handedToNetwork = serverSockets.reduce(
          (n, s) => n + s.bytesWritten - s.writableLength,
          0,
        );
        const held = read - handedToNetwork;
        expect(read).toBeLessThan(CLIENTS * SIZE);
        expect(held).toBeLessThanOrEqual(CLIENTS * HELD_CHUNKS * CHUNK);

        // Reading resumes the downloads, each to the last byte.
        const bodies = await Promise.all(
          clients.map(
            (client) =>
              new Promise<Buffer>((resolve) => {
                const check = () => {
                  const all = Buffer.concat(client.received);
                  const headEnd = all.indexOf('\r\n\r\n');
                  if (headEnd < 0) return;
                  const head = all.toString('latin1', 0, headEnd);
                  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
                  if (all.length < headEnd + 4 + length) return;
                  expect(head).toMatch(/^HTTP\/1\.1 200 /);
                  resolve(all.subarray(headEnd + 4, headEnd + 4 + length));
                };
                client.socket.on('data', check);
                client.socket.resume();
              }),
          ),
        );
        for (const body of bodies) expect(sha256(body)).toBe(sha256(bytes));
        expect(reads.bytes - before).toBe(CLIENTS * SIZE);
      } finally {
        for (const client of clients) client.socket.destroy();
      }
    });

    it('stop reading from the store when the client goes away', async () => {
      const url = await storeCover(world, world.memberA, randomBytes(SIZE));
      const before = reads.bytes;
      const [client] = await stalledClients(url, 1);
      await stillAfter(before + CHUNK);
      client?.socket.destroy();
      await stillAfter(0);
      expect(reads.bytes - before).toBeLessThan(SIZE);
      const after = reads.bytes;
      await stillAfter(0);
      expect(reads.bytes).toBe(after);
    });

    it('end a download early, never with other bytes, when the file is deleted meanwhile', async () => {
      const bytes = randomBytes(SIZE);
      const url = await storeCover(world, world.memberA, bytes);
      const before = reads.bytes;
      const [client] = await stalledClients(url, 1);
      if (!client) throw new Error('no client');
      await stillAfter(before + CHUNK);
      const id = url.split('/').pop() ?? '';
      await world.stores.accounts.db.deleteFrom('covers').where('id', '=', id).execute();
      const closed = new Promise((resolve) => client.socket.once('close', resolve));
      client.socket.resume();
      await closed;
      const all = Buffer.concat(client.received);
      const headEnd = all.indexOf('\r\n\r\n');
      expect(all.toString('latin1', 0, headEnd)).toContain(`content-length: ${String(SIZE)}\r\n`);
      const body = all.subarray(headEnd + 4);
      expect(body.length).toBeGreaterThan(0);
      expect(body.length).toBeLessThan(SIZE);
      expect(body.equals(bytes.subarray(0, body.length))).toBe(true);
    });
  });
});
