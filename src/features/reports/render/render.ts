import { say } from '../messages.js';
import type { ReportModel } from '../model.js';
import { formatsFor } from './format.js';
import { BACK_COVER, FRONT_COVER, insertPages, pageCount } from './merge.js';
import { printableText } from './printable.js';
import { reportParts } from './report-parts.js';
import {
  CONTENT_WIDTH,
  drawable,
  facts,
  fittedText,
  newDocument,
  oneLine,
  bandFits,
  paragraph,
  sectionBand,
  sectionPage,
  STYLE,
  type Doc,
} from './page.js';
import {
  propertyFacts,
  sayIn,
  sectionContent,
  emptyStatement,
  hasDocuments,
  type SectionContext,
} from './sections.js';

/** The most of the title page's band the address takes: four lines. */
const TITLE_ADDRESS_ROOM = 4 * 15 + 8;

function titlePage(ctx: SectionContext): void {
  const { doc, model, f, t } = ctx;
  doc.addPage();
  const bandHeight = 330;
  doc.rect(0, 0, STYLE.width, bandHeight).fill(STYLE.navy);
  doc.rect(0, bandHeight, STYLE.width, 6).fill(STYLE.teal);
  doc
    .font('bold')
    .fontSize(10)
    .fillColor('#9cc6d6')
    .text(t('reportTitle').toUpperCase(), STYLE.margin, 110, { characterSpacing: 2 });
  // Title and address share the band: the address keeps up to four lines, the title the rest,
  // smaller the longer it is, cut with an ellipsis only where it fits at no size.
  const top = 132;
  const bottom = bandHeight - 18;
  const address = model.dossier.addressLines.join('\n');
  doc.font('regular').fontSize(12);
  const addressHeight = Math.min(
    address === '' ? 0 : doc.heightOfString(address, { width: CONTENT_WIDTH }) + 8,
    TITLE_ADDRESS_ROOM,
  );
  doc.fillColor('#ffffff');
  const titleHeight = fittedText(
    doc,
    model.dossier.title,
    { x: STYLE.margin, y: top, width: CONTENT_WIDTH, height: bottom - top - addressHeight },
    { font: 'bold', sizes: [28, 24, 20, 17, 14], lineGap: 2 },
  );
  if (address !== '') {
    doc.fillColor('#dbe7ef');
    fittedText(
      doc,
      address,
      {
        x: STYLE.margin,
        y: top + titleHeight + 8,
        width: CONTENT_WIDTH,
        height: addressHeight - 8,
      },
      { font: 'regular', sizes: [12, 10], lineGap: 0 },
    );
  }
  doc.y = bandHeight + 40;
  doc.x = STYLE.margin;
  const d = model.dossier;
  facts(doc, [
    // The tracker values the property today and compares it with `date` (values then and now,
    // offers since then): the title says which is which.
    [t('valuationDate'), f.date(model.today)],
    ...(model.date === model.today
      ? []
      : [[t('comparedWithDate'), f.date(model.date)] as [string, string]]),
    // A slash between them: in most of the locales the comma is the decimal separator.
    [t('coordinates'), `${f.number(d.latitude, 5)} / ${f.number(d.longitude, 5)}`],
    ...propertyFacts(ctx).slice(0, 6),
  ]);
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(STYLE.grey)
    .text(t('preparedBy', { org: model.organization }), STYLE.margin, STYLE.height - 120, {
      width: CONTENT_WIDTH,
    });
  const { title, provider } = model.template;
  const name = provider ? t(`template.${provider}`) : title;
  // A name of which nothing prints (in Chinese) would leave "· <date>".
  doc.text(prints(name) ? `${name} · ${f.date(model.today)}` : f.date(model.today), {
    width: CONTENT_WIDTH,
  });
}

/** Whether the report's typefaces print any of `text` (of a title in Chinese, nothing). */
const prints = (text: string) => printableText(text, drawable).trim() !== '';

/**
 * The model with a dossier title the pages can print: one of which nothing prints is the
 * property's kind and size ("Apartment · 72 m²"), so that neither the title page's band nor
 * the pages' feet are left blank. The document's metadata and file name keep the title.
 */
function withPrintedTitle(
  model: ReportModel,
  t: SectionContext['t'],
  f: SectionContext['f'],
): ReportModel {
  const d = model.dossier;
  if (prints(d.title)) return model;
  return { ...model, dossier: { ...d, title: `${t(d.propertyType)} · ${f.area(d.livingArea)}` } };
}

/** Page numbers and the dossier title at the foot of every generated page but the title page. */
function footers(doc: Doc, model: ReportModel, numberOf: (page: number) => number, total: number) {
  const range = doc.bufferedPageRange();
  for (let i = range.start + 1; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    // Writing below the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    const y = STYLE.height - 34;
    doc
      .moveTo(STYLE.margin, y - 8)
      .lineTo(STYLE.width - STYLE.margin, y - 8)
      .lineWidth(0.5);
    doc.strokeColor(STYLE.rule).stroke();
    doc.font('regular').fontSize(8).fillColor(STYLE.grey);
    // Cut to one line: pdfkit wraps a text wider than its width even without line breaks.
    doc.text(oneLine(doc, model.dossier.title, CONTENT_WIDTH * 0.7), STYLE.margin, y, {
      width: CONTENT_WIDTH * 0.7,
      lineBreak: false,
    });
    doc.text(
      say(model.locale, 'page', { page: numberOf(i), pages: total }, model.conventions),
      STYLE.margin,
      y,
      {
        width: CONTENT_WIDTH,
        align: 'right',
        lineBreak: false,
      },
    );
    doc.page.margins.bottom = bottom;
  }
}

function finish(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    doc.on('error', reject);
    doc.end();
  });
}

/**
 * The report as PDF bytes: a title page, then each enabled section of the template in its
 * order, each with an outline entry titled by its localized heading and starting on its own
 * page, except sections with nothing to show, which follow on the page before (document
 * sections in a row without documents as one "Documents" part: report-parts.ts); the covers and
 * PDF attachments are then put in with pdf-lib (merge.ts).
 */
export async function renderReport(model: ReportModel): Promise<Uint8Array> {
  // The document's metadata keeps the title as given; the pages print what the fonts can.
  const doc = newDocument(model.dossier.title, model.organization);
  // Page numbers count the covers and attachment pages put in afterwards.
  const frontPages = model.covers.front ? await pageCount(model.covers.front, FRONT_COVER) : 0;
  const backPages = model.covers.back ? await pageCount(model.covers.back, BACK_COVER) : 0;
  const inserts: SectionContext['inserts'] = [];
  const insertedPages = (i: { attachment: { pages: number | null } }) => i.attachment.pages ?? 0;
  // A generated page's final number: attachments are put in after the page that announces
  // them, so a page's number counts those announced on pages before it.
  const numberOf = (page: number) =>
    frontPages +
    page +
    1 +
    inserts.filter((i) => i.afterPage < page).reduce((s, i) => s + insertedPages(i), 0);
  const f = formatsFor(model.locale, model.currency, model.conventions);
  const t = sayIn(model);
  const ctx: SectionContext = {
    doc,
    model: withPrintedTitle(model, t, f),
    f,
    t,
    inserts,
    outline: doc.outline,
    numberOf,
  };
  titlePage(ctx);
  let onTitlePage = true;
  const parts = reportParts(model.template.sections, (kind) => hasDocuments(model, kind));
  for (const part of parts) {
    const range = doc.bufferedPageRange();
    const page = range.start + range.count - 1;
    const section = 'section' in part ? part.section : undefined;
    const documents = 'emptyDocuments' in part ? part.emptyDocuments : [];
    const statement = section
      ? emptyStatement(ctx, section)
      : ctx.t('noAttachmentsOfKinds', {
          kinds: documents.map((s) => ctx.t(`section.${s.type}`)).join(', '),
        });
    // A section with nothing to show follows on the page before, unless that page is the title
    // page, is full, or has attached pages put in after it (they belong to its section).
    const follows =
      !onTitlePage &&
      statement !== null &&
      bandFits(doc, statement) &&
      !ctx.inserts.some((i) => i.afterPage === page);
    const heading = ctx.t(section ? `section.${section.type}` : 'section.attachments');
    ctx.outline = follows ? sectionBand(doc, heading) : sectionPage(doc, heading);
    onTitlePage = false;
    if (section) sectionContent(ctx, section);
    else paragraph(doc, statement ?? '');
  }
  const generated = doc.bufferedPageRange().count;
  const total =
    frontPages + generated + inserts.reduce((s, i) => s + insertedPages(i), 0) + backPages;
  footers(doc, ctx.model, numberOf, total);
  const bytes = await finish(doc);
  return insertPages(bytes, {
    front: model.covers.front,
    back: model.covers.back,
    after: ctx.inserts.map((i) => ({
      afterPage: i.afterPage,
      bytes: i.attachment.bytes,
      title: i.attachment.title,
    })),
  });
}
