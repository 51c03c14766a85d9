import { expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, worldForSuite } from '../../../test/helpers/world.js';
import type { DivisionList } from './schemas.js';

describeBackends('administrative divisions API', (backend) => {
  const world = worldForSuite(backend);

  const get = (url: string, token: string | undefined = world().memberA.token) =>
    call(world().app, { method: 'GET', url, ...(token ? { token } : {}) });

  it('needs a token', async () => {
    expectProblem(await get('/api/v1/administrative_divisions', ''), 401, 'unauthenticated');
    expectProblem(
      await get('/api/v1/administrative_divisions/AT/100/1010', ''),
      401,
      'unauthenticated',
    );
  });

  it('finds divisions by name or id start, level and country, paginated', async () => {
    const res = await get(
      '/api/v1/administrative_divisions?countryCode=AT&level=8&q=INNERE%20stadt',
    );
    expect(res.statusCode).toBe(200);
    const body = res.json<DivisionList>();
    expect(body.items).toContainEqual({
      countryCode: 'AT',
      level: 8,
      id: '901',
      name: 'Gemeindebezirk Innere Stadt',
      parentLevel: 6,
      parentId: '900',
      centroid: { latitude: 48.2077, longitude: 16.3705 },
    });
    const page = (
      await get('/api/v1/administrative_divisions?countryCode=DE&level=6&limit=5&offset=5')
    ).json<DivisionList>();
    expect(page).toMatchObject({ totalItems: 400, limit: 5, offset: 5 });
    expect(page.items).toHaveLength(5);
    const byId = (
      await get('/api/v1/administrative_divisions?countryCode=CH&level=100&q=800')
    ).json<DivisionList>();
    expect(byId.items.length).toBeGreaterThan(0);
    expect(byId.items.every((d) => d.id.startsWith('800') || d.name.includes('800'))).toBe(true);
  });

  it('takes postcodes as people write them, with spaces', async () => {
    const spaced = await get('/api/v1/administrative_divisions/CZ/100/110%2000');
    expect(spaced.statusCode).toBe(200);
    expect(spaced.json()).toMatchObject({ countryCode: 'CZ', level: 100, id: '11000' });
    const found = (
      await get('/api/v1/administrative_divisions?countryCode=CZ&level=100&q=110%2000')
    ).json<DivisionList>();
    expect(found.items.map((d) => d.id)).toContain('11000');
    expect(found.items.every((d) => d.id.startsWith('11000'))).toBe(true);
    // Ids of other levels are taken as given.
    expectProblem(await get('/api/v1/administrative_divisions/NL/8/03%2063'), 404, 'not_found');
  });

  it('lists the children of a division', async () => {
    const body = (
      await get('/api/v1/administrative_divisions?countryCode=AT&parentId=900&level=8')
    ).json<DivisionList>();
    expect(body.totalItems).toBe(23); // Vienna's 23 Gemeindebezirke
    expect(body.items.every((d) => d.parentId === '900' && d.parentLevel === 6)).toBe(true);
  });

  it('tells the children of a district from those of a commune with the same id', async () => {
    // Swiss id 1001 is the Broye district (level 6) and the commune of Doppleschwand (level 8).
    const list = async (query: string) =>
      (
        await get(`/api/v1/administrative_divisions?countryCode=CH&parentId=1001${query}&limit=500`)
      ).json<DivisionList>().items;
    const both = await list('');
    const ofDistrict = await list('&parentLevel=6');
    const ofCommune = await list('&parentLevel=8');
    expect(ofDistrict.length).toBeGreaterThan(5);
    expect(ofDistrict.every((d) => d.level === 8 && d.parentLevel === 6)).toBe(true);
    expect(ofCommune.length).toBeGreaterThan(0);
    expect(ofCommune.every((d) => d.level === 100 && d.parentLevel === 8)).toBe(true);
    expect(both).toHaveLength(ofDistrict.length + ofCommune.length);
    expectProblem(
      await get('/api/v1/administrative_divisions?parentId=1001&parentLevel=7'),
      400,
      'validation_failed',
    );
  });

  it('matches a q of white space alone against names, not as the start of every id', async () => {
    const all = (await get('/api/v1/administrative_divisions?limit=1')).json<DivisionList>();
    const spaced = (
      await get('/api/v1/administrative_divisions?q=%20&limit=500')
    ).json<DivisionList>();
    expect(spaced.totalItems).toBeGreaterThan(0);
    expect(spaced.totalItems).toBeLessThan(all.totalItems);
    expect(spaced.items.every((d) => d.name.includes(' '))).toBe(true);
    const tab = (await get('/api/v1/administrative_divisions?q=%09')).json<DivisionList>();
    expect(tab.totalItems).toBe(0);
  });

  it('returns the divisions containing the postcode nearest to a point', async () => {
    const body = (
      await get('/api/v1/administrative_divisions?latitude=48.1375&longitude=11.5755')
    ).json<DivisionList>();
    expect(body.items.map((d) => `${d.countryCode}/${d.level}`)).toEqual(['DE/6', 'DE/100']);
    expect(body.items[0]).toMatchObject({ id: '09162', name: 'Kreisfreie Stadt München' });
  });

  it('gets one division, and 404 for an unknown one', async () => {
    const res = await get('/api/v1/administrative_divisions/NL/8/0363');
    expect(res.json()).toMatchObject({
      countryCode: 'NL',
      level: 8,
      id: '0363',
      name: 'Gemeente Amsterdam',
    });
    const missing = expectProblem(
      await get('/api/v1/administrative_divisions/NL/8/9999'),
      404,
      'not_found',
    );
    expect(missing.detail).toBe('Division NL/8/9999 not found');
  });

  it('refuses bad parameters with a 400 naming them', async () => {
    const cases: [string, string][] = [
      ['/api/v1/administrative_divisions?countryCode=US', '/countryCode'],
      ['/api/v1/administrative_divisions?level=7', '/level'],
      ['/api/v1/administrative_divisions?limit=501', '/limit'],
      ['/api/v1/administrative_divisions?latitude=48', '/longitude'],
      ['/api/v1/administrative_divisions?latitude=100&longitude=1', '/latitude'],
      ['/api/v1/administrative_divisions?colour=red', '/colour'],
      ['/api/v1/administrative_divisions/AT/7/1010', '/level'],
      // U+0000 in a path or query value, as in a body.
      ['/api/v1/administrative_divisions/AT/100/a%00b', '/id'],
      ['/api/v1/administrative_divisions?q=a%00b', '/q'],
    ];
    for (const [url, path] of cases) {
      const body = expectProblem(await get(url), 400, 'validation_failed');
      expect(
        body.errors?.map((e) => e.path),
        url,
      ).toContain(path);
    }
  });

  it('shows every organization the same divisions', async () => {
    const url = '/api/v1/administrative_divisions?countryCode=SK&level=8&limit=100';
    const a = await get(url, world().memberA.token);
    const b = await get(url, world().adminB.token);
    expect(a.statusCode).toBe(200);
    expect(b.body).toBe(a.body);
  });
});
