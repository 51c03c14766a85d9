import path from 'node:path';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DOSSIER } from '../../src/features/dossiers/schemas.js';
import { tempDir } from '../helpers/backends.js';
import { importRows, OFFER_KEY_COLUMNS } from '../helpers/market.js';
import { fixedValuer } from '../helpers/valuer.js';
import { call, createWorld, type World } from '../helpers/world.js';
import { createDossier } from '../helpers/fixtures.js';

// The shared dossier page as a person sees it: Debian's headless Chromium (never a downloaded
// browser), JavaScript off, every request it makes recorded, a screenshot taken and read back.

const CHROMIUM = '/usr/bin/chromium-headless-shell';

/** Evaluates an expression in the page (text, so that this file needs no DOM types). */
const inBrowser = <T>(page: Page, expression: string): Promise<T> =>
  page.evaluate(expression) as Promise<T>;
const TODAY = '2026-06-15';
const { latitude: LAT, longitude: LON } = EXAMPLE_DOSSIER.property.location.coordinates;

// Five sale offers of flats within 1 km of the dossier, one 3 km away (not drawn).
const OFFERS = [0.001, 0.002, -0.003, 0.004, -0.005, 0.027].map((dLat, i) => [
  `p${String(i)}`,
  'AT',
  'sale',
  'apartment',
  '2026-05-01',
  400000,
  80,
  10,
  Number((LAT + dLat).toFixed(6)),
  LON,
  '1010',
]);

describe('the shared dossier page in a browser', () => {
  let world: World;
  let browser: Browser;
  let origin: string;
  let pageUrl: string;
  beforeAll(async () => {
    world = await createWorld('sqlite', {
      app: {
        now: () => new Date(`${TODAY}T08:00:00Z`),
        valueProperty: fixedValuer({ '2025-07-01': 4000, '2026-01-01': 4500 }, 5000),
      },
    });
    const header = [
      ...OFFER_KEY_COLUMNS,
      'salePrice',
      'livingArea',
      'daysOnMarket',
      'latitude',
      'longitude',
      'postalCode',
    ];
    await importRows(world, 'offers', header, OFFERS, TODAY);
    await world.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${String((world.app.server.address() as AddressInfo).port)}`;
    const token = world.memberA.token;
    const dossierId = await createDossier(world);
    const link = await call(world.app, {
      method: 'POST',
      url: '/api/v1/dossiers/links',
      token,
      payload: { dossierId, daysToLive: 30, locale: 'de_AT' },
    });
    pageUrl = origin + new URL(link.json<{ url: string }>().url).pathname;
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox'],
      userDataDir: path.join(tempDir(), 'chromium'),
    });
  });
  afterAll(async () => {
    await browser.close();
    await world.close();
  });

  it('shows facts, valuation, map and trend in German, loading nothing else, without JavaScript', async () => {
    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    await page.setViewport({ width: 800, height: 1600 });
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const response = await page.goto(pageUrl, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(requested).toEqual([pageUrl]);

    // What a person reads: each section in order, in German.
    const text = await inBrowser<string>(page, `document.querySelector('main').innerText`);
    const order = [
      'Flat in the first district',
      'Objekt',
      'Graben 12, 1010 Wien',
      'Wohnfläche',
      '72 m²',
      'Geschätzter Kaufpreis',
      '360.000',
      'Spanne',
      'Angebote in der Nähe',
      'Schätzung der letzten 12 Monate',
      'Diese Seite ist abrufbar bis',
    ];
    let at = -1;
    for (const words of order) {
      const next = text.indexOf(words, at + 1);
      expect(next, `"${words}" after position ${String(at)} in:\n${text}`).toBeGreaterThan(at);
      at = next;
    }

    // The layout: sections stacked top to bottom in one column, nothing wider than the page,
    // the map square, five offers drawn within 1 km, the trend a line.
    const boxes = await inBrowser<
      { id: string; top: number; bottom: number; left: number; width: number }[]
    >(
      page,
      `[...document.querySelectorAll('section')].map((s) => {
        const r = s.getBoundingClientRect();
        return { id: s.id, top: r.top, bottom: r.bottom, left: r.left, width: r.width };
      })`,
    );
    expect(boxes.map((b) => b.id)).toEqual(['facts', 'valuation', 'map', 'trend']);
    for (const [i, box] of boxes.entries()) {
      expect(box.width).toBeGreaterThan(500);
      expect(box.left).toBe(boxes[0]?.left);
      if (i > 0) expect(box.top).toBeGreaterThanOrEqual(boxes[i - 1]?.bottom ?? 0);
    }
    const scrollWidth = await inBrowser<number>(page, 'document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(800);
    const map = await inBrowser<{ width: number; height: number; offers: number }>(
      page,
      `(() => {
        const s = document.querySelector('#map svg');
        const r = s.getBoundingClientRect();
        return {
          width: r.width,
          height: r.height,
          offers: s.querySelectorAll('circle[fill="#2f6fdb"]').length,
        };
      })()`,
    );
    expect(map.offers).toBe(5);
    expect(Math.abs(map.width - map.height)).toBeLessThan(1);
    expect(
      await inBrowser<number>(page, `document.querySelectorAll('#trend polyline').length`),
    ).toBe(1);

    // The screenshot: the property's red marker is painted at the map's centre.
    const shot = Buffer.from(await page.screenshot({ type: 'png', fullPage: true }));
    const centre = await inBrowser<{ x: number; y: number }>(
      page,
      `(() => {
        const r = document.querySelector('#map svg').getBoundingClientRect();
        return {
          x: Math.round(r.left + r.width / 2 + window.scrollX),
          y: Math.round(r.top + r.height / 2 + window.scrollY),
        };
      })()`,
    );
    const reader = await browser.newPage();
    await reader.setContent(`<img src="data:image/png;base64,${shot.toString('base64')}">`);
    const pixel = await inBrowser<number[]>(
      reader,
      `(async () => {
        const image = document.querySelector('img');
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        return Array.from(context.getImageData(${String(centre.x)}, ${String(centre.y)}, 1, 1).data);
      })()`,
    );
    expect(pixel.slice(0, 3)).toEqual([0xd7, 0x26, 0x3d]);
    await reader.close();
    await page.close();
  });

  it('a revoked link is a plain 404 page', async () => {
    const token = world.memberA.token;
    const list = await call(world.app, { method: 'GET', url: '/api/v1/dossiers/links', token });
    for (const { id } of list.json<{ items: { id: string }[] }>().items) {
      await call(world.app, { method: 'DELETE', url: `/api/v1/dossiers/links/${id}`, token });
    }
    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    const response = await page.goto(pageUrl, { waitUntil: 'load' });
    expect(response?.status()).toBe(404);
    const text = await inBrowser<string>(page, `document.querySelector('main').innerText`);
    expect(text).toContain('Page not found');
    expect(text).not.toContain('Flat in the first district');
    await page.close();
  });
});
