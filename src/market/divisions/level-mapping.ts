import type { CountryCode } from '../countries.js';

/** A GeoNames column pair (code, name) that holds one division level. */
export interface LevelSource {
  code: string;
  name: string;
  /** What the code is, for the README's mapping table. */
  meaning: string;
}

export interface CountryLevels {
  level6?: LevelSource;
  level8?: LevelSource;
  /** Why a level is missing, when it is. */
  missing?: string;
}

/**
 * Which GeoNames columns hold the level-6 and level-8 divisions of each country (OSM admin
 * levels). The one place this mapping lives: the reference builder and the README use it.
 * Where the source has no column for a level, the level is left out rather than invented.
 */
export const LEVEL_MAPPING: Record<CountryCode, CountryLevels> = {
  AT: {
    level6: {
      code: 'province_code',
      name: 'province',
      meaning: 'politischer Bezirk (Bezirkskennziffer)',
    },
    level8: { code: 'community_code', name: 'community', meaning: 'Gemeinde (Gemeindekennziffer)' },
  },
  BE: {
    level6: {
      code: 'province_code',
      name: 'province',
      meaning: 'province (ISO 3166-2 suffix, BRU for Brussels)',
    },
    missing:
      'level 8 (municipality): the source has arrondissements (level 7), not NIS municipality codes',
  },
  CH: {
    level6: { code: 'province_code', name: 'province', meaning: 'Bezirk (BFS district number)' },
    level8: { code: 'community_code', name: 'community', meaning: 'Gemeinde (BFS Gemeindenummer)' },
  },
  CZ: {
    level6: { code: 'state_code', name: 'state', meaning: 'kraj (GeoNames admin1 code)' },
    missing: 'level 8 (obec): the source stops at okres (level 7)',
  },
  DE: {
    level6: {
      code: 'community_code',
      name: 'community',
      meaning: 'Kreis / kreisfreie Stadt (5-digit Kreisschlüssel)',
    },
    missing: 'level 8 (Gemeinde): the source has no municipality key',
  },
  FR: {
    level6: { code: 'province_code', name: 'province', meaning: 'département (code INSEE)' },
    missing: 'level 8 (commune): the source stops at arrondissement (level 7)',
  },
  NL: {
    level8: { code: 'province_code', name: 'province', meaning: 'gemeente (CBS gemeentecode)' },
    missing: 'level 6: the Netherlands have no administrative level 6',
  },
  SK: {
    level8: { code: 'province_code', name: 'province', meaning: 'okres (district code)' },
    missing:
      'level 6: Slovakia has no administrative level 6; postcodes of Bratislava and Košice city districts carry no okres in the source',
  },
};
