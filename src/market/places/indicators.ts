/**
 * The area indicators a report's socio-economics section shows, each in one of its groups, in
 * the order shown (README "Report sections"). Other imported indicators are kept and served,
 * but no report names them: a report prints only what it can label in every locale.
 */
export const SOCIO_GROUPS = ['demographics', 'economics', 'housing'] as const;
export type SocioGroup = (typeof SOCIO_GROUPS)[number];

export const SOCIO_INDICATORS = {
  population: 'demographics',
  population_density: 'demographics',
  avg_age: 'demographics',
  pct_over_65: 'demographics',
  area_km2: 'demographics',
  net_income: 'economics',
  unemployed_per_1000: 'economics',
  pct_tertiary_education: 'economics',
  overnight_stays_per_1000: 'economics',
  cars_per_1000: 'economics',
  people_single_household: 'housing',
  people_married_household: 'housing',
  people_cohabiting_household: 'housing',
  people_single_mother_household: 'housing',
  people_single_father_household: 'housing',
  people_shared_household: 'housing',
  avg_household_size: 'housing',
  dwellings: 'housing',
  pct_owner_occupied: 'housing',
  pct_single_households: 'housing',
} as const satisfies Record<string, SocioGroup>;
export type SocioIndicator = keyof typeof SOCIO_INDICATORS;

export const isSocioIndicator = (name: string): name is SocioIndicator =>
  Object.hasOwn(SOCIO_INDICATORS, name);
