import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/backends.js';
import { databaseIdentity, openDuck, queryRows } from './duck.js';

describe('databaseIdentity', () => {
  it('names the file of a read-only database only', async () => {
    const file = path.join(tempDir(), 'market.duckdb');
    const writer = await openDuck(file);
    const w = await writer.connect();
    await w.run('create table a as select 1 as x');
    expect(await databaseIdentity(w)).toEqual({ name: 'market', readOnlyFile: null });
    w.closeSync();
    writer.closeSync();
    const reader = await openDuck(file, { readOnly: true });
    const r = await reader.connect();
    try {
      expect(await databaseIdentity(r)).toEqual({ name: 'market', readOnlyFile: file });
      expect(await queryRows(r, 'select x from a')).toEqual([{ x: 1 }]);
    } finally {
      r.closeSync();
      reader.closeSync();
    }
  });
});
