/**
 * The HTML report: one self-contained file (inline CSS, the map and the trend chart as inline SVG) that makes
 * no request of any kind when opened: no script, font, image or style sheet from anywhere. Council links are
 * plain anchors a reader may follow. A Content-Security-Policy meta tag makes the promise checkable.
 */
import { escapeHtml } from '../../escape-html.js';
import type { Block, Cell } from './report-content.js';
import type { DrawItem, MapDrawing } from './report-map.js';

const esc = escapeHtml;
const num = (n: number) => Number(n.toFixed(2));

/** One drawing item as SVG. */
function svgItem(it: DrawItem): string {
  switch (it.type) {
    case 'path':
      return `<path d="${it.d}" fill="${it.fill ?? 'none'}"${it.fillOpacity !== undefined ? ` fill-opacity="${it.fillOpacity}"` : ''}${it.evenOdd ? ' fill-rule="evenodd"' : ''} stroke="${it.stroke ?? 'none'}"${it.width ? ` stroke-width="${it.width}"` : ''}${it.dash ? ` stroke-dasharray="${it.dash.join(' ')}"` : ''} stroke-linejoin="round" stroke-linecap="round"/>`;
    case 'circle':
      return `<circle cx="${num(it.cx)}" cy="${num(it.cy)}" r="${it.r}" fill="${it.fill}" stroke="${it.stroke ?? 'none'}"${it.width ? ` stroke-width="${it.width}"` : ''}/>`;
    case 'rect':
      return `<rect x="${num(it.x)}" y="${num(it.y)}" width="${num(it.w)}" height="${num(it.h)}" fill="${it.fill ?? 'none'}"${it.fillOpacity !== undefined ? ` fill-opacity="${it.fillOpacity}"` : ''} stroke="${it.stroke ?? 'none'}"${it.width ? ` stroke-width="${it.width}"` : ''}/>`;
    case 'text':
      return `<text x="${num(it.x)}" y="${num(it.y)}" font-size="${it.size}"${it.bold ? ' font-weight="bold"' : ''} fill="${it.color ?? '#000'}" text-anchor="${it.anchor ?? 'start'}">${esc(it.text)}</text>`;
  }
}

/** The map drawing as an SVG element. */
export function mapSvg(map: Pick<MapDrawing, 'width' | 'height' | 'items'>): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="0 0 ${map.width} ${map.height}" role="img" aria-label="Map of the catchment with childcare development applications by stage" font-family="Helvetica, Arial, sans-serif">${map.items.map(svgItem).join('')}</svg>`;
}

/** The monthly trend as an SVG bar chart (a label every year, or every month when few). */
export function barsSvg(bars: { label: string; value: number }[], width = 515, height = 130): string {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const left = 26, bottom = 18, top = 8, w = (width - left - 4) / bars.length, hh = height - bottom - top;
  const parts: string[] = [];
  for (const t of [0, max]) parts.push(`<text x="${left - 4}" y="${num(top + hh - (t / max) * hh + 3)}" font-size="7" text-anchor="end" fill="#555">${t}</text>`);
  parts.push(`<line x1="${left}" y1="${top + hh}" x2="${width - 4}" y2="${top + hh}" stroke="#888" stroke-width="0.6"/>`);
  bars.forEach((b, i) => {
    const bh = (b.value / max) * hh;
    const x = left + i * w;
    parts.push(`<rect x="${num(x + w * 0.1)}" y="${num(top + hh - bh)}" width="${num(Math.max(0.6, w * 0.8))}" height="${num(bh)}" fill="#1f4e99"><title>${esc(b.label)}: ${b.value}</title></rect>`);
    const labelled = bars.length <= 24 || b.label.endsWith('-01');
    if (labelled) parts.push(`<text x="${num(x + w / 2)}" y="${height - 6}" font-size="6.5" text-anchor="middle" fill="#555">${esc(bars.length <= 24 ? b.label.slice(2) : b.label.slice(0, 4))}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="Childcare DAs lodged per month" font-family="Helvetica, Arial, sans-serif">${parts.join('')}</svg>`;
}

// Links are checked where the blocks are made (http and https only); checked again here, as this renders any blocks.
const cell = (c: Cell) => (typeof c === 'string' ? esc(c) : /^https?:\/\//i.test(c.href) ? `<a href="${esc(c.href)}" rel="noopener noreferrer">${esc(c.text)}</a>` : esc(c.text));

/** The HTML report of `blocks`, with `map` drawn where the map block stands. */
export function reportHtml(blocks: readonly Block[], map: Pick<MapDrawing, 'width' | 'height' | 'items'>): string {
  const body = blocks.map((b) => {
    switch (b.kind) {
      case 'title':
        return `<header><h1>${esc(b.title)}</h1><p class="subject">${esc(b.subtitle)}</p>${b.lines.map((l) => `<p class="meta">${esc(l)}</p>`).join('')}</header>`;
      case 'headline':
        return `<section class="headline">${b.items.map((i) => `<div><span class="n">${i.value}</span><span class="l">${esc(i.label)}</span></div>`).join('')}</section>`;
      case 'map':
        return `<figure>${mapSvg(map)}</figure>`;
      case 'heading':
        return `<h2>${esc(b.text)}</h2>`;
      case 'para':
        return `<p${b.muted ? ' class="muted"' : ''}>${esc(b.text)}</p>`;
      case 'table':
        return `<table>${b.widths ? `<colgroup>${b.widths.map((w) => `<col style="width:${num(w * 100)}%">`).join('')}</colgroup>` : ''}<thead><tr>${b.columns.map((c, i) => `<th${b.numeric?.[i] ? ' class="num"' : ''}>${esc(c)}</th>`).join('')}</tr></thead><tbody>${b.rows.map((r) => `<tr>${r.map((c, i) => `<td${b.numeric?.[i] ? ' class="num"' : ''}>${cell(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
      case 'bars':
        return barsSvg(b.bars);
      case 'list':
        return `<ul>${b.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
    }
  });
  const title = blocks[0]?.kind === 'title' ? `${blocks[0].title}: ${blocks[0].subtitle}` : 'Childcare report';
  return `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>
body{font:14px/1.45 Helvetica,Arial,sans-serif;color:#1b1b1b;max-width:860px;margin:24px auto;padding:0 16px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid #ddd;padding-bottom:3px}
.subject{font-size:16px;margin:0 0 6px}.meta,.muted{color:#555;font-size:12.5px;margin:2px 0}
.headline{display:flex;gap:10px;margin:16px 0}.headline div{flex:1;border:1px solid #d6d6d6;border-radius:6px;padding:8px 10px}
.headline .n{display:block;font-size:24px;font-weight:bold}.headline .l{font-size:12px;color:#444}
figure{margin:12px 0}svg{width:100%;height:auto;display:block}
table{border-collapse:collapse;width:100%;margin:8px 0 12px;font-size:12.5px}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid #e3e3e3;vertical-align:top}
th{background:#f3f3f3}.num{text-align:right}ul{font-size:12.5px;padding-left:18px}a{color:#1f4e99}
@media print{body{margin:0}h2{break-after:avoid}table,figure{break-inside:avoid}}
</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}
