import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { tempDir } from './temp-dirs.js';

const run = promisify(execFile);

/** The titles of a PDF's top-level outline (bookmark) entries, in order, read with pdf-lib. */
export async function outlineTitles(bytes: Uint8Array): Promise<string[]> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const outlines = document.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  const titles: string[] = [];
  let item = outlines?.lookupMaybe(PDFName.of('First'), PDFDict);
  while (item) {
    const title = item.lookup(PDFName.of('Title'));
    if (title instanceof PDFString || title instanceof PDFHexString)
      titles.push(title.decodeText());
    item = item.lookupMaybe(PDFName.of('Next'), PDFDict);
  }
  return titles;
}

/** An outline entry: its title, the 0-based page its destination shows, and its children. */
export interface OutlineEntry {
  title: string;
  page: number | undefined;
  children: OutlineEntry[];
}

/** A PDF's whole outline, read with pdf-lib, each destination resolved to its page index. */
export async function outlineTree(bytes: Uint8Array): Promise<OutlineEntry[]> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const refs = document.getPages().map((p) => p.ref.toString());
  const read = (first: PDFDict | undefined): OutlineEntry[] => {
    const entries: OutlineEntry[] = [];
    for (let item = first; item; item = item.lookupMaybe(PDFName.of('Next'), PDFDict)) {
      const title = item.lookup(PDFName.of('Title'));
      const dest = item.lookupMaybe(PDFName.of('Dest'), PDFArray)?.get(0);
      const page = dest ? refs.indexOf(dest.toString()) : -1;
      entries.push({
        title:
          title instanceof PDFString || title instanceof PDFHexString ? title.decodeText() : '',
        page: page >= 0 ? page : undefined,
        children: read(item.lookupMaybe(PDFName.of('First'), PDFDict)),
      });
    }
    return entries;
  };
  const outlines = document.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  return read(outlines?.lookupMaybe(PDFName.of('First'), PDFDict));
}

/** What poppler reads from a PDF: its pages' text (form feed between pages), page count and
 * fonts (name and whether embedded). */
export interface PdfReading {
  pages: string[];
  pageCount: number;
  fonts: { name: string; embedded: boolean }[];
}

export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  const file = path.join(tempDir(), 'read.pdf');
  writeFileSync(file, bytes);
  const [text, info, fonts] = await Promise.all([
    run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']),
    run('pdfinfo', [file]),
    run('pdffonts', [file]),
  ]);
  const pageCount = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1]);
  // pdffonts: two header lines, then one line per font: name, type, encoding, emb, sub, uni…
  const fontLines = fonts.stdout
    .split('\n')
    .slice(2)
    .filter((l) => l.trim() !== '');
  return {
    pages: text.stdout.split('\f').slice(0, pageCount),
    pageCount,
    fonts: fontLines.map((line) => {
      const cells = line.trim().split(/\s+/);
      // From the right: object id (2 cells), uni, sub, emb.
      return { name: cells[0] ?? '', embedded: cells[cells.length - 5] === 'yes' };
    }),
  };
}

/** How many images each page of a PDF shows (1-based page → count), read with `pdfimages`. */
export async function imagesPerPage(bytes: Uint8Array): Promise<Map<number, number>> {
  const file = path.join(tempDir(), 'images.pdf');
  writeFileSync(file, bytes);
  const { stdout } = await run('pdfimages', ['-list', file]);
  const counts = new Map<number, number>();
  // Two header lines, then: page num type width height … (soft masks are listed as `smask`).
  for (const line of stdout.split('\n').slice(2)) {
    const [page, , type] = line.trim().split(/\s+/);
    if (page === undefined || page === '' || type !== 'image') continue;
    counts.set(Number(page), (counts.get(Number(page)) ?? 0) + 1);
  }
  return counts;
}

/** Each image a PDF draws: its page and the object it draws (the same object drawn twice is one). */
export async function imagePlacements(
  bytes: Uint8Array,
): Promise<{ page: number; object: string }[]> {
  const file = path.join(tempDir(), 'placements.pdf');
  writeFileSync(file, bytes);
  const { stdout } = await run('pdfimages', ['-list', file]);
  // page num type width height color comp bpc enc interp object ID …
  return stdout
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[2] === 'image')
    .map((cols) => ({ page: Number(cols[0]), object: `${cols[10] ?? ''} ${cols[11] ?? ''}` }));
}

/** A word poppler reads, with its box in points from the page's top left. */
export interface WordBox {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** The words of each page of a PDF with their boxes (`pdftotext -bbox`). */
export async function wordBoxes(bytes: Uint8Array): Promise<WordBox[][]> {
  const file = path.join(tempDir(), 'boxes.pdf');
  writeFileSync(file, bytes);
  const { stdout } = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const unescape = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  return stdout
    .split('<page ')
    .slice(1)
    .map((page) =>
      [
        ...page.matchAll(
          /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
        ),
      ].map((m) => ({
        text: unescape(m[5] ?? ''),
        xMin: Number(m[1]),
        yMin: Number(m[2]),
        xMax: Number(m[3]),
        yMax: Number(m[4]),
      })),
    );
}

/**
 * The box (in points from the page's top left) of the pixels of one page, rendered by poppler at
 * 72 dpi, that `matches` picks by colour; undefined where none does.
 */
export async function colourBox(
  bytes: Uint8Array,
  page: number,
  matches: (r: number, g: number, b: number) => boolean,
): Promise<{ left: number; top: number; right: number; bottom: number } | undefined> {
  const dir = tempDir();
  const file = path.join(dir, 'page.pdf');
  writeFileSync(file, bytes);
  const out = path.join(dir, 'page');
  const p = String(page);
  await run('pdftoppm', ['-r', '72', '-f', p, '-l', p, '-singlefile', file, out]);
  const ppm = readFileSync(`${out}.ppm`);
  // P6: "P6 <width> <height> 255" and one whitespace byte, then RGB triples.
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.toString('latin1', 0, 64));
  if (!header) throw new Error('pdftoppm wrote no P6 image');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  let box: { left: number; top: number; right: number; bottom: number } | undefined;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = start + (y * width + x) * 3;
      if (!matches(ppm[at] ?? 0, ppm[at + 1] ?? 0, ppm[at + 2] ?? 0)) continue;
      box = box
        ? {
            left: Math.min(box.left, x),
            top: Math.min(box.top, y),
            right: Math.max(box.right, x + 1),
            bottom: Math.max(box.bottom, y + 1),
          }
        : { left: x, top: y, right: x + 1, bottom: y + 1 };
    }
  }
  return box;
}
