import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeBackends, freshDatabaseUrl } from '../../test/helpers/backends.js';
import { limits } from '../limits.js';
import { openAccountDatabase } from './database.js';
import { migratedTo } from '../../test/helpers/migrations.js';

describeBackends('stored files cut into rows (migration 0010)', (backend) => {
  it('keeps every stored byte of the covers and attachments stored before it, in order', async () => {
    const url = await freshDatabaseUrl(backend);
    const cover = randomBytes(2 * limits.downloads.chunkBytes + 123);
    const attachment = randomBytes(limits.downloads.chunkBytes - 1);
    const print = randomBytes(1000);
    const old = await migratedTo(url, '0009_organization_name_keys');
    try {
      const now = '2026-01-01T00:00:00.000Z';
      await sql`insert into organizations (id, name, created_at, name_key)
        values ('o1', 'Org', ${now}, 'org')`.execute(old);
      await sql`insert into covers (id, organization_id, user_id, side, position, title, pages,
        size, created_at) values ('c1', 'o1', null, 'front', 0, 'c.pdf', 1, ${cover.length},
        ${now})`.execute(old);
      await sql`insert into cover_files (cover_id, content) values ('c1', ${cover})`.execute(old);
      await sql`insert into dossiers (id, organization_id, creator_id, country_code, body,
        created_at, updated_at) values ('d1', 'o1', null, 'AT', '{}', ${now}, ${now})`.execute(old);
      for (const [id, content, printed] of [
        ['a1', attachment, print],
        ['a2', cover, null],
      ] as const) {
        await sql`insert into attachments (id, dossier_id, organization_id, type, title,
          content_type, size, width, height, pages, created_at) values (${id}, 'd1', 'o1',
          'other', 'a', 'application/pdf', ${content.length}, null, null, 1, ${now})`.execute(old);
        await sql`insert into attachment_files (attachment_id, content, print_content)
          values (${id}, ${content}, ${printed})`.execute(old);
      }
    } finally {
      await old.destroy();
    }

    const store = await openAccountDatabase(url);
    const { db } = store;
    try {
      const joined = async (table: 'cover_chunks' | 'attachment_chunks', id: string) => {
        const rows =
          table === 'cover_chunks'
            ? await db
                .selectFrom('cover_chunks')
                .select(['seq', 'bytes'])
                .where('cover_id', '=', id)
                .orderBy('seq')
                .execute()
            : await db
                .selectFrom('attachment_chunks')
                .select(['seq', 'bytes'])
                .where('attachment_id', '=', id)
                .orderBy('seq')
                .execute();
        expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i));
        expect(rows.every((r) => r.bytes.byteLength <= limits.downloads.chunkBytes)).toBe(true);
        return Buffer.concat(rows.map((r) => r.bytes));
      };
      expect((await joined('cover_chunks', 'c1')).equals(cover)).toBe(true);
      expect((await joined('attachment_chunks', 'a1')).equals(attachment)).toBe(true);
      expect((await joined('attachment_chunks', 'a2')).equals(cover)).toBe(true);
      const prints = await db
        .selectFrom('attachment_files')
        .selectAll()
        .orderBy('attachment_id')
        .execute();
      expect(prints.map((p) => [p.attachment_id, p.print_content === null])).toEqual([
        ['a1', false],
        ['a2', true],
      ]);
      expect(Buffer.from(prints[0]?.print_content ?? []).equals(print)).toBe(true);
      // The rows go with their file.
      await db.deleteFrom('covers').where('id', '=', 'c1').execute();
      await db.deleteFrom('dossiers').where('id', '=', 'd1').execute();
      const left = await sql<{ n: number | string }>`
        select (select count(*) from cover_chunks) + (select count(*) from attachment_chunks) as n`.execute(
        db,
      );
      expect(Number(left.rows[0]?.n)).toBe(0);
    } finally {
      await store.close();
    }
  });
});
