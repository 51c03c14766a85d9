import type { DuckDBConnection } from '@duckdb/node-api';
import type { ServiceDeps } from '../../app-context.js';
import { invalidField } from '../../http/field-errors.js';
import { limits } from '../../limits.js';
import { normalizePostcode } from '../../market/countries.js';
import type { SnapshotView } from '../../market/market-store.js';
import type { ValueProperty } from '../../valuation/types.js';
import { isoDay } from '../../dates.js';
import type { Caller } from '../../http/caller.js';
import type { Dossier } from '../dossiers/dossier.js';
import { visibleDossier } from '../dossiers/dossiers.js';
import { firstOfferDate } from '../../market/queries/offer-dates.js';
import { netRentRatio, withRents } from '../valuation/rent-ratio.js';
import { checkValuationDate, todayAsLatest } from '../valuation/valuation-date.js';
import { toPropertyToValue } from '../valuation/property-input.js';
import type { Area } from '../../market/queries/offer-area.js';
import { valuationChangePercent } from './change.js';
import { nearestOffers, offerPrices, type OfferPrice } from '../../market/queries/offers.js';
import { projectsNear } from '../../market/queries/projects.js';
import { InsufficientDataError } from '../../valuation/errors.js';
import type { TrackerResponse, ValidTrackerRequest } from './schemas.js';
import { trendPeriods, trendsIn } from './trends.js';

/** The area of offers and trends: the radius, or with `usePostalCode` the dossier's postcode. */
function areaOf(dossier: Dossier, request: ValidTrackerRequest): Area {
  const { location } = dossier.content.property;
  if (!request.usePostalCode) {
    return { kind: 'radius', point: location.coordinates, radius: request.radius };
  }
  const postCode = location.address?.postCode;
  if (postCode === undefined) {
    throw invalidField('/usePostalCode', 'needs a dossier with property.location.address.postCode');
  }
  return {
    kind: 'postcode',
    point: location.coordinates,
    postcode: normalizePostcode(String(postCode)),
  };
}

/** The offers the tracker looks at: the dossier's deal and property type in its area. */
function searchOf(dossier: Dossier, request: ValidTrackerRequest) {
  const { content, countryCode } = dossier;
  return {
    countryCode,
    dealType: content.dealType,
    propertyType: toPropertyToValue(countryCode, content.property).propertyType,
    area: areaOf(dossier, request),
  };
}

/** What the tracker needs: the account store, the market data, the model and the time. */
export type TrackerDeps = Pick<
  ServiceDeps,
  'db' | 'market' | 'valueProperty' | 'now' | 'costlyWork'
>;

/**
 * Insights about a dossier the caller can see (interface document 4.2): valuations at `date`
 * and today, offers, building projects and trends around it. `radius` and `usePostalCode` have
 * their defaults from the schema.
 */
export async function trackDossier(
  deps: TrackerDeps,
  caller: Caller,
  request: ValidTrackerRequest,
): Promise<TrackerResponse> {
  const { tracker } = await track(deps, caller, request, { prices: false, partial: false });
  const [past, now] = tracker.valuations;
  // Not partial: a valuation the data is too thin for has refused the insights already.
  if (!past) throw new Error('the valuation at the date is missing');
  return { ...tracker, valuations: [past, now] };
}

type TrackerValuation = TrackerResponse['valuations'][number];

/** The tracker's insights where the valuation at `date` may be missing (null): the market data
 * can be too thin then (its first weeks) and still value the property today. */
export type PartialInsights = Omit<TrackerResponse, 'valuations'> & {
  valuations: [TrackerValuation | null, TrackerValuation];
};

/**
 * The insights and the start date and price per m² of every offer they count (the answer lists
 * the nearest `limits.tracker.maxItems`), from the same snapshot: what a report's figures over
 * the offers (means by quarter, the histogram) are computed from, so that they agree with the
 * count it states. A report shows what there is: the valuation at `date` may be missing.
 */
export function trackDossierWithPrices(
  deps: TrackerDeps,
  caller: Caller,
  request: ValidTrackerRequest,
): Promise<{ tracker: PartialInsights; offerPrices: OfferPrice[] }> {
  return track(deps, caller, request, { prices: true, partial: true });
}

/** A valuation the market data is too thin for, as missing. */
function missingWhenThin(error: unknown): null {
  if (error instanceof InsufficientDataError) return null;
  throw error;
}

async function track(
  deps: TrackerDeps,
  caller: Caller,
  request: ValidTrackerRequest,
  { prices: withPrices, partial }: { prices: boolean; partial: boolean },
): Promise<{ tracker: PartialInsights; offerPrices: OfferPrice[] }> {
  const dossier = await visibleDossier(deps.db, caller, request.dossierId);
  const today = isoDay(deps.now());
  // A fixed amount of work per request, so never costly; but its queries have the deadline.
  return deps.market.read((db, view) =>
    deps.costlyWork.queries('tracker', db, view, async (db, view) => {
      const [tracker, prices] = await Promise.all([
        trackProperty(db, view, deps.valueProperty, dossier, request, today, partial),
        withPrices
          ? view.alongside((other) =>
              offerPrices(other, { ...searchOf(dossier, request), from: request.date, to: today }),
            )
          : [],
      ]);
      return { tracker, offerPrices: prices };
    }),
  );
}

/** The parts run in parallel, each on its own connection to the same snapshot. */
async function trackProperty(
  db: DuckDBConnection,
  view: SnapshotView,
  valueProperty: ValueProperty,
  dossier: Dossier,
  request: ValidTrackerRequest,
  today: string,
  partial: boolean,
): Promise<PartialInsights> {
  if (request.countryCode !== dossier.countryCode) {
    throw invalidField('/countryCode', `must be the dossier's country (${dossier.countryCode})`);
  }
  checkValuationDate(
    request.date,
    todayAsLatest(today),
    await firstOfferDate(db, dossier.countryCode),
    '/date',
  );
  const { content, countryCode } = dossier;
  const property = toPropertyToValue(countryCode, content.property);
  const search = searchOf(dossier, request);
  const { livingArea } = content.property;
  const pastValue = valueProperty(db, { property, dealType: content.dealType, date: request.date });
  const [past, now, rentRatio, offers, projects, trends] = await Promise.all([
    partial ? pastValue.catch(missingWhenThin) : pastValue,
    view.alongside((other) =>
      valueProperty(other, { property, dealType: content.dealType, date: today }),
    ),
    // Rent valuations carry their gross and net rents, as the valuation endpoints give them.
    content.dealType === 'rent'
      ? view.alongside((other) => netRentRatio(other, countryCode, property.postalCode))
      : undefined,
    view.alongside((other) =>
      nearestOffers(other, { ...search, from: request.date, to: today }, limits.tracker.maxItems),
    ),
    view.alongside((other) =>
      projectsNear(
        other,
        { countryCode, point: content.property.location.coordinates, radius: request.radius },
        limits.tracker.maxItems,
      ),
    ),
    view.alongside((other) =>
      trendsIn(other, search, livingArea, trendPeriods(request.date, today)),
    ),
  ]);
  const shown = (v: TrackerValuation) => (rentRatio ? withRents(v, rentRatio.ratio) : v);
  return {
    valuations: [past && shown(past), shown(now)],
    valuationChangePercent: past ? valuationChangePercent(past.value, now.value) : null,
    offers,
    building_projects: projects,
    trends,
  };
}
