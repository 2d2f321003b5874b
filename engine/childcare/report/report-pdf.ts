/**
 * The PDF report (pdfkit): the same blocks as the HTML report on A4 pages, with the map drawn from the same
 * vectors (SVG path data through pdfkit's `path`), not a screenshot, so it stays sharp at any zoom and its text
 * (headline, tables, attribution) is real text a reader, `pdftotext` or a screen reader can take out.
 *
 * The standard Helvetica faces carry the WinAnsi characters only; anything else in a text is written as `?`
 * rather than as a wrong glyph.
 */
import PDFDocument from 'pdfkit';
import type { Block, Cell } from './report-content.js';
import type { DrawItem, MapDrawing } from './report-map.js';

const PAGE = { width: 595.28, height: 841.89, margin: 40 };
const CONTENT = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin;
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can show: WinAnsi characters kept, others as `?`. */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text) out += ch.charCodeAt(0) <= 0xff || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
  return out;
}

/** Draws one map item at the current origin. */
function drawItem(doc: PDFKit.PDFDocument, it: DrawItem): void {
  doc.save();
  switch (it.type) {
    case 'path':
    case 'rect':
    case 'circle': {
      if (it.type === 'path') doc.path(it.d);
      else if (it.type === 'rect') doc.rect(it.x, it.y, it.w, it.h);
      else doc.circle(it.cx, it.cy, it.r);
      const fillOpacity = it.type === 'circle' ? undefined : it.fillOpacity;
      if (fillOpacity !== undefined) doc.fillOpacity(fillOpacity);
      if (it.width) doc.lineWidth(it.width);
      if (it.type === 'path' && it.dash) doc.dash(it.dash[0], { space: it.dash[1] ?? it.dash[0] });
      doc.lineJoin('round').lineCap('round');
      const rule = it.type === 'path' && it.evenOdd ? 'even-odd' : 'non-zero';
      if (it.fill && it.stroke) {
        // Fill with its own opacity, then stroke opaque.
        doc.fillColor(it.fill).fill(rule);
        doc.restore();
        doc.save();
        if (it.type === 'path') doc.path(it.d);
        else if (it.type === 'rect') doc.rect(it.x, it.y, it.w, it.h);
        else doc.circle(it.cx, it.cy, it.r);
        if (it.width) doc.lineWidth(it.width);
        doc.lineJoin('round').lineCap('round');
        doc.strokeColor(it.stroke).stroke();
      } else if (it.fill) doc.fillColor(it.fill).fill(rule);
      else if (it.stroke) doc.strokeColor(it.stroke).stroke();
      break;
    }
    case 'text': {
      const text = pdfSafe(it.text);
      doc.font(it.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(it.size).fillColor(it.color ?? '#000000');
      const w = doc.widthOfString(text);
      const x = it.anchor === 'end' ? it.x - w : it.anchor === 'middle' ? it.x - w / 2 : it.x;
      doc.text(text, x, it.y - it.size * 0.8, { lineBreak: false });
      break;
    }
  }
  doc.restore();
}

/** Font sizes of body text: normal, and compact for closing notices squeezed onto the last content page. */
const BODY = { normal: 8.5, compact: 7 };

/** How the closing notices (data boundaries, attribution and licences) are set. */
interface NoticesPlan {
  /** In the smaller body size. */
  compact: boolean;
  /** With the last content section moved to the next page, beside them. */
  moveLastSection: boolean;
}

/** Tried in turn until the notices share their last page with content. */
const PLANS: readonly NoticesPlan[] = [
  { compact: false, moveLastSection: false },
  { compact: true, moveLastSection: false },
  { compact: false, moveLastSection: true },
  { compact: true, moveLastSection: true },
];

/**
 * The PDF report of `blocks`, with `map` drawn where the map block stands. Layout rules: a heading is kept
 * with the start of what follows it (never alone at a page foot); a table's header with its first rows (and
 * repeated on each page it runs onto); the closing notices never take a page of their own: when they spill
 * past the last content section's page, the report is laid out again with them in a smaller size, then with
 * that section moved to their page, then both (only notices longer than a page could still run on alone).
 */
export function reportPdf(blocks: readonly Block[], map: Pick<MapDrawing, 'width' | 'height' | 'items'>, info: { title: string; subject: string }): Promise<Buffer> {
  let laid = layoutPdf(blocks, map, info, PLANS[0]);
  for (const plan of PLANS.slice(1)) {
    if (!laid.noticesAlone) break;
    laid = layoutPdf(blocks, map, info, plan);
  }
  const doc = laid.doc;
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // Page numbers.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: lift the margin for this line, or pdfkit would start a page for it.
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(7).fillColor('#777777').text(`propintel childcare report - page ${i + 1} of ${range.count}`, PAGE.margin, PAGE.height - 28, { width: CONTENT, align: 'right', lineBreak: false });
  }
  doc.end();
  return done;
}

/** The blocks laid out on pages following `plan`; whether the closing notices ended on pages of their own. */
function layoutPdf(blocks: readonly Block[], map: Pick<MapDrawing, 'width' | 'height' | 'items'>, info: { title: string; subject: string }, plan: NoticesPlan): { doc: PDFKit.PDFDocument; noticesAlone: boolean } {
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, bufferPages: true, info: { Title: pdfSafe(info.title), Subject: pdfSafe(info.subject), Creator: 'propintel', Producer: 'propintel (pdfkit)' } });
  let y = PAGE.margin;
  const newPage = () => {
    doc.addPage();
    y = PAGE.margin;
  };
  const room = (h: number) => {
    if (y + h > BOTTOM && y > PAGE.margin) newPage();
  };
  const measureText = (t: string, size: number, bold = false, width = CONTENT) => doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).heightOfString(pdfSafe(t), { width });
  // Text is measured first and the page broken here when it would not fit (pdfkit would otherwise break it
  // itself, and `y` would no longer say where the text ended).
  const text = (t: string, opts: { size: number; bold?: boolean; color?: string; x?: number; width?: number; link?: string; align?: 'left' | 'right' }) => {
    const width = opts.width ?? CONTENT;
    const h = measureText(t, opts.size, opts.bold, width);
    room(h);
    doc.font(opts.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(opts.size).fillColor(opts.color ?? '#1b1b1b');
    doc.text(pdfSafe(t), opts.x ?? PAGE.margin, y, { width, align: opts.align ?? 'left', ...(opts.link ? { link: opts.link, underline: true } : {}) });
    return h;
  };
  const cellText = (c: Cell) => (typeof c === 'string' ? c : c.text);
  const TABLE_TEXT = 8;
  const columnWidths = (b: Extract<Block, { kind: 'table' }>) => {
    if (b.widths) return b.widths.map((w) => w * CONTENT);
    // By the longest text in each column (header included), numbers narrow.
    const longest = b.columns.map((c, i) => Math.min(60, Math.max(c.length, ...b.rows.map((r) => cellText(r[i] ?? '').length))));
    const total = longest.reduce((sum, n) => sum + n, 0);
    return longest.map((n) => (n / total) * CONTENT);
  };
  const rowHeight = (cells: string[], widths: number[], bold: boolean) => Math.max(...cells.map((c, i) => measureText(c, TABLE_TEXT, bold, widths[i] - 6))) + 5;
  const HEADING = 12;
  const headingHeight = (t: string) => 6 + measureText(t, HEADING, true) + 2 + 5;
  const mapScale = CONTENT / map.width;

  /** The height `b` takes, all of it (`first`: only what must stay with a heading above it). */
  const height = (b: Block | undefined, compact = false, first = false): number => {
    if (!b) return 0;
    const size = compact ? BODY.compact : BODY.normal;
    switch (b.kind) {
      case 'title':
        return measureText(b.title, 20, true) + 2 + measureText(b.subtitle, 12) + 4 + b.lines.reduce((sum, l) => sum + measureText(l, BODY.normal) + 1, 0) + 8;
      case 'headline':
        return 52;
      case 'map':
        return map.height * mapScale + 10;
      case 'heading':
        return headingHeight(b.text);
      case 'para':
        return measureText(b.text, size) + 5;
      case 'list': {
        const items = first ? b.items.slice(0, 1) : b.items;
        return items.reduce((sum, item) => sum + measureText(item, size, false, CONTENT - 10) + (compact ? 1 : 2), 0) + 4;
      }
      case 'bars':
        return 126;
      case 'table': {
        const widths = columnWidths(b);
        const rows = first ? b.rows.slice(0, 3) : b.rows;
        return rowHeight(b.columns, widths, true) + rows.reduce((sum, r) => sum + rowHeight(r.map(cellText), widths, false), 0) + 8;
      }
    }
  };

  const draw = (b: Block, compact: boolean): void => {
    const size = compact ? BODY.compact : BODY.normal;
    switch (b.kind) {
      case 'title':
        y += text(b.title, { size: 20, bold: true }) + 2;
        y += text(b.subtitle, { size: 12 }) + 4;
        for (const l of b.lines) y += text(l, { size: BODY.normal, color: '#555555' }) + 1;
        y += 8;
        break;
      case 'headline': {
        room(48);
        const gap = 8, w = (CONTENT - gap * (b.items.length - 1)) / b.items.length;
        b.items.forEach((item, i) => {
          const x = PAGE.margin + i * (w + gap);
          doc.save().lineWidth(0.6).strokeColor('#cccccc').roundedRect(x, y, w, 42, 4).stroke().restore();
          doc.font('Helvetica-Bold').fontSize(18).fillColor('#1b1b1b').text(String(item.value), x + 7, y + 6, { width: w - 14, lineBreak: false });
          doc.font('Helvetica').fontSize(8).fillColor('#444444').text(pdfSafe(item.label), x + 7, y + 28, { width: w - 14, lineBreak: false });
        });
        y += 52;
        break;
      }
      case 'map': {
        room(map.height * mapScale + 10);
        doc.save();
        doc.translate(PAGE.margin, y).scale(mapScale);
        doc.rect(0, 0, map.width, map.height).clip();
        for (const it of map.items) drawItem(doc, it);
        doc.restore();
        y += map.height * mapScale + 10;
        break;
      }
      case 'heading':
        y += 6;
        y += text(b.text, { size: HEADING, bold: true }) + 2;
        doc.save().lineWidth(0.5).strokeColor('#cccccc').moveTo(PAGE.margin, y).lineTo(PAGE.margin + CONTENT, y).stroke().restore();
        y += 5;
        break;
      case 'para':
        room(14);
        y += text(b.text, { size, color: b.muted ? '#555555' : '#1b1b1b' }) + 5;
        break;
      case 'list':
        for (const item of b.items) {
          room(measureText(item, size, false, CONTENT - 10));
          doc.font('Helvetica').fontSize(size).fillColor('#1b1b1b').text('-', PAGE.margin, y, { lineBreak: false });
          y += text(item, { size, x: PAGE.margin + 10, width: CONTENT - 10 }) + (compact ? 1 : 2);
        }
        y += 4;
        break;
      case 'bars': {
        const h = 120;
        room(h + 8);
        const max = Math.max(1, ...b.bars.map((x) => x.value));
        const left = PAGE.margin + 22, w = (CONTENT - 26) / b.bars.length, hh = h - 22;
        doc.font('Helvetica').fontSize(7).fillColor('#555555');
        doc.text(String(max), PAGE.margin, y - 2, { width: 18, align: 'right', lineBreak: false });
        doc.text('0', PAGE.margin, y + hh - 6, { width: 18, align: 'right', lineBreak: false });
        b.bars.forEach((bar, i) => {
          const bh = (bar.value / max) * hh;
          if (bh > 0) doc.save().rect(left + i * w + w * 0.1, y + hh - bh, Math.max(0.6, w * 0.8), bh).fillColor('#1f4e99').fill().restore();
          const labelled = b.bars.length <= 24 || bar.label.endsWith('-01');
          if (labelled) doc.font('Helvetica').fontSize(6.5).fillColor('#555555').text(b.bars.length <= 24 ? bar.label.slice(2) : bar.label.slice(0, 4), left + i * w - 8, y + hh + 4, { width: w + 16, align: 'center', lineBreak: false });
        });
        doc.save().lineWidth(0.6).strokeColor('#888888').moveTo(left, y + hh).lineTo(PAGE.margin + CONTENT, y + hh).stroke().restore();
        y += h + 6;
        break;
      }
      case 'table': {
        const widths = columnWidths(b);
        const header = () => {
          const h = rowHeight(b.columns, widths, true);
          doc.save().rect(PAGE.margin, y, CONTENT, h).fillColor('#f1f1f1').fill().restore();
          let x = PAGE.margin;
          b.columns.forEach((c, i) => {
            doc.font('Helvetica-Bold').fontSize(TABLE_TEXT).fillColor('#1b1b1b').text(pdfSafe(c), x + 3, y + 2.5, { width: widths[i] - 6, align: b.numeric?.[i] ? 'right' : 'left' });
            x += widths[i];
          });
          y += h;
        };
        // The header and the first rows together: a table never starts with its header alone at a page foot.
        room(height(b, false, true) - 4);
        header();
        for (const r of b.rows) {
          const h = rowHeight(r.map(cellText), widths, false);
          if (y + h > BOTTOM) {
            newPage();
            header();
          }
          let x = PAGE.margin;
          r.forEach((c, i) => {
            doc.font('Helvetica').fontSize(TABLE_TEXT).fillColor(typeof c === 'string' ? '#1b1b1b' : '#1f4e99');
            const link = typeof c !== 'string' && /^https?:\/\//i.test(c.href) ? c.href : null;
            doc.text(pdfSafe(cellText(c)), x + 3, y + 2.5, { width: widths[i] - 6, align: b.numeric?.[i] ? 'right' : 'left', ...(link ? { link, underline: true } : {}) });
            x += widths[i];
          });
          y += h;
          doc.save().lineWidth(0.4).strokeColor('#e0e0e0').moveTo(PAGE.margin, y).lineTo(PAGE.margin + CONTENT, y).stroke().restore();
        }
        y += 8;
        break;
      }
    }
  };

  // The closing notices: from the first heading marked `notices` to the end; the section before them is the
  // last content section.
  const noticesAt = blocks.findIndex((b) => b.kind === 'heading' && b.notices);
  const lastSection = noticesAt > 0 ? blocks.slice(0, noticesAt).map((b) => b.kind).lastIndexOf('heading') : -1;
  const pageNow = () => doc.bufferedPageRange().count - 1;
  let contentPage = 0;
  blocks.forEach((b, i) => {
    const notice = noticesAt >= 0 && i >= noticesAt;
    const compact = plan.compact && notice;
    if (i === lastSection && plan.moveLastSection) room(BOTTOM);
    // A heading stays with the start of what follows it.
    if (b.kind === 'heading') room(height(b) + height(blocks[i + 1], compact, true));
    draw(b, compact);
    if (!notice) contentPage = pageNow();
  });
  return { doc, noticesAlone: noticesAt >= 0 && pageNow() > contentPage };
}
