import { sourcesNote } from './attribution.js';
import { pointsMap } from './charts.js';
import { facts, paragraph, STYLE, subheading, table, type Column } from './page.js';
import type { ReportModel } from '../model.js';
import type { SectionContext } from './sections.js';

/** The transit data near the dossier, or null where it holds no stop (the section says so). */
export function nearestStops({ places }: ReportModel) {
  const transit = places?.scores.transit ?? null;
  const nearest = places?.stops[0];
  return places && transit && nearest ? { places, transit, nearest } : null;
}

/**
 * Accessibility: the nearest stop and the stops within 500 m, a map and a table of the nearest
 * stops; where the data holds no stop near the dossier, the section says so.
 */
export function accessibility(ctx: SectionContext): void {
  const { doc, model, f, t } = ctx;
  const stops = nearestStops(model);
  // Without stops the section is its empty statement (emptyStatement).
  if (!stops) return;
  const { places, transit, nearest } = stops;
  facts(doc, [
    [
      t('nearestStop'),
      // The distance first: a long name is what gets cut to fit the panel.
      `${f.meters(nearest.distance)} · ${nearest.name ?? t('unnamed')}`,
    ],
    [t('stopsWithin500'), f.number(transit.stopsWithin500m)],
  ]);
  const d = model.dossier;
  pointsMap(
    doc,
    { latitude: d.latitude, longitude: d.longitude },
    t('subject'),
    [
      {
        points: places.stops.map((s) => s.coordinates),
        shape: 'square',
        color: STYLE.teal,
        // The table's nearest stops, counted as drawn; the panel above counts those within 500 m.
        label: t('stopsTable'),
      },
    ],
    { format: f.roundDistance, height: 220 },
  );
  subheading(doc, t('stopsTable'));
  const columns: Column[] = [
    { header: t('name'), width: 7 },
    { header: t('distance'), width: 2, align: 'right' },
  ];
  table(
    doc,
    columns,
    places.stops.map((s) => [s.name ?? t('unnamed'), f.meters(s.distance)]),
  );
  paragraph(doc, t('transitNote'), { size: 8.5, color: STYLE.grey });
  sourcesNote(
    ctx,
    places.stops.map((s) => s.source),
  );
}
