/** The words of the shared page, per language; a locale's language picks them (`de_CH` → de). */
export const LANGUAGES = ['en', 'de', 'fr', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];

export function languageOf(locale: string): Language {
  const code = locale.slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : 'en';
}

export interface PageText {
  facts: string;
  address: string;
  propertyType: string;
  types: Record<string, string>;
  livingArea: string;
  rooms: string;
  buildingYear: string;
  floor: string;
  valuation: { sale: string; rent: string };
  range: string;
  confidence: string;
  confidences: Record<string, string>;
  noValuation: string;
  map: string;
  mapLegend: string;
  trend: string;
  noTrend: string;
  expires: string;
  notFoundTitle: string;
  notFound: string;
  busyTitle: string;
  busy: string;
}

export const TEXT: Record<Language, PageText> = {
  en: {
    facts: 'Property',
    address: 'Address',
    propertyType: 'Type',
    types: { apartment: 'Apartment', house: 'House', multi_family_house: 'Multi-family house' },
    livingArea: 'Living area',
    rooms: 'Rooms',
    buildingYear: 'Built',
    floor: 'Floor',
    valuation: { sale: 'Estimated sale price', rent: 'Estimated monthly rent' },
    range: 'Range',
    confidence: 'Confidence',
    confidences: { poor: 'low', medium: 'medium', good: 'good' },
    noValuation: 'The market data does not support an estimate for this property.',
    map: 'Offers nearby',
    mapLegend: 'Red: the property. Blue: offers within 1 km.',
    trend: 'Estimate over the last 12 months',
    noTrend: 'Not enough data for a trend.',
    expires: 'This page can be opened until',
    notFoundTitle: 'Page not found',
    notFound: 'This link does not exist, has expired or was withdrawn.',
    busyTitle: 'Too many views',
    busy: 'This page is asked for too often right now. Please try again shortly.',
  },
  de: {
    facts: 'Objekt',
    address: 'Adresse',
    propertyType: 'Art',
    types: { apartment: 'Wohnung', house: 'Haus', multi_family_house: 'Mehrfamilienhaus' },
    livingArea: 'Wohnfläche',
    rooms: 'Zimmer',
    buildingYear: 'Baujahr',
    floor: 'Etage',
    valuation: { sale: 'Geschätzter Kaufpreis', rent: 'Geschätzte Monatsmiete' },
    range: 'Spanne',
    confidence: 'Verlässlichkeit',
    confidences: { poor: 'gering', medium: 'mittel', good: 'gut' },
    noValuation: 'Die Marktdaten reichen für eine Schätzung dieses Objekts nicht aus.',
    map: 'Angebote in der Nähe',
    mapLegend: 'Rot: das Objekt. Blau: Angebote im Umkreis von 1 km.',
    trend: 'Schätzung der letzten 12 Monate',
    noTrend: 'Zu wenige Daten für einen Verlauf.',
    expires: 'Diese Seite ist abrufbar bis',
    notFoundTitle: 'Seite nicht gefunden',
    notFound: 'Dieser Link existiert nicht, ist abgelaufen oder wurde zurückgezogen.',
    busyTitle: 'Zu viele Aufrufe',
    busy: 'Diese Seite wird gerade zu oft aufgerufen. Bitte versuchen Sie es gleich noch einmal.',
  },
  fr: {
    facts: 'Bien',
    address: 'Adresse',
    propertyType: 'Type',
    types: { apartment: 'Appartement', house: 'Maison', multi_family_house: 'Immeuble' },
    livingArea: 'Surface habitable',
    rooms: 'Pièces',
    buildingYear: 'Construit en',
    floor: 'Étage',
    valuation: { sale: 'Prix de vente estimé', rent: 'Loyer mensuel estimé' },
    range: 'Fourchette',
    confidence: 'Fiabilité',
    confidences: { poor: 'faible', medium: 'moyenne', good: 'bonne' },
    noValuation: 'Les données du marché ne permettent pas d’estimer ce bien.',
    map: 'Offres à proximité',
    mapLegend: 'Rouge : le bien. Bleu : offres dans un rayon de 1 km.',
    trend: 'Estimation sur les 12 derniers mois',
    noTrend: 'Pas assez de données pour une tendance.',
    expires: 'Cette page peut être ouverte jusqu’au',
    notFoundTitle: 'Page introuvable',
    notFound: 'Ce lien n’existe pas, a expiré ou a été retiré.',
    busyTitle: 'Trop de consultations',
    busy: 'Cette page est demandée trop souvent en ce moment. Veuillez réessayer dans un instant.',
  },
  it: {
    facts: 'Immobile',
    address: 'Indirizzo',
    propertyType: 'Tipo',
    types: { apartment: 'Appartamento', house: 'Casa', multi_family_house: 'Casa plurifamiliare' },
    livingArea: 'Superficie abitabile',
    rooms: 'Locali',
    buildingYear: 'Costruito nel',
    floor: 'Piano',
    valuation: { sale: 'Prezzo di vendita stimato', rent: 'Affitto mensile stimato' },
    range: 'Intervallo',
    confidence: 'Affidabilità',
    confidences: { poor: 'bassa', medium: 'media', good: 'buona' },
    noValuation: 'I dati di mercato non permettono una stima di questo immobile.',
    map: 'Offerte nelle vicinanze',
    mapLegend: 'Rosso: l’immobile. Blu: offerte entro 1 km.',
    trend: 'Stima negli ultimi 12 mesi',
    noTrend: 'Dati insufficienti per un andamento.',
    expires: 'Questa pagina è consultabile fino al',
    notFoundTitle: 'Pagina non trovata',
    notFound: 'Questo link non esiste, è scaduto o è stato ritirato.',
    busyTitle: 'Troppe visite',
    busy: 'Questa pagina è richiesta troppo spesso in questo momento. Riprovare tra poco.',
  },
};
