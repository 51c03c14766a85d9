import { describe, expect, it } from 'vitest';
import { orderErrors, titleFromFileName } from './validate.js';

describe('cover order rules', () => {
  const existing = new Set(['a', 'b', 'c']);

  it('accepts any order of existing covers, a subset, or none', () => {
    expect(orderErrors(['c', 'a', 'b'], existing)).toEqual([]);
    expect(orderErrors(['b'], existing)).toEqual([]);
    expect(orderErrors([], existing)).toEqual([]);
  });

  it('names every unknown or repeated uuid', () => {
    expect(orderErrors(['a', 'x', 'a', 'b', 'b'], existing)).toEqual([
      { path: '/items/1/uuid', message: 'is not a cover of this owner and side' },
      { path: '/items/2/uuid', message: 'is listed more than once' },
      { path: '/items/4/uuid', message: 'is listed more than once' },
    ]);
  });
});

describe('cover titles and downloads', () => {
  it('keeps the file name only, without control characters, and never empty', () => {
    expect(titleFromFileName('Front.pdf')).toBe('Front.pdf');
    expect(titleFromFileName('/home/anna/Front.pdf')).toBe('Front.pdf');
    expect(titleFromFileName('C:\\fakepath\\Front.pdf')).toBe('Front.pdf');
    expect(titleFromFileName(' Tab\tbed\u0000.pdf ')).toBe('Tabbed.pdf');
    expect(titleFromFileName('Two\u2028lines\u2029.pdf')).toBe('Twolines.pdf');
    expect(titleFromFileName('')).toBe('cover.pdf');
    // Bidirectional formatting would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
    expect(titleFromFileName('invoice\u202Efdp.exe\u2066.pdf')).toBe('invoicefdp.exe.pdf');
    expect(titleFromFileName('a\u0085b\u200F.pdf')).toBe('ab.pdf');
    expect(titleFromFileName(`${'é'.repeat(300)}.pdf`)).toBe('é'.repeat(200));
  });
});
