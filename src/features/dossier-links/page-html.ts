import { createHash } from 'node:crypto';
import { MAP_RADIUS_M, type PageData, type Point } from './page-data.js';
import { TEXT, type Language } from './page-text.js';

// The shared page: one HTML document with its style inline and its map and chart as inline SVG,
// so that it loads nothing from anywhere and needs no JavaScript.

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f6f7f9;color:#1d232b}
main{max-width:760px;margin:0 auto;padding:24px 16px}
h1{font-size:26px;margin:0 0 16px}
h2{font-size:18px;margin:0 0 12px}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:16px;margin:0 0 16px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0}
dt{color:#5a6573}
dd{margin:0}
.value{font-size:32px;font-weight:700;margin:0 0 4px}
.muted{color:#5a6573;font-size:14px}
svg{display:block;width:100%;height:auto}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Nothing but the inline style above: no scripts, images, fonts or frames from anywhere. */
export const PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'none'; base-uri 'none'; ` +
  "form-action 'none'; frame-ancestors 'none'";

const escape = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

function documentOf(lang: Language, title: string, body: string): string {
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="robots" content="noindex">' +
    `<title>${escape(title)}</title><style>${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

export function notFoundPage(lang: Language): string {
  const t = TEXT[lang];
  return documentOf(
    lang,
    t.notFoundTitle,
    `<h1>${escape(t.notFoundTitle)}</h1><p>${escape(t.notFound)}</p>`,
  );
}

/** The page answering a view refused for now (too many views, or no turn for its work). */
export function busyPage(lang: Language): string {
  const t = TEXT[lang];
  return documentOf(lang, t.busyTitle, `<h1>${escape(t.busyTitle)}</h1><p>${escape(t.busy)}</p>`);
}

/** The map: the property in the middle, offers around it, the 1 km circle and a scale bar. */
function mapSvg(center: Point, offers: Point[], label: string): string {
  const size = 360;
  const half = size / 2;
  const scale = (half - 20) / MAP_RADIUS_M; // px per meter
  const cos = Math.cos((center.latitude * Math.PI) / 180);
  const xy = (p: Point) => ({
    x: half + (p.longitude - center.longitude) * cos * 111_320 * scale,
    y: half - (p.latitude - center.latitude) * 111_320 * scale,
  });
  const dots = offers
    .map((p) => {
      const { x, y } = xy(p);
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="4" fill="#2f6fdb" fill-opacity="0.7"/>`;
    })
    .join('');
  const bar = 500 * scale;
  return (
    `<svg viewBox="0 0 ${String(size)} ${String(size)}" role="img" aria-label="${escape(label)}">` +
    `<rect width="${String(size)}" height="${String(size)}" fill="#eef2ea"/>` +
    `<circle cx="${String(half)}" cy="${String(half)}" r="${(MAP_RADIUS_M * scale).toFixed(1)}" fill="none" stroke="#9aa5b1" stroke-dasharray="4 4"/>` +
    dots +
    `<circle cx="${String(half)}" cy="${String(half)}" r="8" fill="#d7263d" stroke="#fff" stroke-width="2"/>` +
    `<line x1="16" y1="${String(size - 16)}" x2="${(16 + bar).toFixed(1)}" y2="${String(size - 16)}" stroke="#1d232b" stroke-width="3"/>` +
    `<text x="16" y="${String(size - 24)}" font-size="12" fill="#1d232b">500 m</text>` +
    '</svg>'
  );
}

/** The trend: the monthly estimates and today's as a line, with its first month, today and its extremes. */
function trendSvg(trend: PageData['trend'], money: (n: number) => string, label: string): string {
  const w = 640;
  const h = 220;
  const pad = { left: 110, right: 16, top: 16, bottom: 32 };
  const values = trend.map((p) => p.value);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || Math.max(1, max * 0.05);
  const x = (i: number) =>
    pad.left + (i * (w - pad.left - pad.right)) / Math.max(trend.length - 1, 1);
  const y = (v: number) => pad.top + ((max - v) * (h - pad.top - pad.bottom)) / span;
  const points = trend.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const first = trend[0]?.date ?? '';
  const last = trend.at(-1)?.date ?? '';
  return (
    `<svg viewBox="0 0 ${String(w)} ${String(h)}" role="img" aria-label="${escape(label)}">` +
    `<line x1="${String(pad.left)}" y1="${String(h - pad.bottom)}" x2="${String(w - pad.right)}" y2="${String(h - pad.bottom)}" stroke="#9aa5b1"/>` +
    `<text x="${String(pad.left - 8)}" y="${String(pad.top + 4)}" font-size="12" text-anchor="end" fill="#5a6573">${escape(money(max))}</text>` +
    `<text x="${String(pad.left - 8)}" y="${String(h - pad.bottom)}" font-size="12" text-anchor="end" fill="#5a6573">${escape(money(min))}</text>` +
    `<polyline points="${points}" fill="none" stroke="#2f6fdb" stroke-width="3"/>` +
    `<text x="${String(pad.left)}" y="${String(h - 10)}" font-size="12" fill="#5a6573">${escape(first.slice(0, 7))}</text>` +
    `<text x="${String(w - pad.right)}" y="${String(h - 10)}" font-size="12" text-anchor="end" fill="#5a6573">${escape(last)}</text>` +
    '</svg>'
  );
}

export function sharedPage(
  data: PageData,
  locale: string,
  lang: Language,
  expiresAt: string,
): string {
  const t = TEXT[lang];
  const tag = locale.replace('_', '-');
  const intlTag = Intl.NumberFormat.supportedLocalesOf(tag).length > 0 ? tag : lang;
  const money = (n: number) =>
    new Intl.NumberFormat(intlTag, {
      // Grouped from four digits on, as reports write numbers (Italian's own rule starts at five).
      useGrouping: 'always',
      style: 'currency',
      currency: data.currency,
      maximumFractionDigits: 0,
    }).format(n);
  const number = (n: number) => new Intl.NumberFormat(intlTag, { useGrouping: 'always' }).format(n);
  const { content } = data.dossier;
  const p = content.property;
  const a = p.location.address;
  const address = a
    ? [
        [a.street, a.houseNumber].filter(Boolean).join(' '),
        [a.postCode, a.city].filter(Boolean).join(' '),
      ]
        .filter((s) => s !== '')
        .join(', ')
    : '';
  const facts: [string, string][] = [
    ...(address ? [[t.address, address] as [string, string]] : []),
    [t.propertyType, t.types[p.propertyType.code] ?? p.propertyType.code],
    [t.livingArea, `${number(p.livingArea)} m²`],
    ...(p.numberOfRooms === undefined
      ? []
      : [[t.rooms, number(p.numberOfRooms)] as [string, string]]),
    ...(p.buildingYear === undefined
      ? []
      : [[t.buildingYear, String(p.buildingYear)] as [string, string]]),
    ...(p.floorNumber === undefined ? [] : [[t.floor, number(p.floorNumber)] as [string, string]]),
  ];
  const title = content.title ?? t.types[p.propertyType.code] ?? t.facts;
  const v = data.valuation;
  const valuation = v
    ? `<p class="value">${escape(money(v.value))}</p>` +
      `<p>${escape(t.range)}: ${escape(money(v.lower))} – ${escape(money(v.upper))}</p>` +
      `<p class="muted">${escape(t.confidence)}: ${escape(t.confidences[v.confidence] ?? v.confidence)}</p>`
    : `<p>${escape(t.noValuation)}</p>`;
  const trend =
    data.trend.length >= 2
      ? trendSvg(data.trend, money, t.trend)
      : `<p class="muted">${escape(t.noTrend)}</p>`;
  const expires = new Intl.DateTimeFormat(intlTag, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(expiresAt),
  );
  const body =
    `<h1>${escape(title)}</h1>` +
    `<section id="facts"><h2>${escape(t.facts)}</h2><dl>` +
    facts.map(([k, val]) => `<dt>${escape(k)}</dt><dd>${escape(val)}</dd>`).join('') +
    '</dl></section>' +
    `<section id="valuation"><h2>${escape(t.valuation[content.dealType])}</h2>${valuation}</section>` +
    `<section id="map"><h2>${escape(t.map)}</h2>${mapSvg(p.location.coordinates, data.offers, t.map)}` +
    `<p class="muted">${escape(t.mapLegend)}</p></section>` +
    `<section id="trend"><h2>${escape(t.trend)}</h2>${trend}</section>` +
    `<p class="muted">${escape(t.expires)} ${escape(expires)}.</p>`;
  return documentOf(lang, title, body);
}
