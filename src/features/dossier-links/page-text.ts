import { DEAL_TYPES } from '../../market/schema.js';
import { CONFIDENCES, type Confidence, type DealType } from '../../valuation/types.js';
import { PROPERTY_CODES, type PropertyCode } from '../dossiers/dossier.js';

/** The words of the shared page, per language; a locale's language picks them (`de_CH` → de). */
export const LANGUAGES = ['en', 'de', 'fr', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];

export function languageOf(locale: string): Language {
  const code = locale.slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : 'en';
}

/** One text in every language, side by side: a text cannot be missing in one of them. */
type Words = Record<Language, string>;

const WORDS = {
  facts: { en: 'Property', de: 'Objekt', fr: 'Bien', it: 'Immobile' },
  address: { en: 'Address', de: 'Adresse', fr: 'Adresse', it: 'Indirizzo' },
  propertyType: { en: 'Type', de: 'Art', fr: 'Type', it: 'Tipo' },
  apartment: { en: 'Apartment', de: 'Wohnung', fr: 'Appartement', it: 'Appartamento' },
  house: { en: 'House', de: 'Haus', fr: 'Maison', it: 'Casa' },
  multi_family_house: {
    en: 'Multi-family house',
    de: 'Mehrfamilienhaus',
    fr: 'Immeuble',
    it: 'Casa plurifamiliare',
  },
  livingArea: {
    en: 'Living area',
    de: 'Wohnfläche',
    fr: 'Surface habitable',
    it: 'Superficie abitabile',
  },
  rooms: { en: 'Rooms', de: 'Zimmer', fr: 'Pièces', it: 'Locali' },
  buildingYear: { en: 'Built', de: 'Baujahr', fr: 'Construit en', it: 'Costruito nel' },
  floor: { en: 'Floor', de: 'Etage', fr: 'Étage', it: 'Piano' },
  range: { en: 'Range', de: 'Spanne', fr: 'Fourchette', it: 'Intervallo' },
  confidence: { en: 'Confidence', de: 'Verlässlichkeit', fr: 'Fiabilité', it: 'Affidabilità' },
  poor: { en: 'low', de: 'gering', fr: 'faible', it: 'bassa' },
  medium: { en: 'medium', de: 'mittel', fr: 'moyenne', it: 'media' },
  good: { en: 'good', de: 'gut', fr: 'bonne', it: 'buona' },
  sale: {
    en: 'Estimated sale price',
    de: 'Geschätzter Kaufpreis',
    fr: 'Prix de vente estimé',
    it: 'Prezzo di vendita stimato',
  },
  rent: {
    en: 'Estimated monthly rent',
    de: 'Geschätzte Monatsmiete',
    fr: 'Loyer mensuel estimé',
    it: 'Affitto mensile stimato',
  },
  noValuation: {
    en: 'The market data does not support an estimate for this property.',
    de: 'Die Marktdaten reichen für eine Schätzung dieses Objekts nicht aus.',
    fr: 'Les données du marché ne permettent pas d’estimer ce bien.',
    it: 'I dati di mercato non permettono una stima di questo immobile.',
  },
  map: {
    en: 'Offers nearby',
    de: 'Angebote in der Nähe',
    fr: 'Offres à proximité',
    it: 'Offerte nelle vicinanze',
  },
  mapLegend: {
    en: 'Red: the property. Blue: offers within 1 km.',
    de: 'Rot: das Objekt. Blau: Angebote im Umkreis von 1 km.',
    fr: 'Rouge : le bien. Bleu : offres dans un rayon de 1 km.',
    it: 'Rosso: l’immobile. Blu: offerte entro 1 km.',
  },
  trend: {
    en: 'Estimate over the last 12 months',
    de: 'Schätzung der letzten 12 Monate',
    fr: 'Estimation sur les 12 derniers mois',
    it: 'Stima negli ultimi 12 mesi',
  },
  noTrend: {
    en: 'Not enough data for a trend.',
    de: 'Zu wenige Daten für einen Verlauf.',
    fr: 'Pas assez de données pour une tendance.',
    it: 'Dati insufficienti per un andamento.',
  },
  expires: {
    en: 'This page can be opened until',
    de: 'Diese Seite ist abrufbar bis',
    fr: 'Cette page peut être ouverte jusqu’au',
    it: 'Questa pagina è consultabile fino al',
  },
  notFoundTitle: {
    en: 'Page not found',
    de: 'Seite nicht gefunden',
    fr: 'Page introuvable',
    it: 'Pagina non trovata',
  },
  notFound: {
    en: 'This link does not exist, has expired or was withdrawn.',
    de: 'Dieser Link existiert nicht, ist abgelaufen oder wurde zurückgezogen.',
    fr: 'Ce lien n’existe pas, a expiré ou a été retiré.',
    it: 'Questo link non esiste, è scaduto o è stato ritirato.',
  },
  busyTitle: {
    en: 'Too many views',
    de: 'Zu viele Aufrufe',
    fr: 'Trop de consultations',
    it: 'Troppe visite',
  },
  busy: {
    en: 'This page is asked for too often right now. Please try again shortly.',
    de: 'Diese Seite wird gerade zu oft aufgerufen. Bitte versuchen Sie es gleich noch einmal.',
    fr: 'Cette page est demandée trop souvent en ce moment. Veuillez réessayer dans un instant.',
    it: 'Questa pagina è richiesta troppo spesso in questo momento. Riprovare tra poco.',
  },
} satisfies Record<string, Words> & Record<Code, Words>;

/** Codes whose names the page shows: property types, deal types, confidence classes. */
type Code = PropertyCode | DealType | Confidence;
const CODES: readonly string[] = [...PROPERTY_CODES, ...DEAL_TYPES, ...CONFIDENCES];
type Key = keyof typeof WORDS;
/** The page's own texts: headings, labels and sentences. */
type Phrase = Exclude<Key, Code>;
const PHRASES = (Object.keys(WORDS) as Key[]).filter((key): key is Phrase => !CODES.includes(key));

/** The texts of `keys` in `language`, by key. */
function inLanguage<K extends Key>(keys: readonly K[], language: Language): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, WORDS[key][language]])) as Record<K, string>;
}

/** The page's words in one language; the names of codes by the list they belong to. */
export type PageText = Record<Phrase, string> & {
  types: Record<string, string>;
  valuation: Record<DealType, string>;
  confidences: Record<string, string>;
};

export const TEXT = Object.fromEntries(
  LANGUAGES.map((language): [Language, PageText] => [
    language,
    {
      ...inLanguage(PHRASES, language),
      types: inLanguage(PROPERTY_CODES, language),
      valuation: inLanguage(DEAL_TYPES, language),
      confidences: inLanguage(CONFIDENCES, language),
    },
  ]),
) as Record<Language, PageText>;
