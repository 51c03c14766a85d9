import {
  isSocioIndicator,
  SOCIO_GROUPS,
  SOCIO_INDICATORS,
} from '../../../market/places/indicators.js';
import type { IndicatorValue } from '../../../market/queries/indicators.js';
import type { Section } from '../../templates/schemas.js';
import type { ReportModel } from '../model.js';
import type { MessageKey } from '../messages.js';
import { sourcesNote } from './attribution.js';
import type { Formats } from './format.js';
import { paragraph, STYLE, subheading, table, type Column } from './page.js';
import type { SectionContext } from './sections.js';

/** The units the catalogue can say in every locale; others are printed as imported. */
const UNIT_KEYS: Record<string, MessageKey> = {
  persons: 'unit.persons',
  'persons per km²': 'unit.density',
  years: 'unit.years',
  'km²': 'unit.km2',
  '%': 'unit.percent',
  'per 1,000 inhabitants': 'unit.per1000',
  dwellings: 'unit.dwellings',
};

const shownNumber = (f: Formats, v: IndicatorValue) =>
  f.number(v.value, Math.abs(v.value) < 1000 ? 1 : 0);

/** An amount a year in a currency (`EUR per year`, `CHF per year`), said in every locale. */
const PER_YEAR = /^([A-Z]{3}) per year$/;

/** An indicator's unit in the report's language: as imported where the catalogue lacks it. */
export function shownUnit(
  t: SectionContext['t'],
  f: Pick<Formats, 'number' | 'currencySymbol'>,
  unit: string | null,
): string {
  if (unit === null) return '';
  const key = UNIT_KEYS[unit];
  // A number in a unit ("per 1,000 inhabitants") is written as the report writes numbers.
  if (key) return t(key, { thousand: f.number(1000) });
  const currency = PER_YEAR.exec(unit)?.[1];
  // With the symbol the report's amounts have ("€ per year" beside "€503,600").
  return currency === undefined
    ? unit
    : t('unit.perYear', { currency: f.currencySymbol(currency) });
}

/** The indicators of the groups the section enables (none: the section says "no data"). */
export function socioRows(model: ReportModel, section: Section) {
  const groups = SOCIO_GROUPS.filter((g) => section.configuration[g] === true);
  return (model.places?.indicators ?? []).filter(
    (i) =>
      isSocioIndicator(i.value.indicator) && groups.includes(SOCIO_INDICATORS[i.value.indicator]),
  );
}

/**
 * Socio-economics: the indicators of the template's enabled groups for the finest division
 * containing the dossier that has them, each with its year and division, beside the same
 * indicator of the wider division where the data has both; the sources under it. Only imported
 * values are shown; without any, the section says there is no data.
 */
export function socio(ctx: SectionContext, section: Section): void {
  const { doc, model, f, t } = ctx;
  const groups = SOCIO_GROUPS.filter((g) => section.configuration[g] === true);
  const rows = socioRows(model, section);
  const areas = [...new Set(rows.map((r) => r.value.divisionName))];
  const wider = [...new Set(rows.flatMap((r) => (r.wider ? [r.wider.divisionName] : [])))];
  paragraph(doc, t('socioArea', { area: areas.join(', ') }), { size: 9, color: STYLE.grey });
  if (wider.length > 0) {
    paragraph(doc, t('labelled', { label: t('comparedWith'), value: wider.join(', ') }), {
      size: 9,
      color: STYLE.grey,
    });
  }
  const order = Object.keys(SOCIO_INDICATORS);
  for (const group of groups) {
    const mine = rows
      .filter(
        (r) => isSocioIndicator(r.value.indicator) && SOCIO_INDICATORS[r.value.indicator] === group,
      )
      .sort((a, b) => order.indexOf(a.value.indicator) - order.indexOf(b.value.indicator));
    subheading(doc, t(`socio.${group}`));
    if (mine.length === 0) {
      paragraph(doc, t('noData'));
      continue;
    }
    const columns: Column[] = [
      { header: t('indicator'), width: 6 },
      { header: t('value'), width: 2.1, align: 'right' },
      { header: '', width: 3.7 },
      { header: t('year'), width: 1, align: 'right' },
      { header: t('comparedWith'), width: 3.2, align: 'right' },
    ];
    table(
      doc,
      columns,
      mine.map(({ value, wider }) => [
        t(`indicator.${value.indicator as keyof typeof SOCIO_INDICATORS}`),
        shownNumber(f, value),
        shownUnit(t, f, value.unit),
        String(value.year),
        wider ? `${shownNumber(f, wider)} (${String(wider.year)})` : '–',
      ]),
    );
  }
  sourcesNote(
    ctx,
    rows.flatMap((r) => [r.value.source, r.wider?.source ?? null]),
  );
}
