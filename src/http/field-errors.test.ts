import { describe, expect, it } from 'vitest';
import { limits } from '../limits.js';
import { checkCountry, dottedPath, invalidField, invalidFields } from './field-errors.js';
import { AppError } from './problem.js';

describe('field errors', () => {
  it('names each field in the detail, as the body spells it', () => {
    const error = invalidFields([
      { path: '/filters/radius', message: 'is required with coordinates' },
      { path: '/statistics/3/parameters/percentileRank', message: 'is required for percentile' },
    ]);
    expect(error).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(error.detail).toBe(
      'filters.radius is required with coordinates; ' +
        'statistics[3].parameters.percentileRank is required for percentile',
    );
  });

  it(`lists at most ${limits.problemErrors} errors, in the detail too`, () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ path: `/items/${i}`, message: 'bad' }));
    const error = invalidFields(many);
    expect(error.errors).toEqual(many.slice(0, limits.problemErrors));
    expect(error.detail.split('; ')).toHaveLength(limits.problemErrors);
  });

  it('keeps a code, detail and headers given', () => {
    const error = invalidField('/latitude', 'is required', {
      code: 'unknown_division',
      detail: 'Say it so',
      headers: { connection: 'close' },
    });
    expect(error).toMatchObject({
      code: 'unknown_division',
      detail: 'Say it so',
      headers: { connection: 'close' },
      errors: [{ path: '/latitude', message: 'is required' }],
    });
  });

  it('names the request part outside the body', () => {
    expect(dottedPath('/latitude', 'query')).toBe('query latitude');
    expect(dottedPath('', 'body')).toBe('body');
    expect(dottedPath('/a~1b/c~0d', 'body')).toBe('a/b.c~d');
  });
});

describe('checkCountry', () => {
  it('accepts a served country and refuses others with unsupported_country', () => {
    expect(checkCountry('AT')).toBe('AT');
    expect(() => checkCountry('JP')).toThrow(AppError);
    let refused: unknown;
    try {
      checkCountry('JP', { path: '/x' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'unsupported_country', errors: [{ path: '/x' }] });
    expect((refused as AppError).errors?.[0]?.message).toMatch(/^"JP" is not a supported country/);
  });

  it('takes the list and its name from the operation', () => {
    const served = ['JP'] as const;
    expect(checkCountry('JP', { supported: served })).toBe('JP');
    expect(() => checkCountry('AT', { supported: served, noun: 'template country' })).toThrow(
      '"AT" is not a supported template country (supported: JP)',
    );
  });
});
