import { deflateSync } from 'node:zlib';
import {
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  StandardFonts,
  type PDFPageLeaf,
} from 'pdf-lib';

/** A small, valid PDF with `pages` pages, each naming its number and `label`. */
export async function makePdf(pages = 1, label = 'Cover'): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    document.addPage([595, 842]).drawText(`${label}, page ${i}`, { x: 50, y: 780, size: 24, font });
  }
  return Buffer.from(await document.save());
}

/** Deterministic bytes that do not compress. */
function noise(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

async function pdfWithFiller(filler: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.addPage();
  // An unreferenced, uncompressed stream: it adds exactly its own length to the file.
  document.context.register(document.context.stream(noise(filler)));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** A valid one-page PDF of exactly `size` bytes (at least about 1 KB). */
export async function pdfOfSize(size: number): Promise<Buffer> {
  let filler = Math.max(0, size - 1000);
  for (let attempt = 0; attempt < 5; attempt++) {
    const pdf = await pdfWithFiller(filler);
    if (pdf.length === size) return pdf;
    filler += size - pdf.length;
  }
  throw new Error(`could not make a PDF of ${size} bytes`);
}

/** A one-page PDF with an object stream (holding one `null`) that inflates to `expandedBytes`. */
export async function objectStreamPdf(
  expandedBytes: number,
  filter = 'FlateDecode',
): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.addPage();
  const content = Buffer.alloc(expandedBytes, 0x20);
  content.write('900 0 null', 'latin1');
  const contents = deflateSync(content, { level: 9 });
  const dict = document.context.obj({ Type: 'ObjStm', N: 1, First: 6, Filter: filter });
  dict.set(PDFName.of('Length'), PDFNumber.of(contents.length));
  document.context.register(PDFRawStream.of(dict, contents));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** A one-page PDF followed by `count` tiny top-level objects: cheap to send, costly to parse. */
export async function manyObjectsPdf(
  count: number,
  /** How each object ends: `endobj`, or nothing (the parser does not need it). */
  end = 'endobj\n',
  /** Between the object's number, generation and `obj`. */
  gap = ' ',
): Promise<Buffer> {
  const base = Buffer.from(await pdfWithFiller(0)).toString('latin1');
  const at = base.lastIndexOf('\nxref') + 1;
  const objects: string[] = [];
  for (let i = 0; i < count; i++) {
    objects.push(`${String(1000 + i)}${gap}0${gap}obj\n[0]\n${end}`);
  }
  return Buffer.from(base.slice(0, at) + objects.join('') + base.slice(at), 'latin1');
}

/**
 * A PDF of `pages` pages whose first page refers to `count` small objects (a report's copy of the
 * page copies them all) and whose page tree's root holds a resource dictionary of `inherited`
 * entries that every page inherits (a copy of each page copies it).
 */
export async function copiedObjectsPdf(count: number, pages = 1, inherited = 0): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let i = 0; i < pages; i++) document.addPage();
  const refs = Array.from({ length: count }, (_, i) =>
    document.context.register(document.context.obj([i])),
  );
  document.getPage(0).node.set(PDFName.of('Extra'), document.context.obj(refs));
  if (inherited > 0) {
    const fonts = Object.fromEntries(
      Array.from({ length: inherited }, (_, i) => [`F${String(i)}`, i]),
    );
    document.catalog.Pages().set(PDFName.of('Resources'), document.context.obj({ Font: fonts }));
    for (let i = 0; i < pages; i++) document.getPage(i).node.delete(PDFName.of('Resources'));
  }
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** A one-page PDF followed by `arrays` arrays of `count` zeros each: few objects, costly to
 * parse (each element is an object of the parser's). */
export async function bigArrayPdf(count: number, arrays = 1): Promise<Buffer> {
  const base = Buffer.from(await pdfWithFiller(0)).toString('latin1');
  const at = base.lastIndexOf('\nxref') + 1;
  const array = `[${'0 '.repeat(count)}]`;
  const objects = Array.from(
    { length: arrays },
    (_, i) => `${String(900 + i)} 0 obj\n${array}\nendobj\n`,
  );
  return Buffer.from(base.slice(0, at) + objects.join('') + base.slice(at), 'latin1');
}

/**
 * A one-page PDF with objects holding hex strings of `hexChars` characters each, `strings` in
 * all, in one array each, beside its page (unreferenced objects are parsed all the same).
 */
export async function hexStringsPdf(strings: number, hexChars: number): Promise<Buffer> {
  const base = Buffer.from(await pdfWithFiller(0)).toString('latin1');
  const at = base.lastIndexOf('\nxref') + 1;
  const hex = `<${'4a'.repeat(hexChars / 2)}>`;
  const objects = Array.from(
    { length: strings },
    (_, i) => `${String(900 + i)} 0 obj\n[${hex}]\nendobj\n`,
  );
  return Buffer.from(base.slice(0, at) + objects.join('') + base.slice(at), 'latin1');
}

/** A one-page PDF whose trailer says it is encrypted. */
export async function encryptedPdf(): Promise<Buffer> {
  const text = (await pdfWithFiller(0)).toString('latin1');
  if (!text.includes('trailer\n<<')) throw new Error('unexpected trailer layout');
  return Buffer.from(
    text.replace('trailer\n<<', 'trailer\n<<\n/Encrypt << /Filter /Standard >>'),
    'latin1',
  );
}

/** Three-page PDFs damaged in different places, each still with its header and %%EOF. */
export async function damagedPdfs(): Promise<Record<string, Buffer>> {
  const plain = (await makePdfUncompressed(3)).toString('latin1');
  const compressed = await makePdf(3);
  const objectStream = Buffer.from(compressed);
  const start = objectStream.indexOf('stream\n', objectStream.indexOf('/ObjStm')) + 20;
  objectStream.fill('#', start, start + 40);
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  return {
    'garbled page tree': latin1(plain.replace('/Type /Pages', '/Type ) /Pages')),
    'catalog without its object header': latin1(plain.replace(/\n2 0 obj/, '\n2 0 ob#')),
    'corrupt object stream': objectStream,
  };
}

async function makePdfUncompressed(pages: number): Promise<Buffer> {
  const document = await PDFDocument.load(await makePdf(pages));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/**
 * PDFs the upload must refuse, each for a reason of its own: damaged, encrypted, too many or no
 * pages, junk where readers look for the header or the end marker, no document catalog, and
 * object streams that expand beyond the limit.
 */
export async function refusedPdfs(expansionLimit: number): Promise<Record<string, Buffer>> {
  const plain = (await makePdfUncompressed(1)).toString('latin1');
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const empty = await PDFDocument.create();
  const junk = Buffer.from(noise(2048));
  // Readers find a catalog the trailer does not name by its type, so both are taken away.
  const withoutRoot = plain
    .replace(/\/Root \d+ 0 R/, '')
    .replace('/Type /Catalog', '/Type /Nothing');
  if (!withoutRoot.includes('/Nothing') || /\/Root /.test(withoutRoot)) {
    throw new Error('unexpected trailer layout');
  }
  return {
    ...(await damagedPdfs()),
    encrypted: await encryptedPdf(),
    'eleven pages': await makePdf(11),
    'no pages': Buffer.from(await empty.save({ addDefaultPage: false })),
    'junk before the header': Buffer.concat([junk, latin1(plain)]),
    'junk after the end marker': Buffer.concat([latin1(plain), junk]),
    'no document catalog': latin1(withoutRoot),
    'header and end marker around junk': Buffer.concat([
      latin1('%PDF-1.7\n'),
      junk,
      latin1('\n%%EOF\n'),
    ]),
    'object stream expanding beyond the limit': await objectStreamPdf(expansionLimit + 1),
  };
}

/**
 * A PDF written by hand from its objects' bodies (object i + 1 is `bodies[i]`; object 1 is the
 * catalog), with a correct cross-reference table: for structures no writer makes.
 */
export function rawPdf(bodies: string[]): Buffer {
  let text = '%PDF-1.7\n';
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(Buffer.byteLength(text, 'latin1'));
    text += `${String(i + 1)} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text, 'latin1');
  text += `xref\n0 ${String(bodies.length + 1)}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${String(bodies.length + 1)} /Root 1 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

const PAGE = '/Type /Page /MediaBox [0 0 595 842]';

/** A page tree of `levels` levels under the root, each node listing the same child `fanOut`
 * times: a file of a few hundred bytes that names fanOut^levels pages. */
export function pageTreeBombPdf(levels: number, fanOut: number): Buffer {
  const bodies = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < levels; level++) {
    const child = `${String(level + 3)} 0 R `.repeat(fanOut);
    bodies.push(`<< /Type /Pages /Kids [${child}] /Count ${String(fanOut ** (levels - level))} >>`);
  }
  bodies.push(`<< ${PAGE} /Parent ${String(levels + 1)} 0 R >>`);
  return rawPdf(bodies);
}

/** One page whose tree's root names the page as its parent: its parents lead round a loop. */
export function parentLoopPdf(): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 3 0 R >>',
    `<< ${PAGE} /Parent 2 0 R >>`,
  ]);
}

/** One page holding a chain of `length` references, each to an array holding the next. */
export function referenceChainPdf(length: number): Buffer {
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< ${PAGE} /Parent 2 0 R /Chain 4 0 R >>`,
  ];
  for (let i = 0; i < length; i++)
    bodies.push(`[${i + 1 < length ? `${String(i + 5)} 0 R` : '0'}]`);
  return rawPdf(bodies);
}

/**
 * A valid PDF of `pages` pages (as `makePdf`) whose last page `edit` changes: its dictionary, and
 * the document (for the page tree's root, `document.catalog.Pages()`, or objects to refer to).
 */
export async function editedPagePdf(
  edit: (page: PDFPageLeaf, document: PDFDocument) => void,
  pages = 3,
): Promise<Buffer> {
  const document = await PDFDocument.load(await makePdf(pages));
  edit(document.getPage(pages - 1).node, document);
  return Buffer.from(await document.save());
}
