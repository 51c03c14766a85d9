import { describe, expect, it } from 'vitest';
import { contentDisposition } from './download.js';

describe('downloads', () => {
  it('names the download in ASCII and, exactly, in UTF-8', () => {
    expect(contentDisposition('Front.pdf')).toBe(
      `attachment; filename="Front.pdf"; filename*=UTF-8''Front.pdf`,
    );
    expect(contentDisposition('Réné "best" (1).pdf')).toBe(
      `attachment; filename="Rene _best_ (1).pdf"; ` +
        `filename*=UTF-8''R%C3%A9n%C3%A9%20%22best%22%20%281%29.pdf`,
    );
  });

  it('writes accented letters without their accents in the ASCII name, other characters as _', () => {
    const ascii = (title: string) => /filename="([^"]*)"/.exec(contentDisposition(title))?.[1];
    expect(ascii('Příloha Straße Œuvre Łódź.pdf')).toBe('Priloha Strasse OEuvre Lodz.pdf');
    expect(ascii('北京 100%.pdf')).toBe('__ 100_.pdf');
  });

  it('never names a path: slashes and backslashes become underscores in both names', () => {
    expect(contentDisposition('..\\..\\etc/passwd.pdf')).toBe(
      `attachment; filename=".._.._etc_passwd.pdf"; filename*=UTF-8''.._.._etc_passwd.pdf`,
    );
  });
});
