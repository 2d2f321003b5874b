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

/** The PDF report of `blocks`, with `map` drawn where the map block stands. */
export function reportPdf(blocks: readonly Block[], map: Pick<MapDrawing, 'width' | 'height' | 'items'>, info: { title: string; subject: string }): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, bufferPages: true, info: { Title: pdfSafe(info.title), Subject: pdfSafe(info.subject), Creator: 'propintel', Producer: 'propintel (pdfkit)' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  let y = PAGE.margin;
  const room = (h: number) => {
    if (y + h > BOTTOM) {
      doc.addPage();
      y = PAGE.margin;
    }
  };
  // Text is measured first and the page broken here when it would not fit (pdfkit would otherwise break it
  // itself, and `y` would no longer say where the text ended).
  const text = (t: string, opts: { size: number; bold?: boolean; color?: string; x?: number; width?: number; link?: string; align?: 'left' | 'right' }) => {
    doc.font(opts.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(opts.size).fillColor(opts.color ?? '#1b1b1b');
    const width = opts.width ?? CONTENT;
    const s = pdfSafe(t);
    const h = doc.heightOfString(s, { width });
    room(h);
    doc.text(s, opts.x ?? PAGE.margin, y, { width, align: opts.align ?? 'left', ...(opts.link ? { link: opts.link, underline: true } : {}) });
    return h;
  };
  const cellText = (c: Cell) => (typeof c === 'string' ? c : c.text);

  for (const b of blocks) {
    switch (b.kind) {
      case 'title':
        y += text(b.title, { size: 20, bold: true }) + 2;
        y += text(b.subtitle, { size: 12 }) + 4;
        for (const l of b.lines) y += text(l, { size: 8.5, color: '#555555' }) + 1;
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
        const scale = CONTENT / map.width;
        room(map.height * scale + 10);
        doc.save();
        doc.translate(PAGE.margin, y).scale(scale);
        doc.rect(0, 0, map.width, map.height).clip();
        for (const it of map.items) drawItem(doc, it);
        doc.restore();
        y += map.height * scale + 10;
        break;
      }
      case 'heading':
        room(40);
        y += 6;
        y += text(b.text, { size: 12, bold: true }) + 2;
        doc.save().lineWidth(0.5).strokeColor('#cccccc').moveTo(PAGE.margin, y).lineTo(PAGE.margin + CONTENT, y).stroke().restore();
        y += 5;
        break;
      case 'para':
        room(14);
        y += text(b.text, { size: 8.5, color: b.muted ? '#555555' : '#1b1b1b' }) + 5;
        break;
      case 'list':
        for (const item of b.items) {
          doc.font('Helvetica').fontSize(8.5);
          room(doc.heightOfString(pdfSafe(item), { width: CONTENT - 10 }));
          doc.fillColor('#1b1b1b').text('-', PAGE.margin, y, { lineBreak: false });
          y += text(item, { size: 8.5, x: PAGE.margin + 10, width: CONTENT - 10 }) + 2;
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
        // Column widths by the longest text in each column (header included), numbers narrow.
        const longest = b.columns.map((c, i) => Math.min(60, Math.max(c.length, ...b.rows.map((r) => cellText(r[i] ?? '').length))));
        const total = longest.reduce((s, n) => s + n, 0);
        const widths = longest.map((n) => (n / total) * CONTENT);
        const size = 8;
        const rowHeight = (cells: string[], bold: boolean) => {
          doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
          return Math.max(...cells.map((c, i) => doc.heightOfString(pdfSafe(c), { width: widths[i] - 6 }))) + 5;
        };
        const header = () => {
          const h = rowHeight(b.columns, true);
          doc.save().rect(PAGE.margin, y, CONTENT, h).fillColor('#f1f1f1').fill().restore();
          let x = PAGE.margin;
          b.columns.forEach((c, i) => {
            doc.font('Helvetica-Bold').fontSize(size).fillColor('#1b1b1b').text(pdfSafe(c), x + 3, y + 2.5, { width: widths[i] - 6, align: b.numeric?.[i] ? 'right' : 'left' });
            x += widths[i];
          });
          y += h;
        };
        // The header and the first rows together: a table never starts with its header alone at a page foot.
        room(rowHeight(b.columns, true) + b.rows.slice(0, 3).reduce((sum, r) => sum + rowHeight(r.map(cellText), false), 0) + 4);
        header();
        for (const r of b.rows) {
          const h = rowHeight(r.map(cellText), false);
          if (y + h > BOTTOM) {
            doc.addPage();
            y = PAGE.margin;
            header();
          }
          let x = PAGE.margin;
          r.forEach((c, i) => {
            doc.font('Helvetica').fontSize(size).fillColor(typeof c === 'string' ? '#1b1b1b' : '#1f4e99');
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
  }
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
