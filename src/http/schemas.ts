import { STATUS_CODES } from 'node:http';
import { Type, type TProperties, type TObject, type TSchema, type TUnsafe } from 'typebox';
import { ERROR_CODES, PROBLEM_MEDIA_TYPE, type ERROR_STATUS, type ErrorCode } from './problem.js';

/** Objects in requests refuse unknown properties; this is the one way the service builds them. */
export function StrictObject<T extends TProperties>(
  properties: T,
  options: { description?: string; title?: string; examples?: unknown[] } = {},
): TObject<T> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** A string enum as plain JSON Schema `enum` (valid OpenAPI 3.0, and one clear ajv message). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Always `about:blank`: `code` tells the kind.' }),
    title: Type.String({ description: 'HTTP reason phrase of `status`.' }),
    status: Type.Integer(),
    code: StringEnum(ERROR_CODES, { description: 'Stable machine-readable error code.' }),
    detail: Type.String({ description: 'What is wrong, for a person.' }),
    message: Type.String({ description: 'Same as `detail`, for clients of the original service.' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: 'JSON pointer into the request part that failed.' }),
          message: Type.String(),
        }),
      ),
    ),
    requestId: Type.String({ description: 'Also in the `X-Request-Id` header and the log.' }),
  },
  { title: 'Problem', description: 'RFC 9457 problem details.' },
);

/** Any status an error code has (src/http/problem.ts). */
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/** A response header as the OpenAPI document describes it. */
export interface HeaderDoc {
  type: 'string' | 'integer';
  description: string;
}

/**
 * `schema` with response `headers` documented: the OpenAPI document lists them beside the
 * schema, and the serializer ignores the member.
 */
export function withHeaders<T extends TSchema>(schema: T, headers: Record<string, HeaderDoc>): T {
  return { ...schema, headers };
}

/** The `Location` of something created, for the 201 that created it. */
export const LOCATION_HEADER: Record<string, HeaderDoc> = {
  Location: { type: 'string', description: 'The path to download what was created.' },
};

/** The `Retry-After` of a refusal to come back later (429, 503). */
export const RETRY_AFTER_HEADER: Record<string, HeaderDoc> = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' },
};

/** The headers an error status comes with, where it has its own. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, Record<string, HeaderDoc>>> = {
  400: {
    'WWW-Authenticate': {
      type: 'string',
      description:
        'Only where the request sent its token twice (header and query, or twice in the ' +
        'query): the bearer challenge with `error="invalid_request"` (RFC 6750).',
    },
  },
  401: {
    'WWW-Authenticate': {
      type: 'string',
      description: 'The bearer challenge (RFC 6750), with `error` when a token was refused.',
    },
  },
  416: {
    'Content-Range': { type: 'string', description: '`bytes */<size>`: the size of the file.' },
  },
  429: RETRY_AFTER_HEADER,
  503: RETRY_AFTER_HEADER,
};

/**
 * Response schemas for the error statuses a route can answer with: problem details, under their
 * own media type (the serializer picks the schema by it too). Every route lists its own; those
 * every route can answer are added by the app (src/http/route-errors.ts).
 */
export function errorResponses(...statuses: ErrorStatus[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) {
    const headers = ERROR_HEADERS[status];
    out[status] = {
      description: STATUS_CODES[status] ?? 'Error',
      ...(headers ? { headers } : {}),
      content: { [PROBLEM_MEDIA_TYPE]: { schema: ProblemSchema } },
    };
  }
  return out;
}

/**
 * Documents a `multipart/form-data` body of the named fields, `required` among them. Such a body
 * is a stream the handler reads and checks itself; the schema is for the OpenAPI document only.
 */
export function multipartBody(required: string[], properties: Record<string, object>) {
  return {
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required, additionalProperties: false, properties },
      },
    },
  };
}

/** A file field of a multipart body. */
export const fileField = (description: string) => ({
  type: 'string',
  format: 'binary',
  description,
});

/**
 * Text shown on one line (titles, names, address parts): no control characters (U+0000–U+001F,
 * U+007F–U+009F) but the tab (trimmed or blank like a space), no line or paragraph separator
 * (U+2028, U+2029: line breaks to text layout and to many clients, though not control
 * characters), and no bidirectional formatting characters (U+200E, U+200F, U+061C,
 * U+202A–U+202E, U+2066–U+2069), which can make a title read backwards in a list or a report
 * and so disguise what it is.
 */
export const ONE_LINE_PATTERN =
  // Spelled out in \uXXXX escapes, which ECMAScript, Java, Python and .NET read alike
  // (`\p{Cc}` needs ECMAScript's `u` flag; Python lacks it). Perl and PCRE read them otherwise.
  '^[^\\u0000-\\u0008\\u000A-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u200E\\u200F\\u061C\\u202A-\\u202E\\u2066-\\u2069]*$';

/** What a refusal of ONE_LINE_PATTERN says: the rule in words, not the expression. */
export const ONE_LINE_MESSAGE =
  'must be one line of text: no line breaks (U+2028 and U+2029 included) or other control ' +
  'characters (but tab), and no bidirectional formatting characters (U+200E, U+200F, U+061C, ' +
  'U+202A–U+202E, U+2066–U+2069)';

/**
 * Characters that show nothing though they are not white space (`\s`): Unicode's default
 * ignorable code points of the Basic Multilingual Plane (the soft hyphen, the combining
 * grapheme joiner, the Hangul fillers, the Khmer inherent vowels, the Mongolian free variation
 * selectors and vowel separator, the zero-width space and joiners, the word joiner, invisible
 * operators and deprecated format characters, the variation selectors, U+FFF0–U+FFF8), and
 * the blank Braille pattern. A title of these alone reads as empty in a list or a report.
 * Those beyond the plane (tag characters, musical format controls) are not here: a pattern
 * cannot name them in a way every regular-expression dialect reads alike.
 */
const INVISIBLE =
  '\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200D\\u2060-\\u2065' +
  '\\u206A-\\u206F\\u2800\\u3164\\uFE00-\\uFE0F\\uFFA0\\uFFF0-\\uFFF8';

/**
 * ONE_LINE_PATTERN with at least one character that is neither white space nor invisible (a
 * required text).
 */
export const FILLED_LINE_PATTERN = `^(?=.*[^\\s${INVISIBLE}])${ONE_LINE_PATTERN.slice(1)}`;

/**
 * A schema keyword (an OpenAPI extension, `x-`) saying in words what a string's `pattern`
 * refuses: a refusal then says it (`must be a month, YYYY-MM`) rather than the expression.
 */
export const PATTERN_MESSAGE = 'x-pattern-message';

/** A string of `pattern`, whose refusal says `message` (PATTERN_MESSAGE). */
export function PatternText(
  pattern: string,
  message: string,
  options: { description: string; default?: string; minLength?: number; maxLength?: number },
) {
  return Type.String({ ...options, pattern, [PATTERN_MESSAGE]: message });
}

/** What a refusal of FILLED_LINE_PATTERN says of one line of white space or invisible characters only. */
export const BLANK_MESSAGE = 'must not be blank';

export function OneLineText(options: {
  minLength?: number;
  maxLength: number;
  description: string;
}) {
  // A text that must have characters must have one that shows: "   " is as empty as "".
  const filled = (options.minLength ?? 0) > 0;
  return filled
    ? PatternText(FILLED_LINE_PATTERN, `${ONE_LINE_MESSAGE}; and ${BLANK_MESSAGE}`, options)
    : PatternText(ONE_LINE_PATTERN, ONE_LINE_MESSAGE, options);
}

/** A request part as validated: `T` with its schema's defaults (`K`) filled in. */
export type WithDefaults<T, K extends keyof T> = T & Required<Pick<T, K>>;
