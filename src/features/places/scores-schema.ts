import { Type, type Static } from 'typebox';
import { limits } from '../../limits.js';
import { POI_GROUPS } from '../../market/places/categories.js';
import { HALF_SCORE } from '../../market/places/scores.js';

const noData = `null ("no data") when the market data holds no such place within ${String(limits.places.coverageRadius)} m.`;

const GroupScoreSchema = Type.Union(
  [
    Type.Object({
      within500m: Type.Integer({ description: 'Places of the group within 500 m.' }),
      within1000m: Type.Integer({ description: 'Places of the group within 1,000 m.' }),
      nearestDistance: Type.Integer({ description: 'Meters to the nearest, rounded.' }),
      score: Type.Number({
        minimum: 0,
        maximum: 10,
        description:
          '0–10, one decimal: 10 · w / (w + h), w = Σ (1 − d / 1000) over the places within ' +
          '1 km (d in meters), h the group’s half score (README "Location scores").',
      }),
    }),
    Type.Null(),
  ],
  { description: `One amenity group; ${noData}` },
);

export const LocationScoresSchema = Type.Object(
  {
    amenities: Type.Object(
      Object.fromEntries(POI_GROUPS.map((g) => [g, GroupScoreSchema])) as Record<
        (typeof POI_GROUPS)[number],
        typeof GroupScoreSchema
      >,
      {
        description: `Per amenity group; half scores h: ${POI_GROUPS.map((g) => `${g} ${String(HALF_SCORE[g])}`).join(', ')}.`,
      },
    ),
    transit: Type.Union(
      [
        Type.Object({
          nearestStopDistance: Type.Integer({ description: 'Meters to the nearest stop.' }),
          stopsWithin500m: Type.Integer({
            description: 'Stops within 500 m; the platforms of one stop (same name) count once.',
          }),
        }),
        Type.Null(),
      ],
      { description: `Public transport; ${noData}` },
    ),
  },
  {
    description:
      'The location scores (with `returnScores: true`; the same for each date of an input): ' +
      'measured from the imported places data around the coordinates, never estimated ' +
      '(README "Location scores").',
  },
);
export type LocationScoresSchema = Static<typeof LocationScoresSchema>;
