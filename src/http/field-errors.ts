import { limits } from '../limits.js';
import { COUNTRIES } from '../market/countries.js';
import { AppError, type FieldError } from './problem.js';

/**
 * The one way a request is refused for what its fields say: a 400 whose `errors` name each
 * field by JSON pointer, at most `limits.problemErrors` of them, and whose `detail` says the
 * same in words. The schema validator and every feature's own rules end here.
 */

/** The codes of a refusal that names fields. */
export type FieldErrorCode =
  'validation_failed' | 'unsupported_country' | 'unknown_division' | 'insufficient_data';

/** The request part the pointers point into; the words name it (`query latitude …`). */
export type RequestPart = 'body' | 'query' | 'path' | 'header';

/** One JSON pointer segment (RFC 6901): `~` and `/` escaped. */
export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** `/filters/radius` → `filters.radius`; the root is named after the request part. */
export function dottedPath(pointer: string, part: RequestPart): string {
  if (pointer === '') return part;
  const segments = pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const dotted = segments.reduce(
    (acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === '' ? s : `${acc}.${s}`),
    '',
  );
  return part === 'body' ? dotted : `${part} ${dotted}`;
}

/** The errors a problem lists (the first `limits.problemErrors`) and the detail naming them. */
export function describeFieldErrors(
  errors: readonly FieldError[],
  part: RequestPart = 'body',
  most: number = limits.problemErrors,
): { detail: string; errors: FieldError[] } {
  const shown = errors.slice(0, most);
  const detail = shown.map((e) => `${dottedPath(e.path, part)} ${e.message}`).join('; ');
  return { detail: detail || `${part} is invalid`, errors: shown };
}

export interface FieldErrorOptions {
  /** Default `validation_failed`. */
  code?: FieldErrorCode;
  /** Default `body`. */
  part?: RequestPart;
  /** Words of the refusal when the fields' own would say it less well. */
  detail?: string;
  /** Errors listed at most (default `limits.problemErrors`): more where a client needs every
   * one (the inputs of a valuation batch the data cannot support). */
  most?: number;
  headers?: Record<string, string>;
}

/** A 400 naming `errors` (at most `options.most`, by default `limits.problemErrors`). */
export function invalidFields(
  errors: readonly FieldError[],
  options: FieldErrorOptions = {},
): AppError {
  const described = describeFieldErrors(errors, options.part, options.most);
  return new AppError(options.code ?? 'validation_failed', options.detail ?? described.detail, {
    errors: described.errors,
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/** A 400 naming one field. */
export function invalidField(
  path: string,
  message: string,
  options: FieldErrorOptions = {},
): AppError {
  return invalidFields([{ path, message }], options);
}

/** Throws the errors collected, if there are any, as one 400. */
export function throwFieldErrors(errors: readonly FieldError[], options?: FieldErrorOptions): void {
  if (errors.length > 0) throw invalidFields(errors, options);
}

export interface CountryCheck<C extends string> {
  /** The countries the operation serves (default: the markets, `COUNTRIES`). */
  supported?: readonly C[];
  /** Default `/countryCode`. */
  path?: string;
  /** What the refusal calls them (default `country`). */
  noun?: string;
}

/** A country the operation serves, or `400 unsupported_country` naming the field and the list. */
export function checkCountry<C extends string = (typeof COUNTRIES)[number]>(
  countryCode: string,
  check: CountryCheck<C> = {},
): C {
  const supported = check.supported ?? (COUNTRIES as readonly string[] as readonly C[]);
  const found = supported.find((c) => c === countryCode);
  if (found !== undefined) return found;
  throw invalidField(
    check.path ?? '/countryCode',
    `${JSON.stringify(countryCode)} is not a supported ${check.noun ?? 'country'} (supported: ${supported.join(', ')})`,
    { code: 'unsupported_country' },
  );
}
