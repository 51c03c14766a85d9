/**
 * Keys that tell whether two addresses are the same street or the same building, written once in
 * SQL: the offers import stores them with every offer, and a property's keys are computed by the
 * same expressions in DuckDB, so the two can never disagree.
 *
 * Addresses are written in many ways ("Karl-Popper-Straße 5", "karl-popper-str. 5/2/14",
 * "Village im Dritten, Billy-Wilder-Promenade 7", "12 bis rue de la Roquette"). The street key is
 * the street's letters only, lowercased, with ß as ss and "str." as "strasse"; where a house
 * number follows a street name, that street is the one taken (a building's name before a comma is
 * skipped); an address with digits in neither order ("1100 Wien": a postcode and a city) has no
 * key. The house key is the first number after the street name, without leading zeros and
 * without a letter or range after it ("12a", "12-14" → "12"): a building, not a door. Keys are
 * compared only within one postcode.
 */

/** Street keys shorter than this are placeholders ("n/a", "-"), not streets. */
const MIN_STREET_LETTERS = 3;

/** The normalized text of street and house number together (lowercase, ß → ss, str. → strasse). */
function normalizedSql(street: string, houseNumber: string): string {
  return `regexp_replace(replace(lower(concat_ws(' ', ${street}, ${houseNumber})), 'ß', 'ss'), 'str\\.', 'strasse', 'g')`;
}

/** A street name directly followed by a number: the part of an address that names a building. */
const STREET_THEN_NUMBER = "'([\\p{L}][\\p{L}.'' -]*?)\\s*0*([0-9]+)'";
/** The French and Belgian order, number first: "12 bis rue de la Roquette". */
const NUMBER_THEN_STREET = "'^0*([0-9]{1,3})\\s*(?:bis|ter|quater|[a-z])?\\s+([\\p{L}].*)$'";

/** SQL for the street key of `street` and `houseNumber` (SQL expressions; either may be null). */
export function streetKeySql(street: string, houseNumber: string): string {
  const text = normalizedSql(street, houseNumber);
  const name = `coalesce(nullif(regexp_extract(${text}, ${STREET_THEN_NUMBER}, 1), ''), nullif(regexp_extract(${text}, ${NUMBER_THEN_STREET}, 2), ''), case when not regexp_matches(${text}, '[0-9]') then ${text} end)`;
  const letters = `regexp_replace(${name}, '[^\\p{L}]', '', 'g')`;
  return `(case when length(${letters}) >= ${String(MIN_STREET_LETTERS)} then ${letters} end)`;
}

/** SQL for the house key: the number after the street name, null where there is none. */
export function houseKeySql(street: string, houseNumber: string): string {
  const text = normalizedSql(street, houseNumber);
  return `coalesce(nullif(regexp_extract(${text}, ${STREET_THEN_NUMBER}, 2), ''), nullif(regexp_extract(${text}, ${NUMBER_THEN_STREET}, 1), ''))`;
}
