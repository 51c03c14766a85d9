import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../../../test/helpers/backends.js';
import { makeJpeg, makePng } from '../../../test/helpers/images.js';
import { printVersionOfPng } from '../../pdf/print-version.js';
import { importRows, OFFER_KEY_COLUMNS, PROJECT_COLUMNS } from '../../../test/helpers/market.js';
import { coverForm, multipart } from '../../../test/helpers/multipart.js';
import { makePdf } from '../../../test/helpers/pdf.js';
import {
  imagePlacements,
  imagesPerPage,
  outlineTitles,
  readPdf,
  wordBoxes,
} from '../../../test/helpers/pdf-reader.js';
import { expectProblem } from '../../../test/helpers/problem.js';
import { fixedValuer } from '../../../test/helpers/valuer.js';
import { call, createWorld, type Member, type World } from '../../../test/helpers/world.js';
import { createDossier } from '../../../test/helpers/fixtures.js';
import { EXAMPLE_DOSSIER } from '../dossiers/schemas.js';
import { defaultSections, providerTemplateId } from '../templates/provider-templates.js';
import type { Section } from '../templates/schemas.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import type { ValueProperty } from '../../valuation/types.js';
import { say, type Locale, type MessageKey } from './messages.js';
import { formatsFor } from './render/format.js';

const TODAY = '2026-06-15';
const LAT = 48.2087;
const LON = 16.3695;

/** 60 sale offers of flats within about 900 m of the dossier, over the past 18 months. */
function offers(): (string | number)[][] {
  return Array.from({ length: 60 }, (_, i) => {
    const angle = i * 2.39996;
    const reach = 0.0008 * Math.sqrt(i + 1);
    const area = 45 + ((i * 17) % 70);
    const perSqm = 9000 + ((i * 373) % 4000);
    const month = String(1 + (i % 12)).padStart(2, '0');
    return [
      `v${String(i)}`,
      'AT',
      'sale',
      'apartment',
      `${i % 3 === 0 ? 2025 : 2026}-${i % 3 === 0 ? month : String(1 + (i % 5)).padStart(2, '0')}-10`,
      area * perSqm,
      area,
      Number((LAT + reach * Math.sin(angle)).toFixed(6)),
      Number((LON + reach * Math.cos(angle) * 1.5).toFixed(6)),
      '1010',
    ];
  });
}

const PROJECTS = [
  ['AT', 'p1', 'Graben Lofts', LAT + 0.002, LON, 'planned', 12, 2028, 'true', 'false'],
  [
    'AT',
    'p2',
    'Stephansplatz Höfe',
    LAT - 0.003,
    LON + 0.002,
    'under_construction',
    40,
    2027,
    'true',
    'true',
  ],
];

/** The AT appraisal sections, with `socio` switched off and the floor plans and permits first. */
function sections(): Section[] {
  const all = defaultSections('AT', 'appraisal').map((s) =>
    s.type === 'socio' ? { ...s, enabled: false } : s,
  );
  const first = all.filter(
    (s) => s.type === 'attachments.floorplan' || s.type === 'attachments.permit',
  );
  return [
    ...all.filter((s) => !first.includes(s)).slice(0, 3),
    ...first,
    ...all.filter((s) => !first.includes(s)).slice(3),
  ];
}

/** The document sections of `sections()` the dossier has no documents for, in a row at its end. */
const EMPTY_DOCUMENTS: readonly Section['type'][] = [
  'attachments.marketing',
  'attachments.valuation',
  'attachments.other',
];

/**
 * A report's outline of these sections: each shown section's heading, the document sections
 * without documents in a row one "Documents" entry.
 */
function outlineOf(shown: readonly Section[], locale: Locale): string[] {
  const titles = shown
    .filter((s) => !EMPTY_DOCUMENTS.includes(s.type))
    .map((s) => say(locale, `section.${s.type}`));
  return [...titles, say(locale, 'section.attachments')];
}

/** 11,000 per m², except for dossiers of 333 m², which the market data cannot value. */
const valuer = fixedValuer({}, 11000);
/** Too thin for a flat of 333 m², and for any valuation in the market's first weeks. */
const thinMarketValuer: ValueProperty = (db, request) =>
  request.property.livingArea === 333 || request.date < '2025-02-01'
    ? Promise.reject(new InsufficientDataError('too few comparables'))
    : valuer(db, request);

describeBackends('POST /api/v1/dossiers/{id}/report', (backend) => {
  let world: World;
  let dossier: string;
  let template: string;
  let enabled: Section[];
  beforeAll(async () => {
    world = await createWorld(backend, {
      app: { now: () => new Date(`${TODAY}T12:00:00Z`), valueProperty: thinMarketValuer },
    });
    const offerHeader = [
      ...OFFER_KEY_COLUMNS,
      'salePrice',
      'livingArea',
      'latitude',
      'longitude',
      'postalCode',
    ];
    await importRows(world, 'offers', offerHeader, offers(), TODAY);
    const projectHeader = PROJECT_COLUMNS.filter(
      (column) => !['postalCode', 'constructionStartYear'].includes(column),
    );
    await importRows(world, 'projects', projectHeader, PROJECTS, TODAY);
    const member = world.memberA;
    dossier = await createDossier(world, member, {
      ...EXAMPLE_DOSSIER,
      title: 'Wohnung am Graben – Dachgeschoß, Třebíč-Straße',
    });
    const all = sections();
    enabled = all.filter((s) => s.enabled);
    const t = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/templates/',
      token: member.token,
      payload: { title: 'Appraisal', level: 'user', countryCode: 'AT', sections: all },
    });
    expect(t.statusCode, t.body).toBe(201);
    template = t.json<{ id: string }>().id;
    // The member's own front cover; the organization's back cover (the member has none).
    const front = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/covers/user/front',
      token: member.token,
      ...coverForm(await makePdf(1, 'FRONT COVER')),
    });
    expect(front.statusCode, front.body).toBe(201);
    const back = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/covers/organization/back',
      token: world.adminA.token,
      ...coverForm(await makePdf(1, 'BACK COVER')),
    });
    expect(back.statusCode, back.body).toBe(201);
    for (const [type, file] of [
      ['floorplan', { filename: 'plan.png', data: makePng(400, 300) }],
      ['permit', { filename: 'permit.pdf', data: await makePdf(2, 'PERMIT') }],
    ] as const) {
      const res = await call(world.app, {
        method: 'POST',
        url: `/api/v1/dossiers/${dossier}/attachments`,
        token: member.token,
        ...multipart([
          { name: 'file', ...file },
          { name: 'type', data: type },
        ]),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => world.close());

  const report = (body: object, who: Member = world.memberA, id = dossier) =>
    call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${id}/report`,
      token: who.token,
      payload: body,
    });

  it('renders the template: covers, title page, enabled sections in order as outline entries, attachments', async () => {
    const res = await report({ templateId: template, date: '2026-01-15' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".*\.pdf"/);
    const bytes = res.rawPayload;
    const titles = await outlineTitles(bytes);
    expect(titles).toEqual(outlineOf(enabled, 'en'));
    expect(titles).not.toContain(say('en', 'section.socio'));

    const pdf = await readPdf(bytes);
    // Lines wrap where the layout says: the text is compared with its white space collapsed.
    pdf.pages = pdf.pages.map((p) => p.replace(/\s+/g, ' '));
    const first = pdf.pages[0] ?? '';
    const last = pdf.pages[pdf.pageCount - 1] ?? '';
    expect(first).toContain('FRONT COVER, page 1');
    expect(last).toContain('BACK COVER, page 1');
    // The title page follows the cover, with the dossier's title in Latin Extended.
    expect(pdf.pages[1]).toContain('Wohnung am Graben – Dachgeschoß, Třebíč-Straße');
    const permit = pdf.pages.findIndex((p) => p.includes('PERMIT, page 1'));
    expect(pdf.pages[permit + 1]).toContain('PERMIT, page 2');
    // The permits' section page comes right before its attached pages.
    expect(pdf.pages[permit - 1]).toContain(say('en', 'section.attachments.permit'));
    // Document sections with nothing to show in a row (no photos, valuation or other documents
    // attached) are one band that names them, after the permits' attached pages.
    const kinds = EMPTY_DOCUMENTS.map((type) => say('en', `section.${type}`)).join(', ');
    const empty = pdf.pages.findIndex((p) =>
      p.includes(say('en', 'noAttachmentsOfKinds', { kinds })),
    );
    expect(empty).toBeGreaterThan(permit + 1);
    expect(pdf.pages[empty]).toContain(say('en', 'section.attachments'));
    expect(pdf.pages.join('\n')).not.toContain(say('en', 'noAttachments'));
    const all = pdf.pages.join('\n');
    expect(all).toContain(say('en', 'noData'));
    expect(all).toContain('Graben Lofts');
    // The histogram of the offers' prices per m² is drawn from every offer counted.
    expect(all).toContain(say('en', 'histogram'));
    expect(all).toMatch(/Page \d+ of \d+/);
    expect(all).toContain(`Page ${pdf.pageCount - 1} of ${pdf.pageCount}`);
    // The report's own fonts are embedded; only the uploaded test PDFs use a standard font.
    const own = pdf.fonts.filter((f) => f.name.includes('DejaVuSans'));
    expect(own.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(
      expect.arrayContaining(['DejaVuSans', 'DejaVuSans-Bold']),
    );
    for (const font of own) expect(font, font.name).toMatchObject({ embedded: true });
    expect(new Set(pdf.fonts.filter((f) => !f.embedded).map((f) => f.name))).toEqual(
      new Set(['Helvetica']),
    );
  });

  it('writes headings, numbers and dates in the requested locale', async () => {
    const res = await report({ templateId: template, date: '2026-01-15', locale: 'cs' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await outlineTitles(res.rawPayload)).toEqual(outlineOf(enabled, 'cs'));
    const czech = await readPdf(res.rawPayload);
    const text = czech.pages.join('\n');
    expect(text).toContain('15. ledna 2026');
    // A later report of the same worker (fonts parsed once, reused) still embeds its fonts.
    const own = czech.fonts.filter((f) => f.name.includes('DejaVuSans'));
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const font of own) expect(font, font.name).toMatchObject({ embedded: true });
    expect(text).toContain(say('cs', 'noData'));
    const de = await report({ templateId: template, date: '2026-01-15', locale: 'de' });
    // The dossier is in Vienna: German as Austria writes it, unless the locale names a region.
    expect((await readPdf(de.rawPayload)).pages.join('\n')).toContain('15. Jänner 2026');
    // A locale with its region, as sharing links take it: the language decides the texts, the
    // region how numbers and dates are written.
    for (const [locale, day] of [
      ['de_CH', '15. Januar 2026'],
      ['de-de', '15. Januar 2026'],
      ['fr-FR', '15 janvier 2026'],
      ['CS-cz', '15. ledna 2026'],
    ]) {
      const res = await report({ templateId: template, date: '2026-01-15', locale });
      expect(res.statusCode, res.body).toBe(200);
      expect((await readPdf(res.rawPayload)).pages.join('\n'), locale).toContain(day);
    }
  });

  it('prints every table header whole, wrapped between words, in the locales with long ones', async () => {
    const headers = [
      'distance',
      'price',
      'pricePerSqm',
      'livingArea',
      'rooms',
      'buildingYear',
      'published',
    ] as const;
    for (const locale of ['it', 'fr', 'nl', 'cs', 'sk'] as const) {
      const res = await report({ templateId: template, date: '2026-01-15', locale });
      expect(res.statusCode, res.body).toBe(200);
      const words = new Set((await readPdf(res.rawPayload)).pages.join('\n').split(/\s+/));
      for (const key of headers) {
        for (const word of say(locale, key).split(' '))
          expect(words, `${locale} ${word}`).toContain(word);
      }
    }
  });

  it('labels the title page and headline values with the dates they are for', async () => {
    const res = await report({ templateId: template, date: '2026-01-15' });
    expect(res.statusCode, res.body).toBe(200);
    const pages = (await readPdf(res.rawPayload)).pages.map((p) => p.replace(/\s+/g, ' '));
    // Page 0 is the front cover.
    const title = pages[1] ?? '';
    expect(title).toContain(say('en', 'valuationDate').toUpperCase());
    expect(title).toContain(say('en', 'comparedWithDate').toUpperCase());
    expect(title).toContain('15 January 2026');
    // The headline is today's value, and says so where it stands (overview and valuation).
    const headlines = pages.filter((p) => p.includes(say('en', 'estimatedValue').toUpperCase()));
    expect(headlines.length).toBeGreaterThanOrEqual(2);
    for (const page of headlines) expect(page).toContain('on 15 June 2026');
  });

  it('fits a long title and its address into the title page’s band, and leaves out what the fonts cannot draw', async () => {
    const title =
      'Gründerzeithaus mit Dachterrasse und Blick über Wien 🏠✨ – Verkaufsauftrag der ' +
      'Erbengemeinschaft Lüdenscheidt & Söhne, Nr. 2026/ÄÖÜ-0042, Übergabe im dritten Quartal ' +
      '2026, Besichtigung n. Vereinbarung';
    expect(Array.from(title).length).toBeLessThanOrEqual(200);
    const street = 'Untere Weißgerberstraße gegenüber dem Hundertwasserhaus, Stiege 3';
    const id = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      title,
      property: {
        ...EXAMPLE_DOSSIER.property,
        location: {
          ...EXAMPLE_DOSSIER.property.location,
          address: { postCode: '1010', city: 'Wien-Innere Stadt 🏙️', street, houseNumber: '12' },
        },
      },
    });
    const res = await report({ templateId: template }, world.memberA, id);
    expect(res.statusCode, res.body).toBe(200);
    // Page 0 is the front cover. The band ends at 330 pt; the facts panel starts below it.
    const words = (await wordBoxes(res.rawPayload))[1] ?? [];
    const printed = (text: string) => text.replace(/ ?\p{Extended_Pictographic}\uFE0F?/gu, '');
    for (const word of [...printed(title).split(' '), ...street.split(' '), 'Wien-Innere']) {
      const box = words.find((w) => w.text === word);
      expect(box, word).toBeDefined();
      expect(box?.yMax, word).toBeLessThanOrEqual(330);
    }
    // The address below the title's last line, not under it.
    const lastTitleWord = words.find((w) => w.text === 'Vereinbarung');
    const firstAddressWord = words.find((w) => w.text === 'Untere');
    expect(firstAddressWord?.yMin).toBeGreaterThan(lastTitleWord?.yMax ?? Infinity);
    // No emoji (the typefaces have none: they would print as empty boxes), on any page.
    const text = (await readPdf(res.rawPayload)).pages.join('\n');
    expect(text).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(text).toContain('Blick über Wien – Verkaufsauftrag');
  });

  it('compares with a year back when no date is asked for, and so lists the offers of that year', async () => {
    const res = await report({ templateId: template });
    expect(res.statusCode, res.body).toBe(200);
    const pages = (await readPdf(res.rawPayload)).pages.map((p) => p.replace(/\s+/g, ' '));
    expect(pages[1]).toContain(say('en', 'comparedWithDate').toUpperCase());
    expect(pages[1]).toContain('15 June 2025');
    const text = pages.join(' ');
    expect(text).toMatch(/\d+ offers of the same kind found since 15 June 2025/);
    expect(text).not.toContain(say('en', 'noOffers', { date: '15 June 2025' }));
    // Under the value, what it rests on (the stand-in's basis: 12 offers within 500 m).
    expect(text).toContain(
      'The value rests on 12 comparable offers within 500 m, published in the 24 months up to 15 June 2026.',
    );
  });

  it('values today where the data is too thin at the date compared with, and says so for that date', async () => {
    const early = await report({ templateId: template, date: '1990-01-01' });
    expect(early.statusCode).toBe(400);
    const first = /first offer \((\d{4}-\d{2}-\d{2})\)/.exec(early.body)?.[1];
    if (!first) throw new Error(`no first offer day in ${early.body}`);
    const res = await report({ templateId: template, date: first });
    expect(res.statusCode, res.body).toBe(200);
    const text = (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain(say('en', 'estimatedValue').toUpperCase());
    expect(text).toMatch(/The market data is too thin for a valuation on \d+ \w+ \d{4}\./);
    expect(text).not.toContain(say('en', 'noValuation'));
    expect(text).not.toContain(say('en', 'change'));
    // Compared with today itself: one row, no change.
    const same = await report({ templateId: template, date: TODAY });
    expect(same.statusCode, same.body).toBe(200);
    const sameText = (await readPdf(same.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    const rows = sameText.match(/15 June 2026 €[\d,]+ €[\d,]+ – €[\d,]+ \w+/g) ?? [];
    expect(rows).toHaveLength(1);
    // No offer was published on that day: the report says so in words that fit today.
    expect(sameText).toContain(say('en', 'noOffersToday'));
    // One trend bar, the last six months: "around today" would be most of them again.
    expect(sameText).toContain(say('en', 'trendRecent'));
    expect(sameText).not.toContain(say('en', 'trendAround', { date: '15 June 2026' }));
    expect(sameText).not.toContain('since 15 June 2026');
  });

  it('shows the net rents the valuation gives where the template asks for net rents', async () => {
    const member = world.memberA;
    const id = await createDossier(world, member, { ...EXAMPLE_DOSSIER, dealType: 'rent' });
    // Rent offers around it (gross rents, as listings state them), for the price histogram.
    await importRows(
      world,
      'offers',
      [...OFFER_KEY_COLUMNS, 'rentGross', 'livingArea', 'latitude', 'longitude', 'postalCode'],
      Array.from({ length: 12 }, (_, i) => [
        `r${String(i)}`,
        'AT',
        'rent',
        'apartment',
        `2026-0${String(1 + (i % 5))}-10`,
        1500 + 40 * i,
        60 + i,
        LAT + 0.0005 * Math.sin(i),
        LON + 0.0005 * Math.cos(i),
        '1010',
      ]),
      TODAY,
    );
    const t = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/templates/',
      token: member.token,
      payload: {
        title: 'Net',
        level: 'user',
        countryCode: 'AT',
        rentType: 'rent_net',
        frontCover: false,
        backCover: false,
        sections: defaultSections('AT', 'appraisal').map((s) => ({
          ...s,
          enabled: s.type === 'valuation' || s.type === 'comparables',
        })),
      },
    });
    expect(t.statusCode, t.body).toBe(201);
    const valued = await call(world.app, {
      method: 'POST',
      url: '/api/v1/valuation/property_value',
      token: member.token,
      payload: { dealType: 'rent', countryCode: 'AT', valuationInputs: [{ dossierId: id }] },
    });
    expect(valued.statusCode, valued.body).toBe(200);
    const [[api]] = valued.json<{ valuations: { rentNet: number; rentGross: number }[][] }>()
      .valuations as [[{ rentNet: number; rentGross: number }]];
    expect(api.rentNet).toBeLessThan(api.rentGross);
    const res = await report(
      { templateId: t.json<{ id: string }>().id, date: '2026-01-15' },
      member,
      id,
    );
    expect(res.statusCode, res.body).toBe(200);
    const text = (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    const money = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency: 'EUR',
      maximumFractionDigits: 0,
    });
    expect(text).toContain(say('en', 'estimatedNetRent').toUpperCase());
    expect(text).toContain(money.format(api.rentNet));
    expect(text).not.toContain(money.format(api.rentGross));
    // The histogram of the offers' gross rents marks the property at its gross rent, and says so.
    expect(text).toContain(say('en', 'histogram'));
    expect(text).toContain(say('en', 'subjectGross'));
    // The trends' mean rents per m² are the offers' gross rents: said beside them.
    expect(text).toContain(say('en', 'trendChart'));
    expect(text).toContain(say('en', 'offersGross'));
  });

  it('counts in each map legend the points that map draws', async () => {
    const res = await report({ templateId: template, date: '2026-01-15' });
    expect(res.statusCode, res.body).toBe(200);
    const text = (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    // The overview's map draws the offers; the projects' map draws none, and says nothing of them.
    expect(text).toMatch(/Offers \([1-9]\d*\)/);
    expect(text).not.toContain('Offers (0)');
    expect(text.match(/Projects \(2\)/g)).toHaveLength(2);
    expect(text).not.toMatch(/Offers \(\d+ of \d+\)/);
    // Without the projects section, the overview's map draws no project (nothing would say
    // what they are).
    const noProjects = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/templates/',
      token: world.memberA.token,
      payload: {
        title: 'Overview only',
        level: 'user',
        countryCode: 'AT',
        sections: sections().map((s) => ({ ...s, enabled: s.type === 'overview' })),
      },
    });
    expect(noProjects.statusCode, noProjects.body).toBe(201);
    const overview = await report({
      templateId: noProjects.json<{ id: string }>().id,
      date: '2026-01-15',
    });
    expect(overview.statusCode, overview.body).toBe(200);
    const overviewText = (await readPdf(overview.rawPayload)).pages.join(' ');
    expect(overviewText).toMatch(/Offers \([1-9]\d*\)/);
    expect(overviewText).not.toContain('Projects');
    // More offers than the map draws: the legend counts the 60 drawn, a note the rest.
    await importRows(
      world,
      'offers',
      [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'latitude', 'longitude', 'postalCode'],
      Array.from({ length: 70 }, (_, i) => [
        `m${String(i)}`,
        'AT',
        'sale',
        'apartment',
        '2026-04-10',
        700000,
        70,
        Number((LAT + 0.004 * Math.sin(i)).toFixed(6)),
        Number((LON + 0.006 * Math.cos(i)).toFixed(6)),
        '1010',
      ]),
      TODAY,
    );
    const more = await report({ templateId: template, date: '2026-01-15' });
    const moreText = (await readPdf(more.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    const total = Number(/(\d+) offers of the same kind found since/.exec(moreText)?.[1]);
    expect(total).toBeGreaterThan(60);
    expect(moreText).toContain(`Offers (60 of ${String(total)})`);
  });

  it('names a provider template in the report’s language, a user template as its owner wrote it', async () => {
    const res = await report({
      templateId: providerTemplateId('AT', 'brochure'),
      date: '2026-01-15',
      locale: 'de',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Page 0 is the member's front cover.
    const title = (await readPdf(res.rawPayload)).pages[1] ?? '';
    expect(title).toContain(`${say('de', 'template.brochure')} · 15. Juni 2026`);
    expect(title).not.toContain('Sales brochure');
    const own = await report({ templateId: template, date: '2026-01-15', locale: 'de' });
    expect((await readPdf(own.rawPayload)).pages[1]).toContain('Appraisal · 15. Juni 2026');
  });

  /** Uploads a marketing photo, "Street front", to a dossier of member A. */
  const addStreetFront = async (id: string, data: Buffer) => {
    const photo = await call(world.app, {
      method: 'POST',
      url: `/api/v1/dossiers/${id}/attachments`,
      token: world.memberA.token,
      ...multipart([
        { name: 'file', filename: data[0] === 0xff ? 'front.jpg' : 'front.png', data },
        { name: 'type', data: 'marketing' },
        { name: 'title', data: 'Street front' },
      ]),
    });
    expect(photo.statusCode, photo.body).toBe(201);
  };

  /** Member A's brochure template without covers, showing only the sections named. */
  const brochure = async (shown: string[]) => {
    const t = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/templates/',
      token: world.memberA.token,
      payload: {
        title: 'Brochure',
        level: 'user',
        countryCode: 'AT',
        frontCover: false,
        backCover: false,
        sections: defaultSections('AT', 'brochure').map((s) => ({
          ...s,
          enabled: shown.includes(s.type),
        })),
      },
    });
    expect(t.statusCode, t.body).toBe(201);
    return t.json<{ id: string }>().id;
  };

  it.each(['jpeg', 'png'] as const)(
    'embeds a brochure’s lead photo once, though it shows it twice (%s)',
    async (format) => {
      const id = await createDossier(world, world.memberA, EXAMPLE_DOSSIER);
      await addStreetFront(id, format === 'jpeg' ? makeJpeg(320, 200) : makePng(320, 200));
      const templateId = await brochure(['overview', 'attachments.marketing']);
      const res = await report({ templateId, date: '2026-01-15' }, world.memberA, id);
      expect(res.statusCode, res.body).toBe(200);
      // Drawn on the overview and among the photos: two pages, one image object.
      const placements = await imagePlacements(res.rawPayload);
      expect(new Set(placements.map((p) => p.page)).size).toBe(2);
      expect(placements).toHaveLength(2);
      expect(new Set(placements.map((p) => p.object)).size).toBe(1);
    },
  );

  it('leads a brochure with the first marketing image, and draws the floor plan on its page', async () => {
    await addStreetFront(dossier, makeJpeg(320, 200));
    const templateId = await brochure(['overview', 'attachments.floorplan']);
    const res = await report({ templateId, date: '2026-01-15' });
    expect(res.statusCode, res.body).toBe(200);
    const pdf = await readPdf(res.rawPayload);
    expect(await outlineTitles(res.rawPayload)).toEqual([
      say('en', 'section.overview'),
      say('en', 'section.attachments.floorplan'),
    ]);
    // No covers: the title page, the overview led by the photo with its map on the same page
    // (the photo leaves it room), the floor plan on the last page.
    expect(pdf.pageCount).toBe(3);
    expect(pdf.pages[1]).toContain(say('en', 'highlights'));
    expect(pdf.pages[1]).toContain('Street front');
    expect(pdf.pages[1]).toContain(say('en', 'subject'));
    expect(pdf.pages[pdf.pageCount - 1]).toContain('plan.png');
    const images = await imagesPerPage(res.rawPayload);
    expect([images.get(1) ?? 0, images.get(2), images.get(pdf.pageCount)]).toEqual([0, 1, 1]);
  });

  it('marks a brochure’s property at its asking price among the offers, never at a value it does not show', async () => {
    const templateId = await brochure(['overview', 'comparables']);
    const priced = await createDossier(world, world.memberA, EXAMPLE_DOSSIER);
    const text = async (id: string) => {
      const res = await report({ templateId, date: '2026-01-15' }, world.memberA, id);
      expect(res.statusCode, res.body).toBe(200);
      return (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    };
    const shown = await text(priced);
    expect(shown).toContain(say('en', 'histogram'));
    // 450,000 for 72 m², not the stand-in valuer's 11,000 per m².
    const perArea = formatsFor('en', 'EUR').perArea;
    const labelled = (key: MessageKey, value: number) =>
      say('en', 'labelled', { label: say('en', key), value: perArea(value) }).replace(/\s+/g, ' ');
    expect(shown).toContain(labelled('askingPrice', 450_000 / 72));
    expect(shown).not.toContain(labelled('subject', 11_000));
    // Without an asking price, the histogram marks nothing.
    const unpriced = { ...EXAMPLE_DOSSIER, askingSalePrice: undefined };
    const plain = await text(await createDossier(world, world.memberA, unpriced));
    expect(plain).toContain(say('en', 'histogram'));
    expect(plain).not.toContain(labelled('subject', 11_000));
    expect(plain).not.toContain(say('en', 'askingPrice'));
  });

  it('makes the print version of an image stored without one at its first report, and keeps it', async () => {
    // As an upload before print versions were made left it.
    const db = world.stores.accounts.db;
    const floorplan = await db
      .selectFrom('attachments')
      .select('id')
      .where('dossier_id', '=', dossier)
      .where('type', '=', 'floorplan')
      .executeTakeFirstOrThrow();
    const stored = async () => {
      const chunks = await db
        .selectFrom('attachment_chunks')
        .select('bytes')
        .where('attachment_id', '=', floorplan.id)
        .orderBy('seq')
        .execute();
      const { print_content } = await db
        .selectFrom('attachment_files')
        .select('print_content')
        .where('attachment_id', '=', floorplan.id)
        .executeTakeFirstOrThrow();
      return { content: Buffer.concat(chunks.map((c) => c.bytes)), print_content };
    };
    await db
      .updateTable('attachment_files')
      .set({ print_content: null })
      .where('attachment_id', '=', floorplan.id)
      .execute();
    const res = await report({ templateId: template, date: '2026-01-15' });
    expect(res.statusCode, res.body).toBe(200);
    const after = await stored();
    if (!after.print_content) throw new Error('no print version kept');
    expect(
      Buffer.from(after.print_content).equals(printVersionOfPng(Buffer.from(after.content))),
    ).toBe(true);
  });

  it('says which offers the mean prices count, and that there are none rather than an empty chart', async () => {
    const collapsed = async (id: string) => {
      const res = await report({ templateId: template, locale: 'de' }, world.memberA, id);
      expect(res.statusCode, res.body).toBe(200);
      return (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    };
    const said = (key: 'trendScope' | 'noTrend', min: string, max: string) =>
      say('de', key, { min: `${min} m²`, max: `${max} m²` }).replace(/\s+/g, ' ');
    // 72 m²: offers of 54–90 m² are counted (the tracker's ±25%), and the offers have such sizes.
    const text = await collapsed(dossier);
    expect(text).toContain(said('trendScope', '54', '90'));
    expect(text).not.toContain(said('noTrend', '54', '90'));
    // 300 m²: no offer of 225–375 m² (they have 45–114 m²): a sentence, not bars of n = 0.
    const large = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      property: { ...EXAMPLE_DOSSIER.property, livingArea: 300 },
    });
    const none = await collapsed(large);
    expect(none).toContain(said('noTrend', '225', '375'));
    expect(none).not.toContain('n = 0');
  });

  it('gives the mean price per m² by quarter of the offers since the date, or says there are none', async () => {
    // Flats in Zürich within 200 m, three in each of five quarters: 2025 Q2 to 2026 Q2.
    const zurich = { latitude: 47.3769, longitude: 8.5417 };
    const rows = Array.from({ length: 15 }, (_, i) => {
      const month = 4 + 3 * Math.floor(i / 3); // 4, 7, 10, 13, 16: one quarter each
      const startDate = `${String(2025 + Math.floor((month - 1) / 12))}-${String(((month - 1) % 12) + 1).padStart(2, '0')}-${String(5 + i).padStart(2, '0')}`;
      const area = 60 + i;
      return {
        startDate,
        area,
        price: area * (12000 + 250 * i),
        row: [
          `ch${String(i)}`,
          'CH',
          'sale',
          'apartment',
          startDate,
          area * (12000 + 250 * i),
          area,
          Number((zurich.latitude + 0.0001 * i).toFixed(6)),
          zurich.longitude,
          '8001',
        ],
      };
    });
    await importRows(
      world,
      'offers',
      [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'latitude', 'longitude', 'postalCode'],
      rows.map((r) => r.row),
      TODAY,
    );
    const flat = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      countryCode: 'CH',
      property: {
        ...EXAMPLE_DOSSIER.property,
        location: { address: { postCode: '8001', city: 'Zürich' }, coordinates: zurich },
      },
    });
    const created = await call(world.app, {
      method: 'POST',
      url: '/api/v1/user-settings/templates/',
      token: world.memberA.token,
      payload: {
        title: 'Market',
        level: 'user',
        countryCode: 'CH',
        sections: defaultSections('CH', 'appraisal').map((s) => ({
          ...s,
          enabled: s.type === 'market',
        })),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const market = async (date: string) => {
      const res = await report(
        { templateId: created.json<{ id: string }>().id, date },
        world.memberA,
        flat,
      );
      expect(res.statusCode, res.body).toBe(200);
      return (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    };
    // Since 2025-07-09: the quarters from 2025 Q3 on (two of its three offers), each its own
    // offers' mean, computed here.
    const since = '2025-07-09';
    const text = await market(since);
    const quarters = new Map<string, number[]>();
    for (const r of rows.filter((r) => r.startDate >= since)) {
      const [year = '', month = ''] = r.startDate.split('-');
      const key = `Q${String(Math.ceil(Number(month) / 3))} ${year}`;
      quarters.set(key, [...(quarters.get(key) ?? []), r.price / r.area]);
    }
    expect([...quarters.keys()]).toEqual(['Q3 2025', 'Q4 2025', 'Q1 2026', 'Q2 2026']);
    for (const [key, prices] of quarters) {
      const mean = prices.reduce((a, b) => a + b, 0) / prices.length;
      const shown = `${key} CHF ${new Intl.NumberFormat('en-GB').format(Math.round(mean))} ${String(prices.length)}`;
      expect(text).toContain(shown);
    }
    expect(quarters.get('Q3 2025')).toHaveLength(2);
    expect(text).not.toContain('Q2 2025');
    // Compared with today, on which no offer was published: that, not "no data for this area".
    const today = await market(TODAY);
    expect(today).toContain(say('en', 'noOffersToday'));
    expect(today).not.toContain(say('en', 'noData'));
  });

  it('heads the statement that there are no transaction data where a template asks for them', async () => {
    const berlin = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      countryCode: 'DE',
      property: {
        ...EXAMPLE_DOSSIER.property,
        location: {
          address: { postCode: '10115', city: 'Berlin' },
          coordinates: { latitude: 52.532, longitude: 13.384 },
        },
      },
    });
    const res = await report(
      { templateId: providerTemplateId('DE', 'appraisal'), locale: 'de' },
      world.memberA,
      berlin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const text = (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain(`${say('de', 'transactionsHeading')} ${say('de', 'noTransactions')}`);
  });

  it('sets a label and its value as each language does: French with a space before the colon', async () => {
    const text = async (locale: 'fr' | 'en') => {
      const res = await report({ templateId: template, locale }, world.memberA, dossier);
      expect(res.statusCode, res.body).toBe(200);
      return (await readPdf(res.rawPayload)).pages.join(' ');
    };
    // The histogram's marker: the property and its price per m².
    expect(await text('fr')).toMatch(/Ce bien\s: \d/u);
    expect(await text('en')).toMatch(/This property: €\d/);
  });

  it('says where the market data cannot value the dossier, instead of showing numbers', async () => {
    const id = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      property: { ...EXAMPLE_DOSSIER.property, livingArea: 333 },
    });
    const res = await report(
      { templateId: template, date: '2026-01-15', locale: 'it' },
      world.memberA,
      id,
    );
    expect(res.statusCode, res.body).toBe(200);
    // Without any attachment, the floor plans and permits are one "Documents" entry, and the
    // photos, valuation and other documents another.
    expect(await outlineTitles(res.rawPayload)).toEqual(
      [
        'overview',
        'comparables',
        'amenities',
        'attachments',
        'projects',
        'accessibility',
        'valuation',
        'attachments',
      ].map((type) => say('it', `section.${type}` as MessageKey)),
    );
    const text = (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain(say('it', 'noValuation'));
    expect(text).not.toContain(say('it', 'estimatedValue').toUpperCase());
    // Its map shows the property alone: no legend entry for projects it has none of.
    expect(text).not.toContain(`${say('it', 'projects')} (0)`);
    // A multi-family house is not valued for its type, and the report says that instead.
    const house = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      property: { ...EXAMPLE_DOSSIER.property, propertyType: { code: 'multi_family_house' } },
    });
    const mfh = await report({ templateId: template, locale: 'de' }, world.memberA, house);
    expect(mfh.statusCode, mfh.body).toBe(200);
    const said = (await readPdf(mfh.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
    expect(said).toContain(say('de', 'noValuationType'));
    expect(said).not.toContain(say('de', 'noValuation'));
    // Nor does it claim that no building projects are known, or that no offers were found:
    // none were looked for.
    expect(said).not.toContain(say('de', 'noProjects'));
    expect(said).not.toMatch(/Angebote \(0\)/);
    expect(said).toContain(say('de', 'subject'));
  });

  it('lists the offers of its postcode for a dossier known by its postcode only, those without coordinates too', async () => {
    // Last: it adds an offer. A flat in 1010 known by its postcode only, as many listings are.
    await importRows(
      world,
      'offers',
      [...OFFER_KEY_COLUMNS, 'salePrice', 'livingArea', 'postalCode'],
      [['np1', 'AT', 'sale', 'apartment', '2026-05-10', 765432, 70, '1010']],
      TODAY,
    );
    const byPostcode = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      property: {
        ...EXAMPLE_DOSSIER.property,
        location: { address: { postCode: '1010' } },
      },
    });
    const found = async (id: string) => {
      const res = await report({ templateId: template, date: '2026-01-15' }, world.memberA, id);
      expect(res.statusCode, res.body).toBe(200);
      const text = (await readPdf(res.rawPayload)).pages.join(' ').replace(/\s+/g, ' ');
      return Number(/(\d+) offers of the same kind found since/.exec(text)?.[1]);
    };
    // Without a title, the address is the title, printed once ("1010 Wien", not again below).
    const noTitle = await createDossier(world, world.memberA, {
      ...EXAMPLE_DOSSIER,
      title: undefined,
      property: {
        ...EXAMPLE_DOSSIER.property,
        location: { address: { postCode: '1010', city: 'Wien' } },
      },
    });
    const titled = await report({ templateId: template }, world.memberA, noTitle);
    expect(titled.statusCode, titled.body).toBe(200);
    const titlePage = (await readPdf(titled.rawPayload)).pages.find((p) =>
      p.includes(say('en', 'reportTitle').toUpperCase()),
    );
    expect(titlePage?.match(/1010 Wien/g)).toHaveLength(1);
    // The offers of 1010 since the date: the 60 around the Graben that are, and the one without
    // coordinates; a dossier with coordinates takes the offers around its point only.
    const around = await found(dossier);
    expect(around).toBeGreaterThan(0);
    expect(await found(byPostcode)).toBe(around + 1);
  });

  describe('refusals', () => {
    it('answers 404 for a dossier or template the caller cannot see', async () => {
      expectProblem(await report({ templateId: template }, world.adminB), 404, 'not_found');
      const foreign = await call(world.app, {
        method: 'POST',
        url: '/api/v1/user-settings/templates/',
        token: world.memberB.token,
        payload: { title: 'B', level: 'user', countryCode: 'AT', sections: sections() },
      });
      const problem = expectProblem(
        await report({ templateId: foreign.json<{ id: string }>().id }),
        404,
        'not_found',
      );
      expect(problem.detail).toBe('Template not found');
    });

    it('answers 400 for a template of another country, an unknown locale or a date out of range', async () => {
      const cz = await call(world.app, {
        method: 'POST',
        url: '/api/v1/user-settings/templates/',
        token: world.memberA.token,
        payload: {
          title: 'CZ',
          level: 'user',
          countryCode: 'CZ',
          sections: defaultSections('CZ', 'appraisal'),
        },
      });
      const wrongCountry = expectProblem(
        await report({ templateId: cz.json<{ id: string }>().id }),
        400,
        'validation_failed',
      );
      expect(wrongCountry.errors?.[0]?.path).toBe('/templateId');
      for (const other of ['es', 'es_ES', 'deu', 'de_', 'de_CH_x']) {
        const locale = expectProblem(
          await report({ templateId: template, locale: other }),
          400,
          'validation_failed',
        );
        expect(locale.errors?.[0]?.path, other).toBe('/locale');
      }
      // A locale with extensions is not the form taken: said in words, not by its length.
      const extended = expectProblem(
        await report({ templateId: template, locale: 'de-CH-u-nu-arab' }),
        400,
        'validation_failed',
      );
      expect(extended.errors).toEqual([
        {
          path: '/locale',
          message:
            'must be a language of two letters, optionally with a region: en, de, de_CH, fr-FR',
        },
      ]);
      const future = expectProblem(
        await report({ templateId: template, date: '2026-06-16' }),
        400,
        'validation_failed',
      );
      expect(future.errors?.[0]?.path).toBe('/date');
    });
  });
});
