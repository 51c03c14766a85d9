import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends } from '../../test/helpers/backends.js';
import { createDossier } from '../../test/helpers/fixtures.js';
import { handMadePng } from '../../test/helpers/images.js';
import { multipart } from '../../test/helpers/multipart.js';
import { pdfOfSize } from '../../test/helpers/pdf.js';
import { expectProblem } from '../../test/helpers/problem.js';
import { call, createWorld, type Member, type World } from '../../test/helpers/world.js';
import { storePrintVersion } from '../features/attachments/store.js';
import { storedBytesOf } from './organization-storage.js';

const MIB = 1024 * 1024;

/*
 * An organization's stored files together (attachments with their print versions, its own and
 * its users' covers) stay within its budget, here 1 MiB (PROPDATA_STORAGE_PER_ORGANIZATION_MB):
 * one organization cannot fill the disk that every organization's writes need.
 */
describeBackends('the storage budget of an organization', (backend) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(backend, { env: { PROPDATA_STORAGE_PER_ORGANIZATION_MB: '1' } });
  });
  afterAll(() => world.close());

  const attach = (member: Member, dossierId: string, data: Buffer) =>
    call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${dossierId}/attachments`,
      token: member.token,
      ...multipart([
        { name: 'file', filename: 'plan.bin', data },
        { name: 'type', data: 'floorplan' },
      ]),
    });
  const cover = (member: Member, data: Buffer) =>
    call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/covers/user/front',
      token: member.token,
      ...multipart([{ name: 'cover', filename: 'cover.pdf', data }]),
    });
  const stored = (member: Member) => storedBytesOf(world.stores.accounts.db, member.organizationId);

  it('counts attachments with their print versions and covers, and refuses the upload beyond it', async () => {
    const orgA = world.memberA.organizationId;
    const [one, two] = [await createDossier(world), await createDossier(world)];
    const first = await attach(world.memberA, one, await pdfOfSize(400_000));
    expect(first.statusCode, first.body).toBe(201);
    // A PNG whose print version is stored beside it (an interlaced one) counts with it.
    const png = handMadePng(200, 150, true);
    const second = await attach(world.memberA, two, png);
    expect(second.statusCode, second.body).toBe(201);
    const rows = await world.stores.accounts.db
      .selectFrom('attachments')
      .innerJoin('attachment_files', 'attachment_files.attachment_id', 'attachments.id')
      .select(['attachments.size', 'attachments.print_size', 'attachment_files.print_content'])
      .where('attachments.organization_id', '=', orgA)
      .execute();
    const printed = rows.find((row) => row.print_content !== null);
    expect(printed?.print_size).toBe(printed?.print_content?.length);
    const expected = rows.reduce(
      (sum, row) => sum + row.size + (row.print_content?.length ?? 0),
      0,
    );
    expect(await stored(world.memberA)).toBe(expected);

    // A member's cover counts for the organization too.
    const pdf = await pdfOfSize(200_000);
    expect((await cover(world.memberA, pdf)).statusCode).toBe(201);
    const before = await stored(world.memberA);
    expect(before).toBe(expected + pdf.length);

    // The next file that would pass 1 MiB is refused, by either route, and nothing is stored.
    const tooMuch = await pdfOfSize(MIB - before + 1);
    const refused = expectProblem(await attach(world.adminA, one, tooMuch), 409, 'conflict');
    expect(refused.detail).toBe(
      `The organization's files would take ${String(MIB + 1)} bytes with this one (1 MiB); it ` +
        `may keep ${String(MIB)} bytes (1 MiB) of attachments and covers together and keeps ` +
        `${String(before)}; delete some first`,
    );
    expectProblem(await cover(world.adminA, tooMuch), 409, 'conflict');
    expect(await stored(world.memberA)).toBe(before);
    // What fits exactly is taken.
    const fits = await pdfOfSize(MIB - before);
    expect((await attach(world.adminA, one, fits)).statusCode).toBe(201);
    expect(await stored(world.memberA)).toBe(MIB);

    // Another organization's budget is its own.
    const other = await createDossier(world, world.memberB);
    expect((await attach(world.memberB, other, await pdfOfSize(400_000))).statusCode).toBe(201);

    // Deleting makes room again.
    const listed = await call(world.app, {
      method: 'GET',
      url: `/api/v1/dossiers/${one}/attachments`,
      token: world.memberA.token,
    });
    const [firstId] = listed.json<{ items: { id: string }[] }>().items.map((item) => item.id);
    const deleted = await call(world.app, {
      method: 'DELETE',
      url: `/api/v1/dossiers/${one}/attachments/${String(firstId)}`,
      token: world.memberA.token,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await attach(world.memberA, one, await pdfOfSize(100_000))).statusCode).toBe(201);
  });

  it('holds under uploads arriving together', async () => {
    const dossiers = await Promise.all(
      Array.from({ length: 6 }, () => createDossier(world, world.memberB)),
    );
    const pdf = await pdfOfSize(200_000);
    const before = await stored(world.memberB);
    const answers = await Promise.all(dossiers.map((id) => attach(world.memberB, id, pdf)));
    const taken = answers.filter((res) => res.statusCode === 201).length;
    expect(answers.every((res) => [201, 409].includes(res.statusCode))).toBe(true);
    // As many as fit, not one more (the other organization's first test left it 400,000).
    expect(taken).toBe(Math.floor((MIB - before) / pdf.length));
    expect(taken).toBeLessThan(6);
    expect(await stored(world.memberB)).toBe(before + taken * pdf.length);
  });
  it('keeps a print version a report makes only within the budget', async () => {
    const db = world.stores.accounts.db;
    const viewer = { ...world.memberB, isAdmin: false, tokenId: 'test' };
    const attachment = await db
      .selectFrom('attachments')
      .select('id')
      .where('organization_id', '=', world.memberB.organizationId)
      .executeTakeFirstOrThrow();
    const printOf = async () =>
      db
        .selectFrom('attachments')
        .innerJoin('attachment_files', 'attachment_files.attachment_id', 'attachments.id')
        .select(['attachments.print_size', 'attachment_files.print_content'])
        .where('attachments.id', '=', attachment.id)
        .executeTakeFirstOrThrow();
    const room = MIB - (await stored(world.memberB));
    // Beyond the room left: not kept (the report shows it all the same).
    await storePrintVersion(db, viewer, attachment.id, Buffer.alloc(room + 1), MIB);
    expect(await printOf()).toEqual({ print_size: 0, print_content: null });
    // Within it: kept, and counted.
    await storePrintVersion(db, viewer, attachment.id, Buffer.alloc(room), MIB);
    expect((await printOf()).print_size).toBe(room);
    expect(await stored(world.memberB)).toBe(MIB);
  });
});
