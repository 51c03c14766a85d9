import {
  POI_CATEGORIES,
  POI_GROUPS,
  type PoiCategory,
  type PoiGroup,
} from '../../../market/places/categories.js';
import type { PlaceNear } from '../../../market/queries/surroundings.js';
import type { Section } from '../../templates/schemas.js';
import type { ReportModel } from '../model.js';
import { limits } from '../../../limits.js';
import { sourcesNote } from './attribution.js';
import { pointsMap, type MapLayer } from './charts.js';
import { paragraph, STYLE, subheading, table, type Column } from './page.js';
import type { SectionContext } from './sections.js';

/** A colour per group on the map, told apart from the subject's navy. */
const GROUP_COLORS: Record<PoiGroup, string> = {
  health: '#c0392b',
  education: '#7d4fa0',
  leisure: '#2e8b57',
  catering: STYLE.orange,
  shopping: STYLE.teal,
};

const groupOf = (place: PlaceNear) => POI_CATEGORIES[place.kind as PoiCategory];

/** The nearest places of a group, from the nearest of each of its categories. */
const nearestOf = (places: PlaceNear[], group: PoiGroup) =>
  places.filter((p) => groupOf(p) === group).slice(0, limits.places.reportPlacesPerGroup);

/** Whether the places data covers any group the section enables (else it says "no data"). */
export function hasAmenities({ places }: ReportModel, section: Section): boolean {
  return POI_GROUPS.some(
    (g) => section.configuration[g] === true && (places?.scores.amenities[g] ?? null) !== null,
  );
}

/**
 * Amenities: for each group the template enables, the counts within 500 m and 1 km, the
 * nearest distance and the score (places/scores.ts), a map of the listed places and a table of
 * the nearest; a group the data does not cover says so. Every number is the snapshot's.
 */
export function amenities(ctx: SectionContext, section: Section): void {
  const { doc, model, f, t } = ctx;
  const groups = POI_GROUPS.filter((g) => section.configuration[g] === true);
  const places = model.places;
  // Without amenities the section is its empty statement (emptyStatement).
  if (!places) return;
  paragraph(doc, t('amenitiesIntro'), { size: 9, color: STYLE.grey });
  table(
    doc,
    [
      { header: '', width: 3 },
      { header: t('within500'), width: 2, align: 'right' },
      { header: t('within1000'), width: 2, align: 'right' },
      { header: t('nearest'), width: 2, align: 'right' },
      { header: t('score'), width: 2, align: 'right' },
    ],
    groups.map((g) => {
      const score = places.scores.amenities[g];
      // The nearest place's own distance, unrounded, so that it is rounded up once.
      const nearest = nearestOf(places.amenities, g)[0]?.distance;
      return score === null
        ? [t(`group.${g}`), '–', '–', '–', '–']
        : [
            t(`group.${g}`),
            f.number(score.within500m),
            f.number(score.within1000m),
            f.meters(nearest ?? score.nearestDistance),
            f.number(score.score, 1, 1),
          ];
    }),
  );
  const layers: MapLayer[] = groups.map((g) => {
    const listed = nearestOf(places.amenities, g);
    const near = listed.filter((p) => p.distance <= 1000);
    const layer = { shape: 'circle', color: GROUP_COLORS[g], label: t(`group.${g}`) } as const;
    const [nearest] = listed;
    const score = places.scores.amenities[g];
    // A group without data is a dash, as in the table: a count would read as none there.
    if (score === null) return { ...layer, points: [], legend: `${layer.label} (–)` };
    if (near.length === 0 && nearest) {
      // Nothing of the group within 1 km: the map draws its nearest place, which the table
      // below lists, rather than leave the group out (a remote place's map was the subject
      // alone while its tables listed places 1–4 km away).
      const at = t('nearestAt', { distance: f.meters(nearest.distance) });
      return { ...layer, points: [nearest.coordinates], legend: `${layer.label} (${at})` };
    }
    // The map draws the nearest few of a group; the table counts all within 1 km: the legend
    // says of how many where it draws fewer.
    const within = score.within1000m;
    const counted =
      within > near.length
        ? t('ofTotal', { shown: f.number(near.length), total: f.number(within) })
        : f.number(near.length);
    return {
      ...layer,
      points: near.map((p) => p.coordinates),
      legend: `${layer.label} (${counted})`,
    };
  });
  const d = model.dossier;
  pointsMap(doc, { latitude: d.latitude, longitude: d.longitude }, t('subject'), layers, {
    format: f.roundDistance,
    height: 220,
  });
  const shown: PlaceNear[] = [];
  for (const g of groups) {
    subheading(doc, t(`group.${g}`));
    const list = nearestOf(places.amenities, g);
    if (places.scores.amenities[g] === null || list.length === 0) {
      paragraph(doc, t('groupNoData'));
      continue;
    }
    shown.push(...list);
    const columns: Column[] = [
      { header: t('place'), width: 6 },
      { header: t('kind'), width: 3 },
      { header: t('distance'), width: 2, align: 'right' },
    ];
    table(
      doc,
      columns,
      list.map((p) => [
        p.name ?? t('unnamed'),
        t(`category.${p.kind as PoiCategory}`),
        f.meters(p.distance),
      ]),
    );
  }
  paragraph(doc, t('scoreNote'), { size: 8.5, color: STYLE.grey });
  sourcesNote(
    ctx,
    shown.map((p) => p.source),
  );
}
