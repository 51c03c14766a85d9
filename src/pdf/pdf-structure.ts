import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRef,
  PDFStream,
  type PDFObject,
} from 'pdf-lib';
import { limits } from '../limits.js';
import { fileErrorReason } from './file-error.js';
import { pageProblem } from './pdf-page-entries.js';

// A PDF's structure checked before anything follows it as pdf-lib does. pdf-lib walks the page
// tree and a page's parents by recursion without remembering where it has been: a 1.8 KB file
// whose tree lists one child ten times on each of eight levels names 10^8 pages (counting them
// filled the inspection worker's heap, and once the process's), and a page whose tree's root
// names the page as its parent sends every report's page copy round for ever.

const KIDS = PDFName.of('Kids');
const PARENT = PDFName.of('Parent');
const PAGES = PDFName.of('Pages');
const TYPE = PDFName.of('Type');

/**
 * The page count of a document's page tree, walked once: a node met twice (a loop, or one child
 * listed again), a tree deeper than `limits.covers.pdfTreeDepth`, more than `maxPages` pages, a page
 * whose parents do not lead back to the root without a loop, or a page whose own entries a report
 * cannot use (`pdf-page-entries.ts`, named by its number) is refused with the reason, which
 * completes "cover …".
 */
export function checkedPageCount(document: PDFDocument, maxPages: number): number | string {
  const root = document.catalog.get(PAGES);
  if (!(root instanceof PDFRef)) return 'has no page tree';
  const seen = new Set<string>();
  const stack: { ref: PDFRef; depth: number }[] = [{ ref: root, depth: 0 }];
  let pages = 0;
  while (stack.length > 0) {
    const { ref, depth } = stack.pop() as { ref: PDFRef; depth: number };
    if (seen.has(ref.tag)) return 'has a page tree that lists a page or node more than once';
    seen.add(ref.tag);
    if (depth > limits.covers.pdfTreeDepth) {
      return `has a page tree deeper than ${String(limits.covers.pdfTreeDepth)} levels`;
    }
    const node = document.context.lookup(ref);
    if (!(node instanceof PDFDict)) return 'has a page tree with a node that is not a dictionary';
    const kids = node.get(KIDS);
    const isPage = node.get(TYPE) === PDFName.of('Page') || kids === undefined;
    if (isPage) {
      pages += 1;
      if (pages > maxPages)
        return `has more than ${String(maxPages)} pages; at most ${String(maxPages)} are allowed`;
      const chain = parentChain(document, node);
      if (typeof chain === 'string') return chain;
      const problem = pageProblem(document.context, chain);
      if (problem) return `page ${String(pages)} ${problem}`;
      continue;
    }
    const list = document.context.lookup(kids);
    if (!(list instanceof PDFArray)) return 'has a page tree node whose /Kids is not an array';
    for (const kid of list.asArray().reverse()) {
      if (!(kid instanceof PDFRef))
        return 'has a page tree node with a kid that is not a reference';
      stack.push({ ref: kid, depth: depth + 1 });
    }
  }
  return pages;
}

/**
 * The page and its parents up to the root, as a report's copy goes up /Parent for what the page
 * inherits; or why they do not lead to a root (a loop, or too many levels).
 */
function parentChain(document: PDFDocument, page: PDFDict): PDFDict[] | string {
  const chain = [page];
  const seen = new Set<PDFObject>(chain);
  let node: PDFObject | undefined = page.get(PARENT);
  for (let level = 0; node !== undefined; level++) {
    const parent: PDFObject | undefined = document.context.lookup(node);
    if (!(parent instanceof PDFDict)) return chain;
    if (seen.has(parent) || level > limits.covers.pdfTreeDepth) {
      return 'has a page whose parents lead round in a loop';
    }
    seen.add(parent);
    chain.push(parent);
    node = parent.get(PARENT);
  }
  return chain;
}

/**
 * Values of a document that count as one more object in its copy weight (`trialMerge`): copying
 * an object cost about 75 µs and a value 0.08 µs (measured on 2026-11-25: a file of 9,854 objects
 * and 99,000 values took 0.74–0.87 s in a report, one of 53 objects whose 50 pages inherit a
 * resource dictionary of 95,000 values, 4.75 million values once copied, 0.37 s).
 */
export const VALUES_PER_OBJECT = 1000;

/**
 * Copies every page into a new document and writes it, as a report does with a cover or a PDF
 * attachment (`render/merge.ts`), so that a file a report could not put in is refused at upload
 * rather than failing every report of its dossier. Objects nested or chained deeper than the
 * copier's recursion reaches end it with a RangeError; the inspection worker runs with half the
 * render worker's stack, so what passes here has room to spare there.
 *
 * Answers the copy's weight — its objects, plus one for every `VALUES_PER_OBJECT` values in
 * them — which is what a report's copy of the file costs (pages that inherit a dictionary copy it
 * once each), or the reason the file cannot be put in.
 */
export async function trialMerge(document: PDFDocument): Promise<number | string> {
  try {
    const trial = await PDFDocument.create({ updateMetadata: false });
    const pages = await trial.copyPages(document, document.getPageIndices());
    for (const page of pages) trial.addPage(page);
    await trial.save({ objectsPerTick: Infinity });
    const objects = trial.context.enumerateIndirectObjects().length;
    return objects + Math.ceil(countValues(trial, Infinity) / VALUES_PER_OBJECT);
  } catch (error) {
    if (error instanceof RangeError) return 'nests its objects too deeply to be put into a report';
    return `cannot be put into a report (${fileErrorReason(error)})`;
  }
}

/**
 * Whether the document's arrays and dictionaries hold more than `max` values together (each
 * element and each entry, nested ones too; references are not followed, since each object is
 * counted once as it stands).
 */
export function holdsMoreValues(document: PDFDocument, max: number): boolean {
  return countValues(document, max) > max;
}

/**
 * The values of the document's arrays and dictionaries (`holdsMoreValues`), counted up to the
 * first one over `max`. Walked with a stack of its own: nesting cannot exhaust the call stack.
 */
function countValues(document: PDFDocument, max: number): number {
  let values = 0;
  const pending: PDFObject[] = document.context.enumerateIndirectObjects().map(([, o]) => o);
  for (let object = pending.pop(); object !== undefined; object = pending.pop()) {
    if (object instanceof PDFStream) object = object.dict;
    if (object instanceof PDFArray) {
      values += object.size();
      if (values > max) return values;
      for (const value of object.asArray()) pending.push(value);
    } else if (object instanceof PDFDict) {
      const entries = object.entries();
      values += entries.length;
      if (values > max) return values;
      for (const [, value] of entries) pending.push(value);
    }
  }
  return values;
}
