import { CONTENT_WIDTH, oneLine, room, STYLE, type Doc } from './page.js';

// Vector charts drawn with the document's own paths: no raster, no tiles, text stays text.

export interface MapPoint {
  latitude: number;
  longitude: number;
}

export interface MapLabels {
  subject: string;
  offers: string;
  projects: string;
  /** The offers' legend entry with its count, where it is not the number of points drawn. */
  offersWithCount?: string;
}

const EARTH_M_PER_DEGREE = 111_195;

/** The smallest of 1, 2 or 5 times a power of ten that is at least `value`. */
function niceStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/**
 * The smallest multiple of `step` that is at least `value` and either 1, 2 or 5 times a power
 * of ten (`step` is one itself: its tenfold always is) or twice `step`: labels every 4,000 on
 * bins of 2,000, where the next round multiple, 10,000, left one label under eight bins.
 */
export function roundMultiple(step: number, value: number): number {
  let round = niceStep(Math.max(value, step));
  for (; ; round = niceStep(round * 1.5)) {
    const ratio = round / step;
    if (Math.abs(ratio - Math.round(ratio)) < 1e-9) break;
  }
  const twice = 2 * step;
  return twice >= value && twice < round ? twice : round;
}

/** A round length near `meters`: 1, 2 or 5 times a power of ten. */
function roundLength(meters: number): number {
  const power = 10 ** Math.floor(Math.log10(meters));
  for (const step of [5, 2, 1]) if (step * power <= meters) return step * power;
  return power;
}

/** One kind of point on a map: its points, how they are drawn and their legend text. */
export interface MapLayer {
  points: MapPoint[];
  shape: 'circle' | 'square';
  color: string;
  label: string;
  /** The legend entry, count included (default: the label and the points drawn). */
  legend?: string;
}

/**
 * A location map: the subject, the comparable offers and the building projects as dots on a
 * plain plane, with a scale bar and a legend. `offers` null: a map of projects only, whose
 * legend has no offers entry (an "Offers (0)" there would contradict the overview's map).
 * Projects have an entry only where there are some: many countries' data has none, and their
 * reports no projects section; a dossier that cannot be valued has none to show either.
 */
export function locationMap(
  doc: Doc,
  subject: MapPoint,
  offers: MapPoint[] | null,
  projects: MapPoint[],
  labels: MapLabels,
  format: (meters: number) => string,
): void {
  const layers: MapLayer[] =
    projects.length === 0
      ? []
      : [{ points: projects, shape: 'square', color: STYLE.orange, label: labels.projects }];
  if (offers)
    layers.push({
      points: offers,
      shape: 'circle',
      color: STYLE.teal,
      label: labels.offers,
      ...(labels.offersWithCount ? { legend: labels.offersWithCount } : {}),
    });
  pointsMap(doc, subject, labels.subject, layers, { format });
}

/** A map's default height, and the room its legend takes below it. */
export const MAP_HEIGHT = 250;
export const MAP_BELOW = 30;

/**
 * Points around a subject on a plain plane (equirectangular around the subject, exact enough
 * within kilometres), with rings every round distance, a scale bar and a legend (layers in
 * legend order: the first drawn first). The plane shows every point and at least `minReach`
 * meters around the subject, subject centred.
 */
export function pointsMap(
  doc: Doc,
  subject: MapPoint,
  subjectLabel: string,
  layers: MapLayer[],
  options: { format: (meters: number) => string; height?: number; minReach?: number },
): void {
  const height = options.height ?? MAP_HEIGHT;
  const legend = [
    subjectLabel,
    ...[...layers].reverse().map((l) => l.legend ?? `${l.label} (${String(l.points.length)})`),
  ];
  room(doc, height + MAP_BELOW + (legendLines(doc, legend) - 1) * LEGEND_LINE);
  const top = doc.y;
  const left = STYLE.margin;
  const cos = Math.cos((subject.latitude * Math.PI) / 180);
  const toXY = (p: MapPoint) => ({
    x: (p.longitude - subject.longitude) * cos * EARTH_M_PER_DEGREE,
    y: (p.latitude - subject.latitude) * EARTH_M_PER_DEGREE,
  });
  const all = layers.flatMap((l) => l.points).map(toXY);
  const reach =
    Math.max(options.minReach ?? 250, ...all.map((p) => Math.max(Math.abs(p.x), Math.abs(p.y)))) *
    1.12;
  const pad = 14;
  const scale = Math.min((CONTENT_WIDTH - 2 * pad) / (2 * reach), (height - 2 * pad) / (2 * reach));
  const cx = left + CONTENT_WIDTH / 2;
  const cy = top + height / 2;
  const at = (p: MapPoint) => {
    const { x, y } = toXY(p);
    return [cx + x * scale, cy - y * scale] as const;
  };
  const mark = (layer: MapLayer, x: number, y: number, size: number) => {
    if (layer.shape === 'square')
      doc.rect(x - size, y - size, 2 * size, 2 * size).fill(layer.color);
    else doc.circle(x, y, size * 0.86).fill(layer.color);
  };

  doc.rect(left, top, CONTENT_WIDTH, height).fill('#f5f7f9');
  doc.save();
  doc.rect(left, top, CONTENT_WIDTH, height).clip();
  // Rings every round distance, for reading distances off the map.
  const ring = roundLength(reach / 2);
  doc.lineWidth(0.5).strokeColor('#d9dee4');
  for (let r = ring; r <= reach * 2.5; r += ring) {
    doc.circle(cx, cy, r * scale).stroke();
  }
  for (const layer of layers) {
    doc.fillOpacity(0.85);
    for (const p of layer.points) {
      const [x, y] = at(p);
      mark(layer, x, y, 3.5);
    }
  }
  doc.fillOpacity(1);
  doc.circle(cx, cy, 7).fill('#ffffff');
  doc.circle(cx, cy, 5).fill(STYLE.navy);
  doc.restore();
  doc.rect(left, top, CONTENT_WIDTH, height).lineWidth(0.6).strokeColor(STYLE.rule).stroke();

  // Scale bar, bottom left.
  const bar = roundLength(reach / 2);
  const barWidth = bar * scale;
  const bx = left + 12;
  const by = top + height - 14;
  doc
    .rect(bx - 4, by - 14, barWidth + 8, 20)
    .fillOpacity(0.85)
    .fill('#ffffff')
    .fillOpacity(1);
  doc
    .moveTo(bx, by)
    .lineTo(bx + barWidth, by)
    .lineWidth(2)
    .strokeColor(STYLE.text)
    .stroke();
  doc
    .moveTo(bx, by - 4)
    .lineTo(bx, by + 2)
    .lineWidth(1)
    .stroke();
  doc
    .moveTo(bx + barWidth, by - 4)
    .lineTo(bx + barWidth, by + 2)
    .stroke();
  doc
    .font('regular')
    .fontSize(7.5)
    .fillColor(STYLE.text)
    .text(options.format(bar), bx, by - 12, {
      width: Math.max(barWidth, 40),
      lineBreak: false,
    });

  // Legend, under the map: the subject, then the layers from the last drawn (on top) down; an
  // entry that would run past the map's right edge starts a new line.
  let ly = top + height + 8;
  let lx: number = left;
  const entry = (draw: (x: number, y: number) => void, text: string) => {
    doc.font('regular').fontSize(8.5).fillColor(STYLE.text);
    const width = legendWidth(doc, text);
    if (lx > left && lx + width > left + CONTENT_WIDTH) {
      lx = left;
      ly += LEGEND_LINE;
    }
    draw(lx + 5, ly + 5);
    doc.fillColor(STYLE.text).text(text, lx + 14, ly + 1, { lineBreak: false });
    lx += width + 10;
  };
  entry((x, y) => doc.circle(x, y, 4.5).fill(STYLE.navy), legend[0] ?? subjectLabel);
  [...layers].reverse().forEach((layer, i) => {
    entry(
      (x, y) => {
        mark(layer, x, y, 3.5);
      },
      legend[i + 1] ?? layer.label,
    );
  });
  doc.x = STYLE.margin;
  doc.y = ly + 22;
}

/** The height of a line of a map's legend. */
const LEGEND_LINE = 14;

/** The width a legend entry takes in its line: its mark, its text and the gap after it. */
function legendWidth(doc: Doc, text: string): number {
  return 14 + doc.font('regular').fontSize(8.5).widthOfString(text);
}

/** The lines a legend of `texts` takes across the map's width. */
function legendLines(doc: Doc, texts: readonly string[]): number {
  let lines = 1;
  let x = 0;
  for (const text of texts) {
    const width = legendWidth(doc, text);
    if (x > 0 && x + width > CONTENT_WIDTH) {
      lines += 1;
      x = 0;
    }
    x += width + 10;
  }
  return lines;
}

/** The most the histogram's marker text may take: a label, a colon and a price per m². */
const MARKER_TEXT_WIDTH = 220;

export interface Bar {
  label: string;
  value: number | undefined;
  note: string;
  /** What an empty slot says in place of its bar (an empty slot alone reads as an error). */
  missing: string;
}

/** Vertical bars with their values written on them; a missing value's slot says why. */
export function barChart(doc: Doc, bars: Bar[], format: (value: number) => string): void {
  const height = 170;
  room(doc, height + 20);
  const top = doc.y;
  const left = STYLE.margin;
  const base = top + height - 34;
  const max = Math.max(1, ...bars.map((b) => b.value ?? 0));
  const slot = CONTENT_WIDTH / bars.length;
  const width = Math.min(110, slot * 0.55);
  doc
    .moveTo(left, base)
    .lineTo(left + CONTENT_WIDTH, base)
    .lineWidth(0.8)
    .strokeColor(STYLE.rule);
  doc.stroke();
  bars.forEach((bar, i) => {
    const x = left + i * slot + (slot - width) / 2;
    if (bar.value !== undefined) {
      const h = (bar.value / max) * (height - 60);
      doc.rect(x, base - h, width, h).fill(i === bars.length - 1 ? STYLE.navy : STYLE.teal);
      doc
        .font('bold')
        .fontSize(9.5)
        .fillColor(STYLE.text)
        .text(format(bar.value), x - 30, base - h - 14, {
          width: width + 60,
          align: 'center',
          lineBreak: false,
        });
    } else {
      doc
        .font('regular')
        .fontSize(8.5)
        .fillColor(STYLE.grey)
        .text(oneLine(doc, bar.missing, slot - 8), left + i * slot + 4, base - 16, {
          width: slot - 8,
          align: 'center',
          lineBreak: false,
        });
    }
    doc
      .font('bold')
      .fontSize(8.5)
      .fillColor(STYLE.text)
      .text(bar.label, left + i * slot, base + 6, {
        width: slot,
        align: 'center',
        lineBreak: false,
      });
    doc
      .font('regular')
      .fontSize(7.5)
      .fillColor(STYLE.grey)
      .text(bar.note, left + i * slot, base + 18, {
        width: slot,
        align: 'center',
        lineBreak: false,
      });
  });
  doc.x = STYLE.margin;
  doc.y = top + height + 6;
}

/** A histogram of `values` in about ten round bins, with `marker` drawn as a line. */
export function histogram(
  doc: Doc,
  values: number[],
  /** The property's own value, and the text beside its line. */
  marker: { value: number; text: string } | undefined,
  format: (value: number) => string,
): void {
  if (values.length === 0) return;
  const height = 180;
  room(doc, height + 10);
  const top = doc.y;
  const left = STYLE.margin + 28;
  const width = CONTENT_WIDTH - 28;
  const all = marker ? [...values, marker.value] : values;
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  // Bins of at least 2% of the highest price: one offer (or a few alike) is not drawn in bins
  // of 10 € at 3,100 € per m², a precision the data does not have.
  const step = niceStep(Math.max((hi - lo) / 10, Math.abs(hi) / 50, 1));
  const start = Math.floor(lo / step) * step;
  const bins = Math.max(1, Math.ceil((hi - start) / step + 1e-9));
  const counts = Array.from({ length: bins }, () => 0);
  for (const v of values) {
    const bin = Math.min(bins - 1, Math.floor((v - start) / step));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  // The count axis in round steps (1, 2 or 5 times a power of ten), up to the step at or
  // above the tallest bar: "0 10 20 30", not "0 17 33".
  const countStep = niceStep(Math.max(1, Math.max(...counts) / 3));
  const maxCount = Math.ceil(Math.max(...counts) / countStep) * countStep;
  const base = top + height - 30;
  const plot = height - 50;
  const binWidth = width / bins;
  doc.font('regular').fontSize(7).fillColor(STYLE.grey);
  for (let tick = 0; tick <= maxCount; tick += countStep) {
    const y = base - (tick / maxCount) * plot;
    doc.text(String(tick), STYLE.margin, y - 3, { width: 22, align: 'right', lineBreak: false });
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.4)
      .strokeColor('#e3e7ec')
      .stroke();
  }
  counts.forEach((count, i) => {
    const h = (count / maxCount) * plot;
    if (h > 0) doc.rect(left + i * binWidth + 1, base - h, binWidth - 2, h).fill(STYLE.teal);
  });
  // Price labels at most about six, at round prices: every bin edge that is a multiple of a
  // round step that is itself a multiple of the bins' (3,000 4,000 5,000, not 3,800 4,800).
  const labelStep = roundMultiple(step, (bins * step) / 6);
  for (let i = 0; i <= bins; i += 1) {
    const price = start + i * step;
    if (Math.abs(price / labelStep - Math.round(price / labelStep)) > 1e-6) continue;
    // Centred under its edge, except the last, which ends at the plot's (the page's margin).
    const atEnd = left + i * binWidth + 30 > left + width;
    doc
      .font('regular')
      .fontSize(7)
      .fillColor(STYLE.grey)
      .text(format(price), atEnd ? left + width - 60 : left + i * binWidth - 30, base + 5, {
        width: 60,
        align: atEnd ? 'right' : 'center',
        lineBreak: false,
      });
  }
  if (marker) {
    const x = left + ((marker.value - start) / (bins * step)) * width;
    doc
      .moveTo(x, top + 8)
      .lineTo(x, base)
      .lineWidth(1.6)
      .strokeColor(STYLE.orange)
      .stroke();
    doc.font('bold').fontSize(8).fillColor(STYLE.orange);
    // Beside the line, or left of the chart's right edge where the line is near it; one line.
    const text = oneLine(doc, marker.text, MARKER_TEXT_WIDTH);
    const textWidth = doc.widthOfString(text);
    doc.text(text, Math.min(x + 4, left + width - textWidth), top, {
      width: textWidth + 1,
      lineBreak: false,
    });
  }
  doc.x = STYLE.margin;
  doc.y = top + height + 4;
}
