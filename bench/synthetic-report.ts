// The synthetic report model of the report benchmark's baseline: the AT appraisal template
// with every section on a fixed sample (a Vienna flat, 500 generated offers around it, 12
// building projects, a floor plan, a two-page permit, front and back covers), rendered without
// the market data or the HTTP service, so the renderer's own cost is measured apart.
import { defaultSections } from '../src/features/templates/provider-templates.js';
import type { ReportModel } from '../src/features/reports/model.js';
import type { OfferItem, ProjectItem } from '../src/features/tracker/schemas.js';
import type { Locale } from '../src/features/reports/messages.js';
import { floorPlan, samplePdf } from '../scripts/sample-files.js';

const LAT = 48.2087;
const LON = 16.3695;
const TODAY = '2026-06-15';
const DATE = '2025-06-15';

/** A deterministic sequence in [0, 1). */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const metersBetween = (lat: number, lon: number) =>
  Math.round(
    Math.hypot((lat - LAT) * 111_195, (lon - LON) * 111_195 * Math.cos((LAT * Math.PI) / 180)),
  );

function offers(count: number): OfferItem[] {
  const next = random(7);
  const items = Array.from({ length: count }, (_, i): OfferItem => {
    const angle = next() * 2 * Math.PI;
    const reach = 0.009 * Math.sqrt(next());
    const latitude = LAT + reach * Math.sin(angle);
    const longitude = LON + reach * Math.cos(angle) * 1.5;
    const livingArea = Math.round(40 + next() * 90);
    const perSqm = Math.round(8200 + next() * 5200);
    const month = 1 + Math.floor(next() * 12);
    return {
      id: `s${String(i)}`,
      dealType: 'sale',
      propertyType: 'apartment',
      coordinates: { latitude, longitude },
      postalCode: '1010',
      distance: metersBetween(latitude, longitude),
      startDate: `${month > 6 ? 2025 : 2026}-${String(month).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}`,
      endDate: null,
      isActive: next() > 0.4,
      isNew: false,
      isPrivate: next() > 0.75,
      price: livingArea * perSqm,
      pricePerSquareMeter: perSqm,
      currency: 'EUR',
      livingArea,
      numberOfRooms: Math.max(1, Math.round(livingArea / 28)),
      buildingYear: 1880 + Math.floor(next() * 140),
      daysOnMarket: Math.round(10 + next() * 120),
    };
  });
  return items.sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0));
}

function projects(): ProjectItem[] {
  const next = random(11);
  const names = [
    'Graben Lofts',
    'Stephansplatz Höfe',
    'Kärntner Ring Residenz',
    'Spittelberg Atelier',
  ];
  return Array.from({ length: 12 }, (_, i): ProjectItem => {
    const latitude = LAT + (next() - 0.5) * 0.016;
    const longitude = LON + (next() - 0.5) * 0.024;
    const status = (['planned', 'under_construction', 'completed'] as const)[i % 3] ?? 'planned';
    return {
      id: `p${String(i)}`,
      name: `${names[i % names.length] ?? 'Projekt'} ${String(1 + Math.floor(i / names.length))}`,
      coordinates: { latitude, longitude },
      postalCode: '1010',
      distance: metersBetween(latitude, longitude),
      status,
      numberOfUnits: 8 + Math.floor(next() * 120),
      constructionStartYear: 2023 + (i % 3),
      completionYear: 2026 + (i % 3),
      isResidential: true,
      isCommercial: i % 4 === 0,
    };
  }).sort((a, b) => a.distance - b.distance);
}

/** The sample: every AT appraisal section enabled, in the provider's order. */
export async function syntheticReportModel(
  locale: Locale = 'en',
  offerCount = 500,
): Promise<ReportModel> {
  const items = offers(offerCount);
  const value = 72 * 11_050;
  const past = 72 * 10_400;
  return {
    locale,
    date: DATE,
    today: TODAY,
    organization: 'Demo Realty',
    countryCode: 'AT',
    conventions: 'AT',
    currency: 'EUR',
    dossier: {
      title: 'Flat in the first district',
      addressLines: ['Graben 12', '1010 Wien'],
      latitude: LAT,
      longitude: LON,
      precision: 'coordinates',
      dealType: 'sale',
      propertyType: 'apartment',
      livingArea: 72,
      numberOfRooms: 3,
      buildingYear: 1910,
      floorNumber: 2,
      hasLift: true,
      askingSalePrice: 450_000,
    },
    template: {
      title: 'Appraisal report',
      provider: null,
      rentType: 'rent_gross',
      sections: defaultSections('AT', 'appraisal'),
    },
    netRents: null,
    offerPrices: items.flatMap((o) =>
      o.pricePerSquareMeter === null
        ? []
        : [{ startDate: o.startDate, pricePerSquareMeter: o.pricePerSquareMeter }],
    ),
    tracker: {
      valuations: [
        {
          confidence: 'good',
          basis: { comparables: 40, area: 'radius', radiusMeters: 500, months: 24 },
          coordinates: { latitude: LAT, longitude: LON },
          currency: 'EUR',
          value: past,
          valueRange: { lower: past * 0.92, upper: past * 1.08 },
          salePrice: past,
          salePriceRange: { lower: past * 0.92, upper: past * 1.08 },
        },
        {
          confidence: 'good',
          basis: { comparables: 40, area: 'radius', radiusMeters: 500, months: 24 },
          coordinates: { latitude: LAT, longitude: LON },
          currency: 'EUR',
          value,
          valueRange: { lower: value * 0.92, upper: value * 1.08 },
          salePrice: value,
          salePriceRange: { lower: value * 0.92, upper: value * 1.08 },
        },
      ],
      valuationChangePercent: Math.round(((value - past) / past) * 1000) / 10,
      offers: { items, totalItems: items.length },
      building_projects: { items: projects(), totalItems: 12 },
      trends: [
        {
          dateRange: { min: '2025-03-15T00:00:00.000Z', max: '2025-09-14T23:59:59.999Z' },
          value: 10_390,
          count: 212,
        },
        {
          dateRange: { min: '2025-12-15T00:00:00.000Z', max: '2026-06-15T23:59:59.999Z' },
          value: 10_920,
          count: 241,
        },
      ],
    },
    attachments: [
      {
        type: 'floorplan',
        title: 'Floor plan, 2nd floor',
        contentType: 'image/png',
        width: 800,
        height: 560,
        pages: null,
        bytes: floorPlan(),
      },
      {
        type: 'permit',
        title: 'Building permit 1910',
        contentType: 'application/pdf',
        width: null,
        height: null,
        pages: 2,
        bytes: await samplePdf(['Building permit, page 1', 'Building permit, page 2'], false),
      },
    ],
    covers: {
      front: await samplePdf(['Demo Realty'], true),
      back: await samplePdf(['Demo Realty · Graben 1 · 1010 Wien'], true),
    },
    // No places data in the sample: its places sections say so.
    places: null,
  };
}
