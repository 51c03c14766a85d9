import type { AttachmentContentType, AttachmentType, RentType } from '../../accounts/tables.js';
import type { Section } from '../templates/schemas.js';
import type { Layout } from '../templates/section-rules.js';
import type { PartialInsights } from '../tracker/tracker.js';
import type { OfferPrice } from '../../market/queries/offers.js';
import type { LocationScores } from '../../market/places/scores.js';
import type { AreaDivision, AreaIndicator } from '../../market/queries/indicators.js';
import type { PlaceNear } from '../../market/queries/surroundings.js';
import type { Locale } from './messages.js';
import type { RatioSource } from '../valuation/rent-ratio.js';

/**
 * Everything a report shows, gathered by the service and handed to the renderer as plain data
 * (structured-cloneable, so it can cross to a worker process): the renderer reads no store.
 */
export interface ReportModel {
  locale: Locale;
  /** The region whose number and date conventions the report follows (`formatTag`). */
  conventions: string;
  /** The date the report compares today with (`YYYY-MM-DD`: values then and now, offers since
   * then), and today, the valuation date of its headline values. */
  date: string;
  today: string;
  organization: string;
  countryCode: string;
  currency: string;
  dossier: ReportDossier;
  /** `provider`: the layout of a provider template, whose name the report says in its locale;
   * null for the users' and organizations' templates, which keep their own titles. */
  template: { title: string; provider: Layout | null; rentType: RentType; sections: Section[] };
  /** The property tracker's answer for the dossier at `date`; null when the market data cannot
   * value it today (the report says so instead of showing numbers). Its valuation at `date` is
   * null where the data is too thin then but not today (a date in the data's first weeks). */
  tracker: PartialInsights | null;
  /** Start date and price per m² of every offer the tracker counts (its list holds the nearest
   * 500): the means by quarter and the histogram are over all of them, as the count it states. */
  offerPrices: OfferPrice[];
  /** With `rentType: rent_net` on a rent dossier the tracker valued: its two valuations as net
   * rents (the valuation's rule, `withRents`) and the net share they were computed with. */
  netRents: ReportNetRents | null;
  attachments: ReportAttachment[];
  covers: { front: Uint8Array | null; back: Uint8Array | null };
  /** The places data around the dossier, when a section shows it (else null). */
  places: ReportPlaces | null;
}

export interface ReportNetRents {
  valuations: PartialInsights['valuations'];
  ratio: number;
  source: RatioSource;
}

/** What the snapshot's places data says around the dossier: measured, never made up. */
export interface ReportPlaces {
  scores: LocationScores;
  /** The nearest points of interest of each category (`kind`), nearest first. */
  amenities: PlaceNear[];
  /** The nearest stops, each once, nearest first. */
  stops: PlaceNear[];
  /** The divisions containing the dossier, finest first, and their indicators. */
  area: AreaDivision[];
  indicators: AreaIndicator[];
}

export interface ReportDossier {
  title: string;
  addressLines: string[];
  latitude: number;
  longitude: number;
  precision: 'coordinates' | 'postcode';
  dealType: 'sale' | 'rent';
  propertyType: 'apartment' | 'house' | 'multi_family_house';
  livingArea: number;
  landArea?: number;
  numberOfRooms?: number;
  buildingYear?: number;
  renovationYear?: number;
  floorNumber?: number;
  hasLift?: boolean;
  askingSalePrice?: number;
}

export interface ReportAttachment {
  type: AttachmentType;
  title: string;
  contentType: AttachmentContentType;
  width: number | null;
  height: number | null;
  pages: number | null;
  bytes: Uint8Array;
}

/** Renders a report model to PDF bytes. */
export type RenderReport = (model: ReportModel) => Promise<Uint8Array>;
