import { describe, expect, it } from 'vitest';
import { rangeStillApplies, requestedRange } from './byte-range.js';

describe('requestedRange', () => {
  it('reads one range of bytes: from-to, from, and the last n', () => {
    expect(requestedRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(requestedRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(requestedRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(requestedRange(' Bytes = 10 - 10 ', 1000)).toEqual({ start: 10, end: 10 });
  });

  it('takes an end past the file, or a suffix longer than it, as far as the file goes', () => {
    expect(requestedRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(requestedRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('finds no byte of a range that starts past the end, of an empty suffix or an empty file', () => {
    expect(requestedRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(requestedRange('bytes=1000-2000', 1000)).toBe('unsatisfiable');
    expect(requestedRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(requestedRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(requestedRange('bytes=-10', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, other units, bad syntax, several ranges', () => {
    for (const header of [
      undefined,
      'items=0-9',
      'bytes=9-0',
      'bytes=-',
      'bytes=a-b',
      'bytes=0-9,20-29',
      'bytes=0x10-20',
      '',
    ]) {
      expect(requestedRange(header, 1000), String(header)).toBeUndefined();
    }
  });
});

describe('rangeStillApplies', () => {
  it('applies a range with no If-Range, or one that is the same strong tag', () => {
    expect(rangeStillApplies(undefined, '"abc"')).toBe(true);
    expect(rangeStillApplies('"abc"', '"abc"')).toBe(true);
    expect(rangeStillApplies('"abd"', '"abc"')).toBe(false);
    expect(rangeStillApplies('W/"abc"', '"abc"')).toBe(false);
    expect(rangeStillApplies('Wed, 21 Oct 2015 07:28:00 GMT', '"abc"')).toBe(false);
    expect(rangeStillApplies(['"abc"', '"abc"'], '"abc"')).toBe(false);
  });
});
