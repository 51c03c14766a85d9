import { callerOrganizationName } from '../../accounts/organizations.js';
import type { UnsentReports } from './unsent-reports.js';
import type { ServiceDeps } from '../../app-context.js';
import type { Caller } from '../../http/caller.js';
import { invalidField } from '../../http/field-errors.js';
import { notFound } from '../../http/problem.js';
import { isoDay } from '../../dates.js';
import { limits } from '../../limits.js';
import { MAIN_CURRENCY } from '../../market/countries.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import { REPORT_IS_COSTLY } from '../../work/cost.js';
import { selectAttachmentFiles, storePrintVersion } from '../attachments/store.js';
import { needsPrintVersion } from '../../pdf/print-version.js';
import type { AttachmentRow } from '../../accounts/tables.js';
import { findCoverFile, selectCovers } from '../covers/store.js';
import type { Dossier } from '../dossiers/dossier.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import { findVisibleTemplate } from '../templates/store.js';
import type { Template } from '../templates/template.js';
import { attachmentKindOf, statedLayout, type Layout } from '../templates/section-rules.js';
import { trackDossierWithPrices, type PartialInsights } from '../tracker/tracker.js';
import type { OfferPrice } from '../../market/queries/offers.js';
import type { ReportAttachment, ReportDossier, ReportModel, ReportNetRents } from './model.js';
import { netRentRatio } from '../valuation/rent-ratio.js';
import { toPropertyToValue } from '../valuation/property-input.js';
import type { ReportRequest } from './schemas.js';
import { LOCALES, reportLocaleOf, type Locale } from './messages.js';
import { placesAround, showsPlaces } from './places.js';
import { defaultReportDate } from './report-date.js';
import { firstOfferDate } from '../../market/queries/offer-dates.js';

/** What a report needs: the stores, the valuation model, the time and the PDF renderer. */
export type ReportDeps = Pick<
  ServiceDeps,
  | 'db'
  | 'market'
  | 'valueProperty'
  | 'now'
  | 'renderReport'
  | 'costlyWork'
  | 'pdfInspector'
  | 'storageBytesPerOrganization'
>;

export interface RenderedReport {
  fileName: string;
  bytes: Uint8Array;
}

function reportDossier(dossier: Dossier): ReportDossier {
  const { content } = dossier;
  const { property } = content;
  const { address, coordinates, precision } = property.location;
  const street = [address?.street, address?.houseNumber].filter(Boolean).join(' ');
  const town = [address?.postCode, address?.city].filter(Boolean).join(' ');
  const lines = [street, town].filter((line) => line !== '');
  return {
    // Without a title of its own, the address is the title, and not printed again below it.
    title: content.title ?? (lines.join(', ') || dossier.id),
    addressLines: content.title === undefined ? [] : lines,
    latitude: coordinates.latitude,
    longitude: coordinates.longitude,
    precision,
    dealType: content.dealType,
    propertyType: property.propertyType.code,
    livingArea: property.livingArea,
    ...(property.landArea === undefined ? {} : { landArea: property.landArea }),
    ...(property.numberOfRooms === undefined ? {} : { numberOfRooms: property.numberOfRooms }),
    ...(property.buildingYear === undefined ? {} : { buildingYear: property.buildingYear }),
    ...(property.renovationYear === undefined ? {} : { renovationYear: property.renovationYear }),
    ...(property.floorNumber === undefined ? {} : { floorNumber: property.floorNumber }),
    ...(property.hasLift === undefined ? {} : { hasLift: property.hasLift }),
    ...(content.askingSalePrice === undefined ? {} : { askingSalePrice: content.askingSalePrice }),
  };
}

/** The caller's first cover of a side, else their organization's first, else none. */
async function firstCover(deps: ReportDeps, caller: Caller, side: 'front' | 'back') {
  for (const userId of [caller.userId, null]) {
    const [cover] = await selectCovers(deps.db, {
      organizationId: caller.organizationId,
      userId,
      side,
    });
    if (cover) return (await findCoverFile(deps.db, caller, cover.id))?.content ?? null;
  }
  return null;
}

/** The attachments the template's enabled sections show (marketing images also lead a brochure). */
async function shownAttachments(
  deps: ReportDeps,
  caller: Caller,
  dossierId: string,
  template: Template,
): Promise<ReportAttachment[]> {
  const enabled = template.sections.filter((s) => s.enabled);
  const types = new Set(enabled.flatMap((s) => attachmentKindOf(s.type) ?? []));
  // A brochure's overview, when shown, leads with the marketing photo.
  if (statedLayout(enabled) === 'brochure') types.add('marketing');
  if (types.size === 0) return [];
  const files = await selectAttachmentFiles(deps.db, caller, dossierId);
  const shown = files.filter(({ row }) => types.has(row.type));
  return Promise.all(
    shown.map(async ({ row, content, printed }) => ({
      type: row.type,
      title: row.title,
      contentType: row.content_type,
      width: row.width,
      height: row.height,
      pages: row.pages,
      bytes: printed ? content : await printable(deps, caller, row, content),
    })),
  );
}

/**
 * The bytes a report shows of an attachment stored without a print version: a PNG that needs
 * one (uploaded before uploads made them) gets it here, from the inspection worker in the
 * organization's turn, and keeps it. Made in the render worker instead, a dossier of a dozen
 * such images ran past the render deadline on every try.
 */
async function printable(
  deps: ReportDeps,
  caller: Caller,
  row: AttachmentRow,
  content: Uint8Array,
): Promise<Uint8Array> {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (row.content_type !== 'image/png' || !needsPrintVersion(bytes)) return content;
  // Refused or turned away (the worker's queue full), the render worker converts it as before.
  const facts = await deps.pdfInspector
    .inspectAttachment(content, caller.organizationId)
    .catch(() => undefined);
  if (!facts || !('print' in facts) || !facts.print) return content;
  const print = Buffer.from(facts.print);
  await storePrintVersion(deps.db, caller, row.id, print, deps.storageBytesPerOrganization);
  return print;
}

/**
 * The tracker's insights at `date` and the prices of all the offers it counts (it lists the
 * nearest 500), or nulls where the market data cannot value the property.
 */
async function insights(
  deps: ReportDeps,
  caller: Caller,
  dossier: Dossier,
  date: string,
): Promise<{ tracker: PartialInsights | null; offerPrices: OfferPrice[] }> {
  const request = {
    dossierId: dossier.id,
    countryCode: dossier.countryCode,
    date,
    radius: limits.reports.radius,
    // A dossier known by its postcode only sits at the postcode's centroid: the offers of its
    // postcode describe its market better than a circle around that point, and include the
    // offers that, like the dossier, have no coordinates.
    usePostalCode: dossier.content.property.location.precision === 'postcode',
  };
  try {
    return await trackDossierWithPrices(deps, caller, request);
  } catch (error) {
    if (error instanceof InsufficientDataError) return { tracker: null, offerPrices: [] };
    throw error;
  }
}

/** A template's layout, as its overview section says it. */
const layoutOf = (template: Template): Layout => statedLayout(template.sections) ?? 'appraisal';

/**
 * The tracker's valuations of a rent dossier as net rents (the tracker gives them, by the
 * valuation API's rule), with the share of net in gross rent they were computed with and where
 * it was measured, for the report's note.
 */
async function netRentsOf(
  deps: ReportDeps,
  dossier: Dossier,
  tracker: PartialInsights,
): Promise<ReportNetRents> {
  const { postalCode } = toPropertyToValue(dossier.countryCode, dossier.content.property);
  const { ratio, source } = await deps.market.read((db) =>
    netRentRatio(db, dossier.countryCode, postalCode),
  );
  const net = <V extends PartialInsights['valuations'][1]>(v: V): V => ({
    ...v,
    value: v.rentNet ?? v.value,
    valueRange: v.rentNetRange ?? v.valueRange,
  });
  const [past, now] = tracker.valuations;
  return { valuations: [past && net(past), net(now)], ratio, source };
}

/**
 * A PDF report on a dossier the caller can see, laid out by a template the caller can see, of
 * the same country. The data is the property tracker's (valuations, offers, projects, trends) at
 * `date`; rendering runs in the PDF worker (`deps.renderReport`). Both happen in the
 * organization's turn for costly work. Refused while the organization's (or everyone's) reports
 * already sent are not taken by their clients (`unsent`): when the request comes, and again when
 * its turn does (the reports before it may be held by then).
 */
export async function createReport(
  deps: ReportDeps,
  caller: Caller,
  dossierId: string,
  request: ReportRequest,
  unsent?: UnsentReports,
): Promise<RenderedReport> {
  const admit = () => unsent?.admit(caller.organizationId);
  admit();
  const locale =
    request.locale === undefined
      ? { language: 'en' as const, region: undefined }
      : reportLocaleOf(request.locale);
  if (!locale) {
    throw invalidField('/locale', `must be one of ${LOCALES.join(', ')}, with or without a region`);
  }
  const dossier = await visibleDossier(deps.db, caller, dossierId);
  const template = await findVisibleTemplate(deps.db, caller, request.templateId);
  if (!template) throw notFound('Template');
  if (template.countryCode !== dossier.countryCode) {
    throw invalidField(
      '/templateId',
      `is a template for ${template.countryCode}; the dossier is in ${dossier.countryCode}`,
    );
  }
  const today = isoDay(deps.now());
  const date =
    request.date ??
    defaultReportDate(
      today,
      await deps.market.read((db) => firstOfferDate(db, dossier.countryCode)),
    );
  // Every report is costly work (src/work/cost.ts): it waits for the organization's turn before
  // anything is loaded, so a waiting report holds neither attachments nor covers in memory.
  return deps.costlyWork.run(caller.organizationId, REPORT_IS_COSTLY, () => {
    admit();
    return gatherAndRender(deps, caller, { dossier, template, locale, date, today });
  });
}

/** The report's data, read in the organization's turn, rendered in the worker. */
async function gatherAndRender(
  deps: ReportDeps,
  caller: Caller,
  job: {
    dossier: Dossier;
    template: Template;
    locale: { language: Locale; region: string | undefined };
    date: string;
    today: string;
  },
): Promise<RenderedReport> {
  const { dossier, template, date, today } = job;
  const { coordinates, address } = dossier.content.property.location;
  const [{ tracker, offerPrices }, attachments, front, back, organization, places] =
    await Promise.all([
      insights(deps, caller, dossier, date),
      shownAttachments(deps, caller, dossier.id, template),
      template.frontCover ? firstCover(deps, caller, 'front') : null,
      template.backCover ? firstCover(deps, caller, 'back') : null,
      callerOrganizationName(deps.db, caller),
      showsPlaces(template.sections)
        ? deps.market.read((db, view) =>
            deps.costlyWork.queries('places', db, view, (db) =>
              placesAround(
                db,
                dossier.countryCode,
                coordinates,
                address?.postCode === undefined ? undefined : String(address.postCode),
                today,
              ),
            ),
          )
        : null,
    ]);
  const netRents =
    tracker && dossier.content.dealType === 'rent' && template.rentType === 'rent_net'
      ? await netRentsOf(deps, dossier, tracker)
      : null;
  const model: ReportModel = {
    locale: job.locale.language,
    // Numbers and dates as the reader's region writes them, else as the property's country
    // does where the language is one of its own (render/format.ts).
    conventions: job.locale.region ?? dossier.countryCode,
    date,
    today,
    organization,
    countryCode: dossier.countryCode,
    currency: MAIN_CURRENCY[dossier.countryCode],
    dossier: reportDossier(dossier),
    template: {
      title: template.title,
      provider: template.level === 'provider' ? layoutOf(template) : null,
      rentType: template.rentType,
      sections: template.sections,
    },
    tracker,
    offerPrices,
    netRents,
    attachments,
    covers: { front, back },
    places,
  };
  const bytes = await deps.renderReport(model);
  return { fileName: `${model.dossier.title}.pdf`, bytes };
}
