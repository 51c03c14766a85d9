import { Type } from 'typebox';
import { OneLineText, PatternText, StrictObject } from '../../http/schemas.js';

// The rest of the original service's property and dossier model, as its client libraries send
// it. Everything here is accepted and kept on dossiers; what the valuation model can use (the
// market data has the same fact for its offers) it uses, the rest is stored and not used.

const count = (maximum: number, description: string) =>
  Type.Integer({ minimum: 0, maximum, description });

const area = (maximum: number, description: string) =>
  Type.Number({ minimum: 0, maximum, description });

/** Postcodes arrive as text or, from some clients, as a JSON number (`8037`); both mean the text. */
export const PostCode = Type.Union(
  [
    OneLineText({
      minLength: 1,
      maxLength: 20,
      description: 'Postcode, with or without its usual space.',
    }),
    Type.Integer({ minimum: 0, maximum: 99_999_999, description: 'Postcode written as a number.' }),
  ],
  { description: 'Postcode, as text or as a number (`8037` is `"8037"`).' },
);

/** Energy efficiency classes as written on certificates, `A+++` to `H`, in either case. */
const ENERGY_LABEL_PATTERN = '^([A-Ha-h]|[Aa]\\+{1,3})$';

export const EXTRAS_TEXT =
  'Used by the valuation model where the market data has the same fact for its offers: ' +
  '`isFurnished`, `balconyArea` (more than 0: a balcony; 0: none). Accepted, kept on dossiers ' +
  'and not used, because no offer of the market data records them: `gardenArea`, `volume`, ' +
  '`volumeStandard`, `buildingStructure`, `hasOpenKitchen`, `numberOfBathrooms`, ' +
  '`numberOfIndoorParkingSpaces`, `numberOfOutdoorParkingSpaces`, `numberOfFloorsInBuilding`, ' +
  '`energyLabel`, `hasPool`, `hasSauna`, `address.buildingName`, `address.unitIdentifier`, ' +
  '`location.uprn`.';

export const MODEL_EXTRAS = {
  balconyArea: Type.Optional(area(10_000, 'm², 0–10000. More than 0 counts as a balcony.')),
  gardenArea: Type.Optional(area(10_000_000, 'm², 0–10000000. Kept, not used.')),
  volume: Type.Optional(area(10_000_000, 'Building volume, m³, 0–10000000. Kept, not used.')),
  volumeStandard: Type.Optional(
    Type.Union(
      [
        OneLineText({ minLength: 1, maxLength: 50, description: 'As text, e.g. `sia-416`.' }),
        // The .NET client's model types it as a decimal, so it can only send a number.
        Type.Number({ minimum: 0, maximum: 1e6 }),
      ],
      {
        description:
          'The standard `volume` is measured by (e.g. `sia-416`); a number too, as the .NET ' +
          'client sends it. Kept as sent, not used.',
      },
    ),
  ),
  buildingStructure: Type.Optional(
    OneLineText({ minLength: 1, maxLength: 50, description: 'Kept, not used.' }),
  ),
  hasOpenKitchen: Type.Optional(Type.Boolean({ description: 'Kept, not used.' })),
  numberOfBathrooms: Type.Optional(count(1000, '0–1000. Kept, not used.')),
  numberOfIndoorParkingSpaces: Type.Optional(count(10_000, '0–10000. Kept, not used.')),
  numberOfOutdoorParkingSpaces: Type.Optional(count(10_000, '0–10000. Kept, not used.')),
  numberOfFloorsInBuilding: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 300, description: '1–300. Kept, not used.' }),
  ),
  energyLabel: Type.Optional(
    PatternText(ENERGY_LABEL_PATTERN, 'must be an energy class: A+++, A++, A+, A … H', {
      description: 'Energy class, `A+++`…`A`, `B`…`H` (either case). Kept, not used.',
    }),
  ),
  hasPool: Type.Optional(Type.Boolean({ description: 'Kept, not used.' })),
  hasSauna: Type.Optional(Type.Boolean({ description: 'Kept, not used.' })),
  isFurnished: Type.Optional(Type.Boolean({ description: 'Used (rents of furnished flats).' })),
};

const money = (description: string) => Type.Number({ minimum: 0, maximum: 1e10, description });

/** Dossier fields beside the property: kept and read back, not used by the valuations. */
export const DOSSIER_EXTRAS = {
  valuationOverrideSalePrice: Type.Optional(
    money('A sale price the organization holds instead of the estimate. Kept, not used.'),
  ),
  valuationOverrideRentNet: Type.Optional(money('Likewise a monthly net rent. Kept, not used.')),
  valuationOverrideRentGross: Type.Optional(
    money('Likewise a monthly gross rent. Kept, not used.'),
  ),
  valuationOverrideReasonFreetext: Type.Optional(
    Type.String({ maxLength: 2000, description: 'Why; at most 2000 characters. Kept, not used.' }),
  ),
  logo: Type.Optional(
    OneLineText({
      minLength: 1,
      maxLength: 2048,
      description: 'A logo reference (URL or identifier), as given. Kept, not used.',
    }),
  ),
  images: Type.Optional(
    Type.Array(
      Type.Union([
        OneLineText({ minLength: 1, maxLength: 2048, description: 'URL or identifier.' }),
        // The PHP SDK's shape: an uploaded image's file name and its caption.
        StrictObject({
          filename: OneLineText({ minLength: 1, maxLength: 2048, description: 'File name.' }),
          caption: Type.Optional(OneLineText({ maxLength: 500, description: 'Caption.' })),
        }),
      ]),
      {
        maxItems: 50,
        description:
          'Image references, at most 50: a URL or identifier, or `{ filename, caption }`. Kept, ' +
          'not used.',
      },
    ),
  ),
  userDefinedFields: Type.Optional(
    Type.Array(
      StrictObject({
        label: OneLineText({ minLength: 1, maxLength: 200, description: 'What it is.' }),
        value: Type.String({ maxLength: 2000, description: 'Its value, as text.' }),
      }),
      {
        maxItems: 50,
        description: 'The organization’s own facts, at most 50 labelled texts. Kept, not used.',
      },
    ),
  ),
};
