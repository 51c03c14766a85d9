import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The report's typefaces: DejaVu Sans (npm `dejavu-fonts-ttf`), whole TTFs covering Latin
 * Extended (č ř ž ě ů ß œ) and the symbols the locales print (m², €, narrow no-break space). */
export interface Fonts {
  regular: Buffer;
  bold: Buffer;
}

let fonts: Fonts | undefined;

/** The font files, read once per process (or worker) and kept. */
export function reportFonts(): Fonts {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    fonts = {
      regular: readFileSync(path.join(dir, 'DejaVuSans.ttf')),
      bold: readFileSync(path.join(dir, 'DejaVuSans-Bold.ttf')),
    };
  }
  return fonts;
}
