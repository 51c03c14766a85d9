import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { limits } from '../limits.js';
import { describeFieldErrors, escapePointer, type RequestPart } from './field-errors.js';
import type { FieldError } from './problem.js';
import {
  BLANK_MESSAGE,
  FILLED_LINE_PATTERN,
  PATTERN_MESSAGE,
  ONE_LINE_MESSAGE,
  ONE_LINE_PATTERN,
} from './schemas.js';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = {
  // Unknown properties are refused (400), never silently dropped: a typo in a filter name must
  // not quietly widen a query.
  removeAdditional: false,
  useDefaults: true,
  allErrors: true,
  strict: false,
  // Errors carry the value they refused: a required one-line text says whether it was blank or
  // broke the line (`toFieldError`). Nothing of the value is sent back.
  verbose: true,
};

const ONE_LINE = new RegExp(ONE_LINE_PATTERN, 'u');

/** The keyword `withLowercaseUuids` adds to every `format: 'uuid'` string of a request schema. */
const LOWERCASE_UUID = 'x-lowercase-uuid';

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ ...common, coerceTypes });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: LOWERCASE_UUID,
    modifying: true,
    schemaType: 'boolean',
    validate: (_on: boolean, data: unknown, _schema: unknown, where?: DataContext) => {
      if (typeof data === 'string' && where?.parentData !== undefined) {
        (where.parentData as Record<string | number, unknown>)[where.parentDataProperty] =
          data.toLowerCase();
      }
      return true;
    },
  });
  return ajv;
}

interface DataContext {
  parentData: unknown;
  parentDataProperty: string | number;
}

/**
 * A copy of a request schema in which every UUID string is turned to small letters as it is
 * validated: UUIDs are case-insensitive (RFC 9562 §4), ids are stored and compared in small
 * letters, and a dossier or cover id in capitals in a body must name the same object as in a
 * path (src/http/uuid-params.ts), not pass validation and then find nothing.
 */
function withLowercaseUuids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withLowercaseUuids);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = withLowercaseUuids(value);
  if (copy.format === 'uuid') copy[LOWERCASE_UUID] = true;
  return copy;
}

// JSON bodies keep their types: "5" is not 5. Query strings and path parameters are text by
// nature, so they are coerced.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

/** Schemas compiled for `fieldErrorsOf`, each once. */
const compiledFields = new WeakMap<object, ValidateFunction>();

/**
 * The field errors of `data` against `schema`, checked and worded as a JSON body is (none when
 * it is valid): for fields that do not arrive as JSON, such as an upload form's text fields,
 * whose schema is the one the API documents.
 */
export function fieldErrorsOf(schema: object, data: unknown): FieldError[] {
  let validate = compiledFields.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(withLowercaseUuids(schema) as object);
    compiledFields.set(schema, validate);
  }
  if (validate(data)) return [];
  return describeValidation(validate.errors ?? [], 'body').errors;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const prepared = withLowercaseUuids(schema) as object;
  if (httpPart === 'body') return bodyAjv.compile(prepared);
  return checkedQueryText(schema, textAjv.compile(prepared));
};

/** How a number is written in a query or path: decimal digits, a sign, a decimal point. */
const DECIMAL: Record<string, RegExp> = {
  integer: /^[+-]?\d+$/,
  number: /^[+-]?(\d+\.?\d*|\.\d+)$/,
};

/**
 * A query or path validator that refuses a single-valued parameter given more than once, and
 * numbers not written in decimal, before ajv coerces them: ajv reads text as JavaScript does, so
 * `0x10` was 16, `1e3` 1000 and ` 5` 5 (a typo in an offset must not quietly page elsewhere).
 */
function checkedQueryText(
  schema: unknown,
  validate: ReturnType<Ajv['compile']>,
): ReturnType<Ajv['compile']> {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  const numeric = Object.entries(properties ?? {}).flatMap(([key, property]) => {
    const pattern = typeof property.type === 'string' ? DECIMAL[property.type] : undefined;
    return pattern ? [{ key, type: String(property.type), pattern }] : [];
  });
  // A parameter given twice (`?limit=5&limit=6`) arrives as a list: said so, rather than
  // "must be integer" of a value that was one.
  // (A parameter declared as a union, such as the shared page's `lang`, reads lists itself.)
  const single = Object.entries(properties ?? {}).flatMap(([key, property]) =>
    typeof property.type === 'string' && property.type !== 'array' ? [key] : [],
  );
  if (numeric.length === 0 && single.length === 0) return validate;
  const check = ((data: Record<string, unknown>) => {
    const repeated: ErrorObject[] = single.flatMap((key) => {
      const value = data[key];
      if (!Array.isArray(value)) return [];
      return [
        {
          instancePath: `/${escapePointer(key)}`,
          schemaPath: '',
          keyword: 'type',
          params: {},
          message: `is given ${String(value.length)} times: give it once`,
        },
      ];
    });
    if (repeated.length > 0) {
      check.errors = repeated;
      return false;
    }
    const errors: ErrorObject[] = numeric.flatMap(({ key, type, pattern }) => {
      const value = data[key];
      if (typeof value !== 'string' || pattern.test(value)) return [];
      const instancePath = `/${escapePointer(key)}`;
      return [
        {
          instancePath,
          schemaPath: '',
          keyword: 'type',
          params: { type },
          message: `must be ${type === 'integer' ? 'a whole number' : 'a number'} written in decimal`,
        },
      ];
    });
    if (errors.length > 0) {
      check.errors = errors;
      return false;
    }
    const valid = validate(data);
    check.errors = validate.errors;
    return valid;
  }) as ReturnType<Ajv['compile']>;
  return check;
}

const PART_NAMES: Record<string, RequestPart> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Characters of a field's path an error repeats (`limits.errorPathChars`). */
const PATH_CHARS = limits.errorPathChars;

/** One ajv error → one field error whose path points at the offending property itself, cut to
 * `PATH_CHARS` characters. */
function toFieldError(error: ErrorObject): FieldError {
  const fieldError = fieldErrorOf(error);
  return fieldError.path.length <= PATH_CHARS
    ? fieldError
    : { ...fieldError, path: `${fieldError.path.slice(0, PATH_CHARS - 1)}…` };
}

function fieldErrorOf(error: ErrorObject): FieldError {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    return {
      path: `${error.instancePath}/${escapePointer(params.missingProperty)}`,
      message: 'is required',
    };
  }
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return {
      path: `${error.instancePath}/${escapePointer(params.additionalProperty)}`,
      message: 'is not allowed',
    };
  }
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return {
      path: error.instancePath,
      message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`,
    };
  }
  if (error.keyword === 'pattern' && params.pattern === ONE_LINE_PATTERN) {
    return { path: error.instancePath, message: ONE_LINE_MESSAGE };
  }
  // Before the worded message, which names both rules: a refusal says which one was broken.
  if (error.keyword === 'pattern' && params.pattern === FILLED_LINE_PATTERN) {
    const oneLine = typeof error.data === 'string' && ONE_LINE.test(error.data);
    return { path: error.instancePath, message: oneLine ? BLANK_MESSAGE : ONE_LINE_MESSAGE };
  }
  const worded: unknown = error.parentSchema?.[PATTERN_MESSAGE];
  if (error.keyword === 'pattern' && typeof worded === 'string') {
    return { path: error.instancePath, message: worded };
  }
  return { path: error.instancePath, message: error.message ?? 'is invalid' };
}

// anyOf/oneOf failures repeat every branch's complaint; the summary line at the union says enough.
const NOISY_KEYWORDS = new Set(['if', 'then', 'else']);

/**
 * The errors of an `anyOf` that only offers alternative types (a postcode as text or number):
 * when the value has one of the types, only that branch's complaints are kept; when it has
 * none, the branches' "must be T" become one "must be T1 or T2". Other errors pass unchanged.
 */
function withoutTypeAlternatives(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf');
  if (unions.length === 0) return errors;
  const typesOf = new Map<ErrorObject, string[]>(unions.map((u) => [u, []]));
  const detailed = new Set<ErrorObject>();
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    const union = unions.find(
      (u) => u !== error && error.schemaPath.startsWith(`${u.schemaPath}/`),
    );
    if (union && error.keyword === 'type' && error.instancePath === union.instancePath) {
      typesOf.get(union)?.push(String((error.params as { type?: unknown }).type));
    } else {
      if (union) detailed.add(union);
      kept.push(error);
    }
  }
  return kept.flatMap((error) => {
    const types = typesOf.get(error);
    if (!types) return [error];
    // The branch whose type the value has said what is wrong; the union adds nothing.
    if (detailed.has(error)) return [];
    return [{ ...error, message: `must be ${types.join(' or ')}` }];
  });
}

export function describeValidation(
  errors: ErrorObject[],
  httpPart: string | undefined,
): { detail: string; errors: FieldError[] } {
  const part = PART_NAMES[httpPart ?? 'body'] ?? 'body';
  const seen = new Set<string>();
  const fieldErrors: FieldError[] = [];
  // A value outside an enum is one error: "must be one of …" says the type too.
  const enumPaths = new Set(errors.filter((e) => e.keyword === 'enum').map((e) => e.instancePath));
  const single = errors.filter((e) => !(e.keyword === 'type' && enumPaths.has(e.instancePath)));
  for (const error of withoutTypeAlternatives(single)) {
    if (NOISY_KEYWORDS.has(error.keyword)) continue;
    const fieldError = toFieldError(error);
    const key = `${fieldError.path} ${fieldError.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fieldErrors.push(fieldError);
  }
  return describeFieldErrors(fieldErrors, part);
}
