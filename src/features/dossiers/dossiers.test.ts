import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_LINE_MESSAGE } from '../../http/schemas.js';
import { describeBackends } from '../../../test/helpers/backends.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { createdId as created } from '../../../test/helpers/fixtures.js';
import type { Problem } from '../../http/problem.js';
import { limits } from '../../limits.js';
import { EXAMPLE_DOSSIER, type DossierRead } from './schemas.js';

const BASE = '/api/v1/dossiers';

// Vienna 1010 in the shipped reference divisions.
const CENTROID_1010 = { latitude: 48.2077, longitude: 16.3705 };

function dossier(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...structuredClone(EXAMPLE_DOSSIER), ...over };
}

function postcodeOnly(postCode = '1010'): Record<string, unknown> {
  const body = dossier();
  (body.property as { location: unknown }).location = { address: { postCode } };
  return body;
}

function api(world: World) {
  return {
    create: (who: Member, payload: unknown) =>
      call(world.app, { method: 'POST', url: BASE, token: who.token, payload: payload as object }),
    get: (who: Member, id: string) =>
      call(world.app, { method: 'GET', url: `${BASE}/${id}`, token: who.token }),
    list: (who: Member, query = '') =>
      call(world.app, { method: 'GET', url: `${BASE}${query}`, token: who.token }),
    put: (who: Member, id: string, payload: unknown) =>
      call(world.app, {
        method: 'PUT',
        url: `${BASE}/${id}`,
        token: who.token,
        payload: payload as object,
      }),
    patch: (
      who: Member,
      id: string,
      payload: unknown,
      contentType = 'application/merge-patch+json',
    ) =>
      call(world.app, {
        method: 'PATCH',
        url: `${BASE}/${id}`,
        token: who.token,
        headers: { 'content-type': contentType },
        payload: JSON.stringify(payload),
      }),
    del: (who: Member, id: string) =>
      call(world.app, { method: 'DELETE', url: `${BASE}/${id}`, token: who.token }),
  };
}

/** A read dossier without its id and times: what a client writes back. */
function contentOf(read: DossierRead): Record<string, unknown> {
  const content: Record<string, unknown> = { ...read };
  for (const key of ['id', 'createdAt', 'updatedAt']) Reflect.deleteProperty(content, key);
  return content;
}

const withoutRequestId = (problem: Problem) => ({ ...problem, requestId: '' });

describeBackends('dossiers', (backend) => {
  let world: World;
  let d: ReturnType<typeof api>;
  let clock = new Date('2026-03-01T10:00:00.000Z');
  beforeAll(async () => {
    world = await createWorld(backend, { app: { now: () => clock } });
    d = api(world);
  });
  afterAll(() => world.close());

  it('round trip: create, read, replace, delete', async () => {
    const id = await created(d.create(world.memberA, dossier()));
    const read = await d.get(world.memberA, id);
    expect(read.statusCode).toBe(200);
    const expected = structuredClone(EXAMPLE_DOSSIER) as Record<string, unknown>;
    (expected.property as { location: { precision: string } }).location.precision = 'coordinates';
    expect(read.json()).toEqual({
      id,
      createdAt: clock.toISOString(),
      updatedAt: clock.toISOString(),
      ...expected,
    });

    clock = new Date('2026-03-02T10:00:00.000Z');
    const replacement = dossier({ title: 'Renamed', dealType: 'rent' });
    delete replacement.askingSalePrice;
    expect((await d.put(world.adminA, id, replacement)).statusCode).toBe(204);
    const after = (await d.get(world.memberA, id)).json<DossierRead>();
    expect(after.title).toBe('Renamed');
    expect(after.dealType).toBe('rent');
    expect(after).not.toHaveProperty('askingSalePrice');
    expect(after.createdAt).toBe('2026-03-01T10:00:00.000Z');
    expect(after.updatedAt).toBe('2026-03-02T10:00:00.000Z');

    // A read body written back (without its id and times) changes nothing.
    const content = contentOf(after);
    expect((await d.put(world.memberA, id, content)).statusCode).toBe(204);
    const again = (await d.get(world.memberA, id)).json<DossierRead>();
    expect({ ...again, updatedAt: '' }).toEqual({ ...after, updatedAt: '' });
    // So does the read body as it is: its id is the path's, its times are the service's.
    clock = new Date('2026-03-03T10:00:00.000Z');
    const asRead = { ...again, title: 'Sent back', createdAt: '1999-01-01T00:00:00.000Z' };
    expect((await d.put(world.memberA, id, asRead)).statusCode).toBe(204);
    const sentBack = (await d.get(world.memberA, id)).json<DossierRead>();
    expect(sentBack).toEqual({
      ...again,
      title: 'Sent back',
      updatedAt: '2026-03-03T10:00:00.000Z',
    });
    const other = await created(d.create(world.memberA, dossier()));
    const wrongId = expectProblem(
      await d.put(world.memberA, id, { ...asRead, id: other }),
      400,
      'validation_failed',
    );
    expect(wrongId.errors?.[0]?.path).toBe('/id');
    expect((await d.get(world.memberA, id)).json()).toEqual(sentBack);
    // As a merge patch too: the read body with a change, its id in capitals as UUIDs allow.
    clock = new Date('2026-03-04T10:00:00.000Z');
    const patched = await d.patch(world.memberA, id, {
      ...sentBack,
      id: id.toUpperCase(),
      title: 'Patched back',
    });
    expect(patched.statusCode, patched.body).toBe(204);
    const afterPatch = (await d.get(world.memberA, id)).json<DossierRead>();
    expect(afterPatch).toEqual({
      ...sentBack,
      title: 'Patched back',
      updatedAt: '2026-03-04T10:00:00.000Z',
    });
    for (const idSent of [other, 42]) {
      const refused = expectProblem(
        await d.patch(world.memberA, id, { id: idSent, title: 'Not this' }),
        400,
        'validation_failed',
      );
      expect(refused.errors?.[0]?.path).toBe('/id');
    }
    // Read-only times of another type are refused by a patch as by a replace; null (a patch's
    // removal) is ignored as a string is.
    for (const [key, sent] of [
      ['createdAt', 5],
      ['updatedAt', { a: 1 }],
    ] as const) {
      for (const response of [
        await d.patch(world.memberA, id, { [key]: sent, title: 'Not this' }),
        await d.put(world.memberA, id, { ...afterPatch, [key]: sent, title: 'Not this' }),
      ]) {
        expect(expectProblem(response, 400, 'validation_failed').errors).toEqual([
          { path: `/${key}`, message: 'must be string' },
        ]);
      }
    }
    // Both at once, and with the body's own errors: a patch lists them all, as a replace does.
    const both = { createdAt: [1], updatedAt: { x: 1 }, title: '' };
    const patchRefused = expectProblem(
      await d.patch(world.memberA, id, both),
      400,
      'validation_failed',
    );
    const putRefused = expectProblem(
      await d.put(world.memberA, id, { ...afterPatch, ...both }),
      400,
      'validation_failed',
    );
    const paths = (errors: { path: string }[] | undefined) =>
      [...new Set((errors ?? []).map((e) => e.path))].sort();
    expect(paths(patchRefused.errors)).toEqual(['/createdAt', '/title', '/updatedAt']);
    expect(paths(patchRefused.errors)).toEqual(paths(putRefused.errors));
    // Its detail names them all too, the patch's own after the merged body's.
    expect(patchRefused.detail).toMatch(
      /^after the merge patch: title .*; createdAt must be string; updatedAt must be string$/,
    );
    expect((await d.get(world.memberA, id)).json()).toEqual(afterPatch);
    clock = new Date('2026-03-05T10:00:00.000Z');
    const nulled = await d.patch(world.memberA, id, { createdAt: null, title: 'Patched back' });
    expect(nulled.statusCode, nulled.body).toBe(204);
    expect((await d.get(world.memberA, id)).json<DossierRead>().createdAt).toBe(
      afterPatch.createdAt,
    );

    const deleted = await d.del(world.memberA, id);
    expect(deleted.statusCode).toBe(204);
    // No body, said to be JSON: the Ruby client reads only a JSON answer as an object.
    expect(deleted.headers['content-type']).toBe('application/json');
    expect(deleted.body).toBe('');
    expectProblem(await d.get(world.memberA, id), 404, 'not_found');
    expectProblem(await d.del(world.memberA, id), 404, 'not_found');
  });

  describe('postcode-only location', () => {
    it('stores the postcode centroid and says the point is postcode-precise', async () => {
      const id = await created(d.create(world.memberA, postcodeOnly('10 10')));
      const read = (await d.get(world.memberA, id)).json<DossierRead>();
      expect(read.property.location).toEqual({
        address: { postCode: '10 10' },
        coordinates: CENTROID_1010,
        precision: 'postcode',
      });
      // Written back unchanged, it stays postcode-precise.
      const content = contentOf(read);
      expect((await d.put(world.memberA, id, content)).statusCode).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().property.location).toEqual(
        read.property.location,
      );
      // A new postcode moves the point to its centroid.
      expect(
        (
          await d.patch(world.memberA, id, {
            property: { location: { address: { postCode: '1020' } } },
          })
        ).statusCode,
      ).toBe(204);
      const moved = (await d.get(world.memberA, id)).json<DossierRead>().property.location;
      expect(moved.precision).toBe('postcode');
      expect(moved.coordinates).not.toEqual(CENTROID_1010);
      // Coordinates patched in make it exact.
      const exact = { latitude: 48.21, longitude: 16.38 };
      expect(
        (await d.patch(world.memberA, id, { property: { location: { coordinates: exact } } }))
          .statusCode,
      ).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().property.location).toMatchObject({
        coordinates: exact,
        precision: 'coordinates',
      });
      // Removed again, the point falls back to the postcode.
      expect(
        (await d.patch(world.memberA, id, { property: { location: { coordinates: null } } }))
          .statusCode,
      ).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().property.location.precision).toBe(
        'postcode',
      );
    });

    it('reads empty coordinates as none, on creation and replacement (Ruby client 3.x)', async () => {
      const body = postcodeOnly('1010');
      const location = (body.property as { location: Record<string, unknown> }).location;
      location.coordinates = {};
      const id = await created(d.create(world.memberA, body));
      const read = (await d.get(world.memberA, id)).json<DossierRead>();
      expect(read.property.location).toEqual({
        address: { postCode: '1010' },
        coordinates: CENTROID_1010,
        precision: 'postcode',
      });
      expect((await d.put(world.memberA, id, body)).statusCode).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().property.location).toEqual(
        read.property.location,
      );
      // In a merge patch they change nothing: the dossier stays postcode-precise.
      const patched = await d.patch(world.memberA, id, {
        property: { location: { coordinates: {} } },
      });
      expect(patched.statusCode, patched.body).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().property.location).toEqual(
        read.property.location,
      );
      // Without a postcode, empty coordinates are no location at all.
      const nowhere = dossier();
      (nowhere.property as { location: unknown }).location = { coordinates: {} };
      const refused = expectProblem(
        await d.create(world.memberA, nowhere),
        400,
        'validation_failed',
      );
      expect(refused.errors?.[0]?.path).toBe('/property/location/coordinates');
    });

    it('reads coordinates sent as [] (PHP’s empty array) as none, in a body and a patch', async () => {
      const body = postcodeOnly('1010');
      const location = (body.property as { location: Record<string, unknown> }).location;
      location.coordinates = [];
      const id = await created(d.create(world.memberA, body));
      const read = (await d.get(world.memberA, id)).json<DossierRead>();
      expect(read.property.location).toMatchObject({ coordinates: CENTROID_1010 });
      expect(read.property.location.precision).toBe('postcode');
      const patched = await d.patch(world.memberA, id, {
        property: { location: { coordinates: [] } },
      });
      expect(patched.statusCode, patched.body).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().property.location).toEqual(
        read.property.location,
      );
    });

    it('refuses an unknown postcode without coordinates, and neither', async () => {
      const unknown = expectProblem(
        await d.create(world.memberA, postcodeOnly('99999')),
        400,
        'validation_failed',
      );
      expect(unknown.errors).toEqual([
        {
          path: '/property/location/address/postCode',
          message: expect.stringContaining('99999') as string,
        },
      ]);
      const body = dossier();
      (body.property as { location: unknown }).location = {};
      const neither = expectProblem(await d.create(world.memberA, body), 400, 'validation_failed');
      expect(neither.errors?.[0]?.path).toBe('/property/location/coordinates');
    });
  });

  it('refuses coordinates outside the dossier’s country at write time, near its border not', async () => {
    const at = (countryCode: string, latitude: number, longitude: number) => {
      const body = structuredClone(EXAMPLE_DOSSIER);
      return {
        ...body,
        countryCode,
        property: { ...body.property, location: { coordinates: { latitude, longitude } } },
      };
    };
    for (const [countryCode, latitude, longitude] of [
      ['DE', 48.2087, 16.3695], // Vienna
      ['FR', -45, 170], // the sea off New Zealand
    ] as const) {
      const refused = expectProblem(
        await d.create(world.memberA, at(countryCode, latitude, longitude)),
        400,
        'validation_failed',
      );
      expect(refused.errors).toEqual([
        {
          path: '/property/location/coordinates',
          message: `lie outside ${countryCode}: no postcode of ${countryCode} is within 30 km`,
        },
      ]);
    }
    // Salzburg, a few km from the German border, is in AT; Freilassing, across it, in DE.
    expect((await d.create(world.memberA, at('AT', 47.8095, 13.055))).statusCode).toBe(201);
    expect((await d.create(world.memberA, at('DE', 47.8407, 12.9787))).statusCode).toBe(201);
    // A patch that moves a dossier abroad is refused the same way.
    const id = await created(d.create(world.memberA, dossier()));
    const moved = await d.patch(world.memberA, id, {
      property: { location: { coordinates: { latitude: 52.52, longitude: 13.405 } } },
    });
    expectProblem(moved, 400, 'validation_failed');
  });

  it('refuses a stated postcode far from the stated point, a near or unknown one not', async () => {
    const withPostcode = (postCode: string) => {
      const body = structuredClone(EXAMPLE_DOSSIER);
      return {
        ...body,
        property: {
          ...body.property,
          location: { ...body.property.location, address: { postCode, city: 'Wien' } },
        },
      };
    };
    // The Graben with Graz's postcode: 145 km from its point.
    const refused = expectProblem(
      await d.create(world.memberA, withPostcode('8010')),
      400,
      'validation_failed',
    );
    expect(refused.errors?.[0]?.path).toBe('/property/location/address/postCode');
    expect(refused.errors?.[0]?.message).toMatch(
      /^"8010" is centred 1[34]\d km from the coordinates/,
    );
    // Another Vienna postcode, and one the data does not know, pass: the point decides.
    expect((await d.create(world.memberA, withPostcode('1020'))).statusCode).toBe(201);
    expect((await d.create(world.memberA, withPostcode('9999'))).statusCode).toBe(201);
    // A patch that gives a far postcode is refused the same way.
    const id = await created(d.create(world.memberA, dossier()));
    const patched = await d.patch(world.memberA, id, {
      property: { location: { address: { postCode: '6020' } } },
    });
    expect(expectProblem(patched, 400, 'validation_failed').errors?.[0]?.path).toBe(
      '/property/location/address/postCode',
    );
  });

  describe('PATCH (JSON merge patch)', () => {
    it('merges objects, removes with null, replaces values; plain JSON works too', async () => {
      const id = await created(d.create(world.memberA, dossier()));
      const res = await d.patch(world.adminA, id, {
        askingSalePrice: 430000,
        property: { floorNumber: 3, hasLift: null, condition: { windows: 'renovation_needed' } },
      });
      expect(res.statusCode, res.body).toBe(204);
      const read = (await d.get(world.memberA, id)).json<DossierRead>();
      expect(read.askingSalePrice).toBe(430000);
      expect(read.property.floorNumber).toBe(3);
      expect(read.property).not.toHaveProperty('hasLift');
      expect(read.property.condition).toEqual({
        kitchen: 'well_maintained',
        windows: 'renovation_needed',
      });
      expect(read.property.livingArea).toBe(72);
      const plain = await d.patch(world.memberA, id, { title: 'Plain' }, 'application/json');
      expect(plain.statusCode).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().title).toBe('Plain');
    });

    it('takes [] as the empty patch (PHP encodes an empty array so); another array is refused', async () => {
      const id = await created(d.create(world.memberA, dossier()));
      const before = contentOf((await d.get(world.memberA, id)).json<DossierRead>());
      const empty = await d.patch(world.memberA, id, []);
      expect(empty.statusCode, empty.body).toBe(204);
      expect(contentOf((await d.get(world.memberA, id)).json<DossierRead>())).toEqual(before);
      const array = expectProblem(
        await d.patch(world.memberA, id, [{ title: 'x' }], 'application/json'),
        400,
        'validation_failed',
      );
      expect(array.detail).toBe('body must be object');
      expect(contentOf((await d.get(world.memberA, id)).json<DossierRead>())).toEqual(before);
    });

    it('keeps both of two patches sent at once, each changing another field', async () => {
      // Each patch reads, merges and checks the market data before it writes: without the
      // check that the body is still the one it merged onto, one wrote back the other's old value.
      const id = await created(d.create(world.memberA, dossier()));
      for (let round = 0; round < 8; round++) {
        const answers = await Promise.all([
          d.patch(world.memberA, id, { title: `T${String(round)}` }),
          d.patch(world.adminA, id, { askingSalePrice: 1000 + round }),
        ]);
        expect(answers.map((a) => a.statusCode)).toEqual([204, 204]);
        const read = (await d.get(world.memberA, id)).json<DossierRead>();
        expect([read.title, read.askingSalePrice]).toEqual([`T${String(round)}`, 1000 + round]);
      }
    });

    it('keeps every one of twelve patches sent at once: patches of one dossier take turns', async () => {
      // Merging again when another write came first is bounded (limits.dossiers.patchAttempts):
      // six or more at once, each round one winner, had ended in 409s.
      const id = await created(d.create(world.memberA, dossier()));
      const parts = ['bathrooms', 'kitchen', 'flooring', 'windows', 'masonry'];
      const patches: Record<string, unknown>[] = [
        { title: 'Twelve at once' },
        { description: 'Every patch kept' },
        ...parts.map((part) => ({ property: { condition: { [part]: 'renovation_needed' } } })),
        ...parts.map((part) => ({ property: { quality: { [part]: 'luxury' } } })),
      ];
      const answers = await Promise.all(
        patches.map((patch, i) => d.patch(i % 2 ? world.adminA : world.memberA, id, patch)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(patches.map(() => 204));
      const read = (await d.get(world.memberA, id)).json<DossierRead>();
      expect([read.title, read.description]).toEqual(['Twelve at once', 'Every patch kept']);
      expect(read.property.condition).toEqual(
        Object.fromEntries(parts.map((part) => [part, 'renovation_needed'])),
      );
      expect(read.property.quality).toEqual(
        Object.fromEntries(parts.map((part) => [part, 'luxury'])),
      );
    });

    it('validates the merged result and changes nothing when it is wrong', async () => {
      const id = await created(d.create(world.memberA, dossier()));
      const before = (await d.get(world.memberA, id)).json<DossierRead>();
      const removed = expectProblem(
        await d.patch(world.memberA, id, { property: { livingArea: null }, title: 'X' }),
        400,
        'validation_failed',
      );
      expect(removed.errors).toEqual([{ path: '/property/livingArea', message: 'is required' }]);
      const unknown = expectProblem(
        await d.patch(world.memberA, id, { property: { colour: 'red' } }),
        400,
        'validation_failed',
      );
      expect(unknown.errors).toEqual([{ path: '/property/colour', message: 'is not allowed' }]);
      expectProblem(
        await d.patch(world.memberA, id, { countryCode: 'JP' }),
        400,
        'unsupported_country',
      );
      expectProblem(await d.patch(world.memberA, id, [1]), 400, 'validation_failed');
      expect((await d.get(world.memberA, id)).json()).toEqual(before);
    });

    it('refuses a patch nested deeper than the limit, and a string with U+0000 or half a character', async () => {
      const id = await created(d.create(world.memberA, dossier()));
      const before = (await d.get(world.memberA, id)).json<DossierRead>();
      // Deep enough to exhaust the stack of a recursive merge, well within the body limit.
      const depth = 20_000;
      const deep = `${'{"notes":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const res = await call(world.app, {
        method: 'PATCH',
        url: `${BASE}/${id}`,
        token: world.memberA.token,
        headers: { 'content-type': 'application/merge-patch+json' },
        payload: deep,
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(problem.errors?.[0]?.message).toBe(
        `is nested more than ${String(limits.jsonDepth)} levels deep`,
      );
      const nul = expectProblem(
        await d.patch(world.memberA, id, { title: 'A\u0000B' }),
        400,
        'validation_failed',
      );
      expect(nul.errors).toEqual([
        { path: '/title', message: 'must not contain the character U+0000' },
      ]);
      // JSON's escape of half an emoji: stored, it made every report of the dossier fail.
      const half = expectProblem(
        await d.patch(world.memberA, id, { title: 'Flat \ud83d' }),
        400,
        'validation_failed',
      );
      expect(half.errors?.[0]?.path).toBe('/title');
      expect((await d.get(world.memberA, id)).json()).toEqual(before);
    });

    it('refuses control and bidirectional formatting characters in one-line texts', async () => {
      // U+202E turns the rest of a title around when shown; a bell or a line break has no place
      // in a title or an address part.
      // U+2028 and U+2029 are line breaks too, though not control characters.
      for (const title of [
        'Flat\u202Etxt.exe',
        'Flat\u0007',
        'Flat\nsecond line',
        'A\u2066B',
        'Flat\u2028second line',
        '\u2029',
      ]) {
        const problem = expectProblem(
          await d.create(world.memberA, dossier({ title })),
          400,
          'validation_failed',
        );
        expect(problem.errors?.[0]).toEqual({
          path: '/title',
          message: ONE_LINE_MESSAGE,
        });
      }
      // A required text of white space only is as empty as "", a title as an address part.
      const location = EXAMPLE_DOSSIER.property.location;
      for (const [body, path] of [
        [dossier({ title: '   ' }), '/title'],
        [dossier({ title: '\t\u00a0\ufeff' }), '/title'],
        // Characters that show nothing (zero-width space, word joiner, soft hyphen, Hangul
        // filler, blank Braille, Mongolian vowel separator) are blank too.
        [dossier({ title: '\u200b\u2060\u00ad\u3164\u2800\u180e\u200c' }), '/title'],
        // Variation selectors, Khmer inherent vowels, Mongolian selectors, U+2065, U+FFF0.
        [dossier({ title: '\ufe0f\ufe00\u17b4\u17b5\u180b\u180f\u2065\u206a\ufff0' }), '/title'],
        [
          dossier({
            property: {
              ...EXAMPLE_DOSSIER.property,
              location: { ...location, address: { ...location.address, street: '\u00a0' } },
            },
          }),
          '/property/location/address/street',
        ],
      ] as const) {
        const blank = expectProblem(await d.create(world.memberA, body), 400, 'validation_failed');
        expect(blank.errors).toEqual([{ path, message: 'must not be blank' }]);
      }
      // Accents, other scripts and emoji (joined by U+200D) are text like any other.
      const id = await created(d.create(world.memberA, dossier({ title: 'Café Ústí 北京 👨‍👩‍👧' })));
      expect((await d.get(world.memberA, id)).json<DossierRead>().title).toBe('Café Ústí 北京 👨‍👩‍👧');
    });
  });

  describe('validation', () => {
    const withProperty = (over: Record<string, unknown>) =>
      dossier({ property: { ...EXAMPLE_DOSSIER.property, ...over } });

    it.each([
      ['livingArea 0', withProperty({ livingArea: 0 }), '/property/livingArea'],
      ['livingArea too large', withProperty({ livingArea: 100001 }), '/property/livingArea'],
      ['livingArea as text', withProperty({ livingArea: '72' }), '/property/livingArea'],
      ['buildingYear 999', withProperty({ buildingYear: 999 }), '/property/buildingYear'],
      ['buildingYear 2101', withProperty({ buildingYear: 2101 }), '/property/buildingYear'],
      [
        'renovation before building',
        withProperty({ renovationYear: 1900 }),
        '/property/renovationYear',
      ],
      ['rooms 2.3', withProperty({ numberOfRooms: 2.3 }), '/property/numberOfRooms'],
      [
        'latitude 91',
        withProperty({ location: { coordinates: { latitude: 91, longitude: 16 } } }),
        '/property/location/coordinates/latitude',
      ],
      [
        'longitude -181',
        withProperty({ location: { coordinates: { latitude: 48, longitude: -181 } } }),
        '/property/location/coordinates/longitude',
      ],
      [
        'unknown property type',
        withProperty({ propertyType: { code: 'castle' } }),
        '/property/propertyType/code',
      ],
      [
        'unknown condition value',
        withProperty({ condition: { kitchen: 'shiny' } }),
        '/property/condition/kitchen',
      ],
      ['unknown top-level field', dossier({ owner: 'me' }), '/owner'],
      ['unknown dealType', dossier({ dealType: 'lease' }), '/dealType'],
      ['missing property', dossier({ property: undefined }), '/property'],
      ['empty title', dossier({ title: '' }), '/title'],
      ['negative price', dossier({ askingSalePrice: -1 }), '/askingSalePrice'],
    ])('%s → 400 naming the field', async (_name, body, path) => {
      const problem = expectProblem(await d.create(world.memberA, body), 400, 'validation_failed');
      expect(problem.errors?.map((e) => e.path)).toContain(path);
    });

    it('a country outside the market is unsupported_country', async () => {
      const problem = expectProblem(
        await d.create(world.memberA, dossier({ countryCode: 'JP' })),
        400,
        'unsupported_country',
      );
      expect(problem.errors?.[0]?.path).toBe('/countryCode');
    });
  });

  describe('access', () => {
    let id: string;
    beforeAll(async () => {
      id = await created(d.create(world.memberA, dossier({ title: 'Private to A' })));
    });

    it('every member of the organization reads and changes it', async () => {
      expect((await d.get(world.adminA, id)).statusCode).toBe(200);
      expect((await d.patch(world.adminA, id, { title: 'By admin' })).statusCode).toBe(204);
      expect((await d.put(world.memberA, id, dossier({ title: 'By member' }))).statusCode).toBe(
        204,
      );
    });

    it('takes the id in capitals as the same id, and still not for another organization', async () => {
      const upper = id.toUpperCase();
      expect(upper).not.toBe(id);
      const read = await d.get(world.memberA, upper);
      expect(read.statusCode).toBe(200);
      expect(read.json<DossierRead>().id).toBe(id);
      expect((await d.patch(world.memberA, upper, { title: 'In capitals' })).statusCode).toBe(204);
      expect((await d.get(world.memberA, id)).json<DossierRead>().title).toBe('In capitals');
      expectProblem(await d.get(world.memberB, upper), 404, 'not_found');
      // As the next test expects it.
      expect((await d.patch(world.memberA, id, { title: 'By member' })).statusCode).toBe(204);
    });

    it('another organization gets the 404 of a missing id for every method', async () => {
      const missing = '00000000-0000-4000-8000-000000000000';
      for (const who of [world.adminB, world.memberB]) {
        for (const [foreign, absent] of [
          [d.get(who, id), d.get(who, missing)],
          [d.put(who, id, dossier()), d.put(who, missing, dossier())],
          [d.patch(who, id, { title: 'x' }), d.patch(who, missing, { title: 'x' })],
          [d.del(who, id), d.del(who, missing)],
        ] as const) {
          const a = expectProblem(await foreign, 404, 'not_found');
          const b = expectProblem(await absent, 404, 'not_found');
          expect(withoutRequestId(a)).toEqual(withoutRequestId(b));
        }
        const list = (await d.list(who, '?limit=100')).json<{ items: DossierRead[] }>();
        expect(list.items.map((x) => x.id)).not.toContain(id);
      }
      expect((await d.get(world.memberA, id)).json<DossierRead>().title).toBe('By member');
    });

    it('accepts the token as the access_token query parameter', async () => {
      const token = encodeURIComponent(world.memberA.token);
      const read = await call(world.app, {
        method: 'GET',
        url: `${BASE}/${id}?access_token=${token}`,
      });
      expect(read.statusCode, read.body).toBe(200);
      const list = await call(world.app, {
        method: 'GET',
        url: `${BASE}?limit=1&access_token=${token}`,
      });
      expect(list.statusCode, list.body).toBe(200);
      const post = await call(world.app, {
        method: 'POST',
        url: `${BASE}?access_token=${token}`,
        payload: dossier(),
      });
      expect(post.statusCode, post.body).toBe(201);
      expectProblem(
        await call(world.app, { method: 'GET', url: `${BASE}/${id}?access_token=nope` }),
        401,
        'unauthenticated',
      );
      expectProblem(
        await call(world.app, { method: 'GET', url: `${BASE}/${id}` }),
        401,
        'unauthenticated',
      );
    });
  });

  describe('pagination', () => {
    it('pages newest first with the total, for the organization only', async () => {
      // A fresh organization's view: B has none yet.
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock = new Date(Date.UTC(2026, 3, 1 + i));
        ids.push(await created(d.create(world.memberB, dossier({ title: `B${String(i)}` }))));
      }
      const newestFirst = [...ids].reverse();
      const page = async (query: string) =>
        (await d.list(world.adminB, query)).json<{
          items: DossierRead[];
          totalItems: number;
          limit: number;
          offset: number;
        }>();
      const first = await page('?limit=2');
      expect(first).toMatchObject({ totalItems: 5, limit: 2, offset: 0 });
      expect(first.items.map((x) => x.id)).toEqual(newestFirst.slice(0, 2));
      expect((await page('?limit=2&offset=2')).items.map((x) => x.id)).toEqual(
        newestFirst.slice(2, 4),
      );
      expect((await page('?limit=2&offset=4')).items.map((x) => x.id)).toEqual(
        newestFirst.slice(4),
      );
      const all = await page('');
      expect(all.limit).toBe(20);
      expect(all.items.map((x) => x.id)).toEqual(newestFirst);
      expect(all.items[0]?.title).toBe('B4');
      for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?limit=x', '?sort=id']) {
        expectProblem(await d.list(world.memberB, query), 400, 'validation_failed');
      }
      // Numbers are written in decimal: JavaScript's readings of text (hex, exponents, spaces)
      // are refused, naming the parameter.
      for (const query of ['?offset=0x10', '?limit=1e1', '?limit=%205', '?offset=0b1', '?limit=']) {
        const problem = expectProblem(await d.list(world.memberB, query), 400, 'validation_failed');
        expect(problem.errors?.[0]?.path, query).toMatch(/^\/(offset|limit)$/);
        expect(problem.detail, query).toMatch(/whole number written in decimal/);
      }
      expect((await page('?limit=3&offset=01')).items).toHaveLength(3);
      // A parameter given twice is said to be, not to have the wrong type.
      const twice = expectProblem(
        await d.list(world.memberB, '?limit=5&limit=6'),
        400,
        'validation_failed',
      );
      expect(twice.errors).toEqual([{ path: '/limit', message: 'is given 2 times: give it once' }]);
    });
  });
});
