import type { Section } from '../../templates/schemas.js';
import { attachmentKindOf, isShown, statedLayout } from '../../templates/section-rules.js';
import type { Trend } from '../../tracker/schemas.js';
import { similarAreas } from '../../tracker/trends.js';
import { valuationChangePercent } from '../../tracker/change.js';
import type { OfferItem, ProjectItem } from '../../tracker/schemas.js';
import { countedKey, say, type MessageKey } from '../messages.js';
import type { ReportAttachment, ReportModel } from '../model.js';
import type { PartialInsights } from '../../tracker/tracker.js';
import { accessibility, nearestStops } from './accessibility.js';
import { amenities, hasAmenities } from './amenities.js';
import { barChart, histogram, locationMap, MAP_BELOW, MAP_HEIGHT } from './charts.js';
import { attachmentFile, markInsert, UnusableFile } from './merge.js';
import { imageFit } from './image-fit.js';
import { printableImage } from './print-images.js';
import { drawImage } from './png-xobject.js';
import { shownImageSize } from '../../../pdf/image-inspection.js';
import { socio, socioRows } from './socio.js';
import type { Formats } from './format.js';
import type { ComparablesBasis } from '../../../valuation/types.js';
import {
  capitals,
  CONTENT_BOTTOM,
  CONTENT_WIDTH,
  facts,
  factsHeight,
  nextPage,
  paragraph,
  paragraphsFit,
  room,
  STYLE,
  subheading,
  SUBHEADING_HEIGHT,
  table,
  type Doc,
} from './page.js';

/** What every section renderer gets. */
export interface SectionContext {
  doc: Doc;
  model: ReportModel;
  f: Formats;
  t: (key: MessageKey, values?: Record<string, string | number>) => string;
  /** PDF attachments to insert after generated page `afterPage` (0-based). */
  inserts: { afterPage: number; attachment: ReportAttachment }[];
  /** The outline entry of the section being drawn (the root before the first). */
  outline: PDFKit.PDFOutline;
  /** The number a generated page (0-based) will have in the report, covers and attached
   * pages counted (for attachments announced so far: those before that page). */
  numberOf: (page: number) => number;
}

const MAP_POINTS = 60;
const TABLE_ROWS = 20;
const DETAIL_BLOCKS = 6;

const config = (section: Section, item: string) => section.configuration[item] === true;

/** The property's facts, as labelled values. */
export function propertyFacts({ model, f, t }: SectionContext): [string, string][] {
  const d = model.dossier;
  const pairs: [string, string][] = [
    [t('propertyType'), t(d.propertyType)],
    [t('dealType'), t(d.dealType)],
    [t('livingArea'), f.area(d.livingArea)],
  ];
  if (d.numberOfRooms !== undefined) pairs.push([t('rooms'), f.number(d.numberOfRooms, 1)]);
  if (d.landArea !== undefined) pairs.push([t('landArea'), f.area(d.landArea)]);
  if (d.buildingYear !== undefined) pairs.push([t('buildingYear'), String(d.buildingYear)]);
  if (d.renovationYear !== undefined) pairs.push([t('renovationYear'), String(d.renovationYear)]);
  if (d.floorNumber !== undefined) pairs.push([t('floor'), f.number(d.floorNumber)]);
  if (d.hasLift !== undefined) pairs.push([t('lift'), t(d.hasLift ? 'yes' : 'no')]);
  if (d.askingSalePrice !== undefined) pairs.push([t('askingPrice'), f.money(d.askingSalePrice)]);
  return pairs;
}

type Located = { coordinates: { latitude: number; longitude: number } | null };

const located = (items: Located[]) =>
  items
    .slice(0, MAP_POINTS)
    .flatMap((i) =>
      i.coordinates ? [i.coordinates] : ([] as { latitude: number; longitude: number }[]),
    );

/** The location map; `offers` null where it shows none (the projects' own map; no valuation). */
function map(ctx: SectionContext, offers: OfferItem[] | null, projects: ProjectItem[]): void {
  const d = ctx.model.dossier;
  const drawn = offers && located(offers);
  // The legend counts the points drawn; where the lists count more (the map draws the nearest
  // 60, and offers without a point not at all), it says of how many.
  const total = ctx.model.tracker?.offers.totalItems ?? 0;
  const offersLabel =
    drawn && total > drawn.length
      ? `${ctx.t('offers')} (${ctx.t('ofTotal', { shown: ctx.f.number(drawn.length), total: ctx.f.number(total) })})`
      : undefined;
  locationMap(
    ctx.doc,
    { latitude: d.latitude, longitude: d.longitude },
    drawn,
    located(projects),
    {
      subject: ctx.t('subject'),
      offers: ctx.t('offers'),
      projects: ctx.t('projects'),
      ...(offersLabel ? { offersWithCount: offersLabel } : {}),
    },
    ctx.f.roundDistance,
  );
  if (d.precision === 'postcode')
    paragraph(ctx.doc, ctx.t('precisionPostcode'), { size: 8.5, color: STYLE.grey });
}

/** The valuations the report shows: the tracker's, or as net rents where the template asks. */
const shownValuations = (model: ReportModel) =>
  model.netRents?.valuations ?? model.tracker?.valuations ?? [];

/** Why a report shows no value: a property type the model does not value, or thin data. */
const noValuation = ({ model, t }: SectionContext): string =>
  t(model.dossier.propertyType === 'multi_family_house' ? 'noValuationType' : 'noValuation');

/** The headline value: large, with its range and confidence beside it. */
function valueBlock(ctx: SectionContext): void {
  const { doc, model, f, t } = ctx;
  const valuation = shownValuations(model)[1];
  if (!valuation) {
    paragraph(doc, noValuation(ctx));
    return;
  }
  room(doc, 104);
  const top = doc.y;
  doc.rect(STYLE.margin, top, CONTENT_WIDTH, 78).fill(STYLE.navy);
  const label =
    model.dossier.dealType === 'sale'
      ? t('estimatedValue')
      : t(model.netRents ? 'estimatedNetRent' : 'estimatedRent');
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#cfe3ec')
    .text(capitals(label), STYLE.margin + 16, top + 12);
  doc
    .font('bold')
    .fontSize(24)
    .fillColor('#ffffff')
    .text(f.money(valuation.value), STYLE.margin + 16, top + 28, {
      lineBreak: false,
    });
  // The headline is today's value (the tracker's second), whatever date it is compared with.
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#cfe3ec')
    .text(t('asOf', { date: f.date(model.today) }), STYLE.margin + 16, top + 58, {
      lineBreak: false,
    });
  const right = STYLE.margin + CONTENT_WIDTH / 2 + 20;
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#cfe3ec')
    .text(capitals(t('range')), right, top + 14);
  doc
    .font('bold')
    .fontSize(11)
    .fillColor('#ffffff')
    .text(
      `${f.money(valuation.valueRange.lower)} – ${f.money(valuation.valueRange.upper)}`,
      right,
      top + 26,
      {
        lineBreak: false,
      },
    );
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#cfe3ec')
    .text(capitals(t('confidence')), right, top + 44);
  doc
    .font('bold')
    .fontSize(11)
    .fillColor('#ffffff')
    .text(t(`confidence.${valuation.confidence}`), right, top + 56, { lineBreak: false });
  doc.x = STYLE.margin;
  doc.y = top + 84;
  // What the value rests on: a reader weighs a value from 300 offers within 500 m apart from
  // one from 5 offers of the region, and the comparables section, which lists the offers
  // published since the date compared with, is not read as the valuation's whole basis.
  paragraph(doc, basisText(ctx, valuation.basis), { size: 8.5, color: STYLE.grey });
}

/** The basis line under the headline value: how many comparables, where, how far back. */
function basisText({ model, f, t }: SectionContext, basis: ComparablesBasis): string {
  const where = t(`basisWhere.${basis.area}`, { radius: f.roundDistance(basis.radiusMeters ?? 0) });
  return t(countedKey(model.locale, 'basis', basis.comparables), {
    count: f.number(basis.comparables),
    where,
    months: f.number(basis.months),
    date: f.date(model.today),
  });
}

/** Room for an image's caption below it. */
const IMAGE_CAPTION = 22;
/** A brochure's lead photo: at most this tall, and not shrunk below the smaller height. */
const MAX_LEAD_IMAGE = 300;
const MIN_LEAD_IMAGE = 160;

/**
 * An attachment's bytes as drawn, the same buffer each time within one document, so that an
 * image shown twice is embedded once (`drawImage`).
 */
function printedBytes(doc: SectionContext['doc'], image: ReportAttachment): Buffer {
  let printed = printedImages.get(doc);
  if (!printed) {
    printed = new WeakMap();
    printedImages.set(doc, printed);
  }
  const known = printed.get(image);
  if (known) return known;
  const bytes = printableImage(image.bytes);
  printed.set(image, bytes);
  return bytes;
}
const printedImages = new WeakMap<SectionContext['doc'], WeakMap<ReportAttachment, Buffer>>();

function images(ctx: SectionContext, list: ReportAttachment[], maxHeight: number): void {
  for (const image of list) {
    const captionRoom = captionRoomOf(ctx.doc, image.title);
    room(ctx.doc, Math.min(maxHeight, 200) + captionRoom + 8);
    const top = ctx.doc.y;
    const box = {
      width: CONTENT_WIDTH,
      height: Math.min(maxHeight, CONTENT_BOTTOM - top - captionRoom - 2),
    };
    let drawn: { width: number; height: number };
    try {
      const bytes = printedBytes(ctx.doc, image);
      // Measured from the bytes pdfkit draws, turned as it turns them (a phone's upright photo).
      drawn = imageFit(shownImageSize(bytes), box);
      drawImage(ctx.doc, bytes, STYLE.margin + (CONTENT_WIDTH - drawn.width) / 2, top, drawn);
    } catch (error) {
      throw new UnusableFile(attachmentFile(image.title), error);
    }
    ctx.doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(STYLE.grey)
      .text(image.title, STYLE.margin, top + drawn.height + 4, {
        width: CONTENT_WIDTH,
        align: 'center',
      });
    ctx.doc.y = top + drawn.height + captionRoom;
  }
}

/**
 * The room an image's caption takes below it as `images` prints it: a title of up to 200
 * characters may take two lines.
 */
function captionRoomOf(doc: SectionContext['doc'], title: string): number {
  const height = doc
    .font('regular')
    .fontSize(8.5)
    .heightOfString(title, { width: CONTENT_WIDTH, align: 'center' });
  return Math.max(IMAGE_CAPTION, height + 12);
}

function overview(ctx: SectionContext, section: Section): void {
  const tracker = ctx.model.tracker;
  if (statedLayout([section]) === 'brochure') {
    const marketing = ctx.model.attachments.filter(
      (a) => a.type === 'marketing' && a.contentType !== 'application/pdf',
    );
    const highlights = propertyFacts(ctx);
    // The photo takes what the highlights and the map leave of the page, so the map is not
    // pushed onto a page of its own; never less than a legible photo.
    const left =
      CONTENT_BOTTOM -
      ctx.doc.y -
      (marketing[0] ? captionRoomOf(ctx.doc, marketing[0].title) : IMAGE_CAPTION) -
      SUBHEADING_HEIGHT -
      factsHeight(highlights.length) -
      MAP_HEIGHT -
      MAP_BELOW;
    images(ctx, marketing.slice(0, 1), Math.max(MIN_LEAD_IMAGE, Math.min(MAX_LEAD_IMAGE, left)));
    subheading(ctx.doc, ctx.t('highlights'));
    facts(ctx.doc, highlights);
  } else {
    facts(ctx.doc, propertyFacts(ctx));
    valueBlock(ctx);
  }
  // Projects are drawn where the report has their section (the legend's "Projects" points to
  // it); a template without it, and countries whose templates have none, show none.
  const showsProjects = ctx.model.template.sections.some(
    (s) => s.type === 'projects' && isShown(s),
  );
  // Without a valuation no offers were looked for: the map has no offers layer, since its
  // legend's "Offers (0)" would say none were found.
  map(
    ctx,
    tracker ? tracker.offers.items : null,
    showsProjects ? (tracker?.building_projects.items ?? []) : [],
  );
}

function valuation(ctx: SectionContext): void {
  const { doc, model, f, t } = ctx;
  valueBlock(ctx);
  const tracker = model.tracker;
  if (!tracker) return;
  const [past, now] = shownValuations(model);
  if (now) {
    const row = (date: string, v: typeof past) =>
      v
        ? [
            f.date(date),
            f.money(v.value),
            `${f.money(v.valueRange.lower)} – ${f.money(v.valueRange.upper)}`,
            t(`confidence.${v.confidence}`),
          ]
        : [f.date(date), '–', '–', '–'];
    table(
      doc,
      [
        { header: t('dateColumn'), width: 3 },
        { header: t('estimatedValue'), width: 3, align: 'right' },
        { header: t('range'), width: 4, align: 'right' },
        { header: t('confidence'), width: 2 },
      ],
      // One row where the report compares today with today.
      model.date === model.today
        ? [row(model.today, now)]
        : [row(model.date, past), row(model.today, now)],
    );
    // The change of the values shown (net rents where the template shows those), by the
    // tracker's rule, so that a reader who divides the two rows finds it.
    const change = past ? valuationChangePercent(past.value, now.value) : null;
    if (!past) paragraph(doc, t('noPastValuation', { date: f.date(model.date) }));
    else if (change !== null && model.date !== model.today) {
      facts(doc, [[t('change'), f.percent(change)]]);
    }
  }
  paragraph(doc, t('rangeMeaning'), { size: 9, color: STYLE.grey });
  if (model.netRents) {
    const { ratio, source } = model.netRents;
    paragraph(
      doc,
      t('rentNetShown', { share: f.number(ratio, 2), basis: t(`rentShare.${source}`) }),
      { size: 9, color: STYLE.grey },
    );
  }
}

const offerRow = (f: Formats, o: OfferItem, date = f.date) => [
  o.distance === null ? '–' : f.meters(o.distance),
  o.price === null ? '–' : f.money(o.price),
  o.pricePerSquareMeter === null ? '–' : f.perArea(o.pricePerSquareMeter),
  o.livingArea === null ? '–' : f.area(o.livingArea),
  o.numberOfRooms === null ? '–' : f.number(o.numberOfRooms, 1),
  o.buildingYear === null ? '–' : String(o.buildingYear),
  date(o.startDate),
];

type MaybeTrend = Trend | undefined;

/** The tracker's two trends (around the date asked for, the last six months) as two bars. */
function trendBars(
  { doc, model, f, t }: SectionContext,
  around: MaybeTrend,
  recent: MaybeTrend,
): void {
  const bar = (label: string, trend: MaybeTrend) => ({
    label,
    value: trend?.value,
    note: `n = ${f.number(trend?.count ?? 0)}`,
    missing: t('trendNone'),
  });
  // Compared with today itself, the months around the date are the last three and three to
  // come, which have no offers: a bar of the last six months' offers again, under another name.
  const aroundBar =
    model.date === model.today ? [] : [bar(t('trendAround', { date: f.date(model.date) }), around)];
  barChart(doc, [...aroundBar, bar(t('trendRecent'), recent)], f.perArea);
}

/**
 * That no offer was found since the date compared with. Compared with today itself, the offers
 * are today's: "since <today>" would read like a fault, so it says what an earlier date shows.
 */
function noOffers({ model, f, t }: SectionContext): string {
  return model.date === model.today
    ? t('noOffersToday')
    : t('noOffers', { date: f.date(model.date) });
}

function comparables(ctx: SectionContext, section: Section): void {
  const { doc, model, f, t } = ctx;
  // Without a tracker the section is its empty statement (emptyStatement).
  if (!model.tracker) return;
  // Every rent per m² below (table, details, trends, histogram) is an offer's gross rent.
  grossNote(ctx);
  const offers = model.tracker.offers;
  if (config(section, 'offers')) {
    subheading(doc, t('offersTable'));
    if (offers.totalItems === 0) paragraph(doc, noOffers(ctx));
    else {
      paragraph(
        doc,
        t(countedKey(model.locale, 'offersFound', offers.totalItems), {
          count: f.number(offers.totalItems),
          date: f.date(model.date),
        }),
      );
      table(
        doc,
        [
          { header: t('distance'), width: 2, align: 'right' },
          { header: t('price'), width: 3, align: 'right' },
          { header: t('pricePerSqm'), width: 2.6, align: 'right' },
          { header: t('livingArea'), width: 2.4, align: 'right' },
          { header: t('rooms'), width: 1.4, align: 'right' },
          { header: t('buildingYear'), width: 1.8, align: 'right' },
          { header: t('published'), width: 3 },
        ],
        // Short dates: a long one ("10 September 2025") would not fit the column.
        offers.items.slice(0, TABLE_ROWS).map((o) => offerRow(f, o, f.shortDate)),
      );
    }
  }
  if (config(section, 'offer_details') && offers.items.length > 0) {
    subheading(doc, t('offerDetails'));
    for (const o of offers.items.slice(0, DETAIL_BLOCKS)) {
      const row = offerRow(f, o);
      facts(doc, [
        [t('distance'), row[0] ?? ''],
        [t('price'), row[1] ?? ''],
        [t('pricePerSqm'), row[2] ?? ''],
        [t('livingArea'), row[3] ?? ''],
        [t('published'), row[6] ?? ''],
        [t('daysOnMarket'), o.daysOnMarket === null ? '–' : f.number(o.daysOnMarket)],
      ]);
    }
  }
  if (config(section, 'market_trends')) {
    subheading(doc, t('trendChart'), 180);
    const [around, recent] = model.tracker.trends;
    // The tracker's rule for a similar offer (±25% of the living area), said beside its counts.
    const areas = similarAreas(model.dossier.livingArea);
    const sizes = { min: f.area(areas.min), max: f.area(areas.max) };
    if ((around?.count ?? 0) + (recent?.count ?? 0) === 0) paragraph(doc, t('noTrend', sizes));
    else {
      trendBars(ctx, around, recent);
      paragraph(doc, t('trendScope', sizes), { size: 8.5, color: STYLE.grey });
    }
    const perSqm = model.offerPrices.map((o) => o.pricePerSquareMeter);
    if (perSqm.length > 0) {
      subheading(doc, t('histogram'), 190);
      histogram(doc, perSqm, histogramMarker(ctx, model.tracker), f.perArea);
    }
  }
  if (config(section, 'transactions') || config(section, 'transaction_details')) {
    subheading(doc, t('transactionsHeading'), 20);
    paragraph(doc, t('noTransactions'));
  }
}

/**
 * Where the histogram marks the property. A brochure shows no value (it is handed to buyers
 * beside the asking price, and a valuation it does not show would contradict that price): it
 * marks the asking price, where the dossier states one, else nothing. Elsewhere the estimated
 * value; the offers' prices are gross rents, so the property is marked at its gross rent too,
 * and says so where the headline shows the net rent.
 */
function histogramMarker(
  { model, f, t }: SectionContext,
  tracker: PartialInsights,
): { value: number; text: string } | undefined {
  const { dossier } = model;
  const mark = (value: number, label: string) => ({
    value,
    text: t('labelled', { label, value: f.perArea(value) }),
  });
  if (statedLayout(model.template.sections) === 'brochure') {
    return dossier.dealType === 'sale' && dossier.askingSalePrice !== undefined
      ? mark(dossier.askingSalePrice / dossier.livingArea, t('askingPrice'))
      : undefined;
  }
  const now = tracker.valuations[1];
  return mark(now.value / dossier.livingArea, t(model.netRents ? 'subjectGross' : 'subject'));
}

/** A day's quarter as a key that sorts by time: "2025-4". */
function quarterKey(day: string): string {
  return `${day.slice(0, 4)}-${String(Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1)}`;
}

function market(ctx: SectionContext): void {
  const { doc, model, f, t } = ctx;
  const groups = new Map<string, { sum: number; count: number }>();
  for (const o of model.offerPrices) {
    const g = groups.get(quarterKey(o.startDate)) ?? { sum: 0, count: 0 };
    g.sum += o.pricePerSquareMeter;
    g.count += 1;
    groups.set(quarterKey(o.startDate), g);
  }
  subheading(doc, t('marketByQuarter'));
  table(
    doc,
    [
      { header: t('quarter'), width: 2 },
      { header: t('meanPricePerSqm'), width: 3, align: 'right' },
      { header: t('count'), width: 2, align: 'right' },
    ],
    [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, g]) => {
        const [year = '', quarter = ''] = key.split('-');
        return [
          t('quarterOfYear', { year, quarter }),
          f.perArea(g.sum / g.count),
          f.number(g.count),
        ];
      }),
  );
  grossNote(ctx);
}

/** Under the offers' rents per m² in a report of net rents: those are gross. */
function grossNote({ doc, model, t }: SectionContext): void {
  if (model.netRents) paragraph(doc, t('offersGross'), { size: 8.5, color: STYLE.grey });
}

function projects(ctx: SectionContext): void {
  const { doc, model, f, t } = ctx;
  // Without a tracker or projects the section is its empty statement (emptyStatement).
  if (!model.tracker) return;
  const list = model.tracker.building_projects;
  map(ctx, null, list.items);
  subheading(doc, t('projectsTable'));
  table(
    doc,
    [
      { header: t('name'), width: 5 },
      { header: t('distance'), width: 2, align: 'right' },
      { header: t('status'), width: 3 },
      { header: t('units'), width: 1.6, align: 'right' },
      { header: t('completion'), width: 2, align: 'right' },
    ],
    list.items
      .slice(0, TABLE_ROWS)
      .map((p) => [
        p.name,
        f.meters(p.distance),
        t(`status.${p.status}`),
        p.numberOfUnits === null ? '–' : f.number(p.numberOfUnits),
        p.completionYear === null ? '–' : String(p.completionYear),
      ]),
  );
}

function attachments(ctx: SectionContext, type: string): void {
  const list = ctx.model.attachments.filter((a) => a.type === type);
  images(
    ctx,
    list.filter((a) => a.contentType !== 'application/pdf'),
    CONTENT_BOTTOM - 150,
  );
  const pdfs = list.filter((a) => a.contentType === 'application/pdf');
  if (pdfs.length === 0) return;
  const { doc } = ctx;
  const currentPage = () => {
    const range = doc.bufferedPageRange();
    return range.start + range.count - 1;
  };
  // The PDFs' pages follow the page that announces them, each announcement saying which pages
  // are its file's: the announcements are kept on one page so that the numbers hold (a new
  // page if they do not fit on this one); were they longer than a page (20 files with titles of
  // several lines), they would say only how many pages follow.
  let texts = announcements(ctx, pdfs, currentPage());
  if (!paragraphsFit(doc, texts)) {
    nextPage(doc);
    texts = announcements(ctx, pdfs, currentPage());
  }
  if (!paragraphsFit(doc, texts)) texts = announcements(ctx, pdfs, null);
  for (const text of texts) paragraph(doc, text);
  const last = currentPage();
  for (const pdf of pdfs) {
    // An outline entry under the section's for each attached PDF, pointed at its first page
    // once that page is put in (merge.ts).
    markInsert(ctx.outline.addItem(pdf.title), ctx.inserts.length);
    ctx.inserts.push({ afterPage: last, attachment: pdf });
  }
}

/**
 * What each attached PDF's announcement says: its title and page count, and which pages of the
 * report it fills when its pages follow generated page `after` (null: not said).
 */
function announcements(
  { model, f, t, numberOf }: SectionContext,
  pdfs: ReportAttachment[],
  after: number | null,
): string[] {
  let next = after === null ? 0 : numberOf(after) + 1;
  return pdfs.map((pdf) => {
    const pages = pdf.pages ?? 0;
    const first = next;
    next += pages;
    const values = { title: pdf.title, pages, first: f.number(first), last: f.number(next - 1) };
    return after === null
      ? t(countedKey(model.locale, 'attachedPages', pages), values)
      : t(countedKey(model.locale, 'attachedPagesAt', pages), values);
  });
}

/** Whether the dossier has attachments of `kind`, which its document section shows. */
export function hasDocuments(model: ReportModel, kind: string): boolean {
  return model.attachments.some((a) => a.type === kind);
}

/**
 * The one sentence a section prints when it has nothing to show (no data for the area, no
 * documents of its kind, no projects, no valuation), else null. Such a section follows on the
 * page of the one before instead of filling a page of its own.
 */
export function emptyStatement(ctx: SectionContext, section: Section): string | null {
  const { model, t } = ctx;
  const { type } = section;
  const kind = attachmentKindOf(type);
  if (kind !== undefined) {
    return hasDocuments(model, kind) ? null : t('noAttachments');
  }
  switch (type) {
    case 'cadastre':
    case 'environment':
      // The service holds no such data yet: said plainly, never invented.
      return t('noData');
    case 'amenities':
      return hasAmenities(model, section) ? null : t('noData');
    case 'socio':
      return socioRows(model, section).length === 0 ? t('noData') : null;
    case 'accessibility':
      return nearestStops(model) === null ? t('noData') : null;
    case 'projects':
      // Without a valuation the tracker answered nothing: no projects were looked for, and
      // "none known" would be a claim.
      if (!model.tracker) return noValuation(ctx);
      return model.tracker.building_projects.totalItems === 0 ? t('noProjects') : null;
    case 'comparables':
      // Without a valuation the tracker answered nothing: no offers were looked for.
      if (!model.tracker) return noValuation(ctx);
      return emptyComparables(ctx, section, model.tracker);
    case 'market':
      // Its means are over the offers counted since the date compared with: where there are
      // none, that is what to say, not that the area has no data.
      if (!model.tracker) return noValuation(ctx);
      return model.offerPrices.length === 0 ? noOffers(ctx) : null;
    default:
      return null;
  }
}

/**
 * A comparables section that shows only sentences: transactions alone (the service holds none
 * yet), or offer details where no offer was found. It is then a statement like any empty
 * section's, not a page of its own holding one sentence.
 */
function emptyComparables(
  ctx: SectionContext,
  section: Section,
  tracker: PartialInsights,
): string | null {
  const showsOffers =
    config(section, 'offers') ||
    config(section, 'market_trends') ||
    (config(section, 'offer_details') && tracker.offers.items.length > 0);
  if (showsOffers) return null;
  const statements = [
    ...(config(section, 'offer_details') ? [noOffers(ctx)] : []),
    ...(config(section, 'transactions') || config(section, 'transaction_details')
      ? [ctx.t('noTransactions')]
      : []),
  ];
  return statements.length > 0 ? statements.join(' ') : null;
}

/** Draws one enabled section's content below its heading. */
export function sectionContent(ctx: SectionContext, section: Section): void {
  const statement = emptyStatement(ctx, section);
  if (statement !== null) {
    paragraph(ctx.doc, statement);
    return;
  }
  switch (section.type) {
    case 'overview':
      overview(ctx, section);
      return;
    case 'valuation':
      valuation(ctx);
      return;
    case 'comparables':
      comparables(ctx, section);
      return;
    case 'market':
      market(ctx);
      return;
    case 'projects':
      projects(ctx);
      return;
    case 'amenities':
      amenities(ctx, section);
      return;
    case 'socio':
      socio(ctx, section);
      return;
    case 'accessibility':
      accessibility(ctx);
      return;
    case 'environment':
    case 'cadastre':
      // Said by emptyStatement in every case.
      return;
    default:
      attachments(ctx, attachmentKindOf(section.type) ?? '');
  }
}

export const sayIn =
  (model: ReportModel) =>
  (key: MessageKey, values?: Record<string, string | number>): string =>
    say(model.locale, key, values, model.conventions);
