import { describe, expect, it } from 'vitest';
import { titleFromFileName } from './file-title.js';

describe('titleFromFileName', () => {
  const title = (name: string) => titleFromFileName(name, 200, 'cover.pdf');

  it('keeps the file name only, without control characters, and never empty', () => {
    expect(title('Front.pdf')).toBe('Front.pdf');
    expect(title('/home/anna/Front.pdf')).toBe('Front.pdf');
    expect(title('C:\\fakepath\\Front.pdf')).toBe('Front.pdf');
    expect(title(' Tab\tbed\u0000.pdf ')).toBe('Tabbed.pdf');
    expect(title('Two\u2028lines\u2029.pdf')).toBe('Twolines.pdf');
    expect(title('')).toBe('cover.pdf');
    expect(title('\u0001 \uFFFD')).toBe('cover.pdf');
    // Bidirectional formatting would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
    expect(title('invoice\u202Efdp.exe\u2066.pdf')).toBe('invoicefdp.exe.pdf');
    expect(title('a\u0085b\u200F.pdf')).toBe('ab.pdf');
    expect(title(`${'é'.repeat(300)}.pdf`)).toBe('é'.repeat(200));
    expect(titleFromFileName('Grundriss.png', 5, 'x')).toBe('Grund');
  });
});
