import { sqlString } from '../duck.js';

export type FieldKind =
  | 'text'
  | 'enum'
  | 'date'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'country'
  | 'latitude'
  | 'longitude';

/** One column of a canonical import format: its name in files, its kind and its range. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  required?: boolean;
  min?: number;
  max?: number;
  values?: readonly string[];
  maxLength?: number;
}

const TRUE_WORDS = "('true', 't', '1', 'yes', 'y')";
const FALSE_WORDS = "('false', 'f', '0', 'no', 'n')";

const quoted = (name: string) => `"${name}"`;
/** The offending value, shortened, for a rejection message. */
const shown = (name: string) => `'"' || left(${quoted(name)}, 40) || '"'`;

/** `(condition, message)` pairs in SQL that reject a row because of this field. */
export function fieldChecks(field: FieldSpec): [string, string][] {
  const col = quoted(field.name);
  const checks: [string, string][] = [];
  if (field.required) checks.push([`${col} is null`, sqlString(`${field.name} is missing`)]);
  const present = `${col} is not null`;
  const bounds = (value: string, label: string) => {
    if (field.min !== undefined) {
      checks.push([
        `${present} and ${value} < ${field.min}`,
        `${sqlString(`${field.name} `)} || ${shown(field.name)} || ${sqlString(` must be ${label} ${field.min}`)}`,
      ]);
    }
    if (field.max !== undefined) {
      checks.push([
        `${present} and ${value} > ${field.max}`,
        `${sqlString(`${field.name} `)} || ${shown(field.name)} || ${sqlString(` must be at most ${field.max}`)}`,
      ]);
    }
  };
  switch (field.kind) {
    case 'text':
      if (field.maxLength) {
        checks.push([
          `length(${col}) > ${field.maxLength}`,
          sqlString(`${field.name} is longer than ${field.maxLength} characters`),
        ]);
      }
      break;
    case 'enum':
    case 'country': {
      const values = field.values ?? [];
      const list = values.map(sqlString).join(', ');
      const normalized = field.kind === 'country' ? `upper(${col})` : col;
      checks.push([
        `${present} and ${normalized} not in (${list})`,
        `${sqlString(`${field.name} `)} || ${shown(field.name)} || ${sqlString(` is not one of ${values.join(', ')}`)}`,
      ]);
      break;
    }
    case 'date':
      checks.push([
        `${present} and try_strptime(${col}, '%Y-%m-%d') is null`,
        `${sqlString(`${field.name} `)} || ${shown(field.name)} || ' is not a date (YYYY-MM-DD)'`,
      ]);
      break;
    case 'boolean':
      checks.push([
        `${present} and lower(${col}) not in ${TRUE_WORDS} and lower(${col}) not in ${FALSE_WORDS}`,
        `${sqlString(`${field.name} `)} || ${shown(field.name)} || ' is not a boolean'`,
      ]);
      break;
    case 'integer':
      checks.push([
        `${present} and try_cast(${col} as bigint) is null`,
        `${sqlString(`${field.name} `)} || ${shown(field.name)} || ' is not an integer'`,
      ]);
      bounds(`try_cast(${col} as bigint)`, 'at least');
      break;
    case 'number':
    case 'latitude':
    case 'longitude': {
      checks.push([
        `${present} and (try_cast(${col} as double) is null or isnan(try_cast(${col} as double)) or isinf(try_cast(${col} as double)))`,
        `${sqlString(`${field.name} `)} || ${shown(field.name)} || ' is not a number'`,
      ]);
      bounds(`try_cast(${col} as double)`, 'at least');
      break;
    }
  }
  return checks;
}

/** The SQL expression turning the field's text into its stored type. */
export function fieldValue(field: FieldSpec): string {
  const col = quoted(field.name);
  switch (field.kind) {
    case 'text':
      return `nullif(trim(${col}), '')`;
    case 'enum':
      return col;
    case 'country':
      return `upper(${col})`;
    case 'date':
      return `try_strptime(${col}, '%Y-%m-%d')::date`;
    case 'boolean':
      return `case when lower(${col}) in ${TRUE_WORDS} then true when lower(${col}) in ${FALSE_WORDS} then false end`;
    case 'integer':
      return `try_cast(${col} as integer)`;
    default:
      return `try_cast(${col} as double)`;
  }
}

/** A CASE expression giving the first reason a row is refused, or null when it is fine. */
export function reasonExpression(checks: [string, string][]): string {
  return `case ${checks.map(([when, message]) => `when ${when} then ${message}`).join(' ')} else null end`;
}
