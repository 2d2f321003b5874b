/// <reference lib="dom" />
// Childcare reports (issue 19) over real HTTP on the sample world: the PDF read back with poppler (its text
// holds the JSON analysis's headline numbers and every attribution; page 1's map area is drawn, not blank),
// the HTML in headless Chromium with the network blocked (the map shows, nothing is requested), a polygon
// report drawing its polygon and hole, the renderer's concurrency limit (429 with Retry-After), a renderer
// failure (503), a catchment with no DAs, and the site analysis's refusals. Skips what needs poppler or
// Chromium where they are absent, naming the package.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATES } from '../../engine/catalogue/states.js';
import type { PropertyService } from '../../engine/property/kit/contract.js';
import { pdfSafe } from '../../engine/childcare/report/report-pdf.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { useBrowser } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { needs } from '../helpers/skip.js';

const dir = tempDir('propintel-report-');
const POPPLER = existsSync('/usr/bin/pdftotext') && existsSync('/usr/bin/pdftoppm');
const NO_POPPLER = 'poppler-utils is not installed (apt-get install poppler-utils): pdftotext and pdftoppm read the PDF';
let t: TestServer;
let key: string;
let site: { lat: number; lng: number; state: string };

beforeAll(async () => {
  t = await startTestServer({ threads: 2, reportConcurrency: 1 });
  key = await t.key({ components: 'none', childcareStates: [...STATES], childcareExpires: '2030-01-01', childcareAddOn: 'childcare_market_intelligence' });
  const nsw = t.stack.engine.das().list({ category: 'childcare', state: 'NSW' }, { limit: 50 }).find((r) => r.lat !== null)!;
  site = { lat: nsw.lat!, lng: nsw.lng!, state: 'NSW' };
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function fetchReport(query: string, init: RequestInit = {}) {
  const res = await fetch(`${t.url}/api/v1/childcare/report?${query}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
const circle = (format: string, radius = 3) => `state=${site.state}&lat=${site.lat}&lng=${site.lng}&radius_km=${radius}&format=${format}`;
const squash = (s: string) => s.replace(/\s+/g, '');

describe('the PDF report', () => {
  it('is a PDF download whose text holds the JSON analysis\'s headline numbers and every attribution', async (ctx) => {
    const r = await fetchReport(circle('pdf'));
    expect(r.status, r.bytes.toString().slice(0, 300)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="childcare-report-nsw-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(r.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    if (!POPPLER) return needs(ctx, NO_POPPLER);
    const file = join(dir, 'circle.pdf');
    writeFileSync(file, r.bytes);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    const json = (await t.get(`/api/v1/childcare/site-analysis?state=${site.state}&lat=${site.lat}&lng=${site.lng}&radius_km=3`, key)).body.data;
    const h = json.headline;
    expect(h.total).toBeGreaterThan(0);
    // The headline row: the five numbers in order, above their labels.
    expect(text).toMatch(new RegExp(`^\\s*${h.total}\\s+${h.under_assessment}\\s+${h.advertised}\\s+${h.approved}\\s+${h.refused}\\s*$`, 'm'));
    const flat = squash(text);
    for (const a of json.notices.attribution) expect(flat, a).toContain(squash(a));
    for (const b of json.notices.data_boundaries) expect(flat, b).toContain(squash(b));
    expect(flat).toContain(squash(json.suburb_context.note));
    // Page 1, rendered: the map area (below the headline, 72 dpi = 1 px per point) is drawn, not blank.
    const pgm = execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '72', '-gray', '-x', '40', '-y', '200', '-W', '515', '-H', '380', file]);
    const m = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.toString('latin1', 0, 40))!;
    const pixels = pgm.subarray(m[0].length);
    expect(pixels.length).toBe(Number(m[1]) * Number(m[2]));
    const levels = new Set(pixels);
    const dark = pixels.filter((v) => v < 200).length / pixels.length;
    expect(levels.size).toBeGreaterThan(30);
    expect(dark).toBeGreaterThan(0.02);
  });

  it('says so, and is complete, for a catchment with no childcare DAs', async (ctx) => {
    // Far out in the tile's corner, 100 m: no DA there.
    const das = t.stack.engine.das().list({ state: 'NSW' }, { limit: 100_000 }).filter((r) => r.lat !== null);
    const lat = Math.min(...das.map((r) => r.lat!)) - 0.002, lng = Math.min(...das.map((r) => r.lng!)) - 0.002;
    const json = await t.get(`/api/v1/childcare/site-analysis?state=NSW&lat=${lat}&lng=${lng}&radius_km=0.1`, key);
    if (json.status !== 200) ctx.skip(`the corner point is not in NSW here (${json.status})`);
    expect(json.body.data.headline.total).toBe(0);
    const r = await fetchReport(`state=NSW&lat=${lat}&lng=${lng}&radius_km=0.1&format=pdf`);
    expect(r.status).toBe(200);
    if (!POPPLER) return needs(ctx, NO_POPPLER);
    const file = join(dir, 'empty.pdf');
    writeFileSync(file, r.bytes);
    const text = squash(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
    expect(text).toContain(squash('No childcare development applications were found in this catchment'));
    expect(text).toContain(squash('Attribution and licences'));
  });
});

/** The headings and the closing notices (data boundaries, attribution and licences) of an HTML report. */
function sectionsOf(html: string): { headings: string[]; notices: string } {
  const decode = (t: string) => t.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
  const headings = [...html.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => decode(m[1]));
  const tail = html.slice(html.indexOf('<h2>Data boundaries</h2>'));
  // As the PDF sets them: characters its fonts lack are `?` there.
  return { headings, notices: squash(pdfSafe(decode(tail))) };
}

/** Each page's text lines (pdftotext -layout), without the page footer. */
function pageLines(file: string): string[][] {
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
  return Array.from({ length: pages }, (_, i) =>
    execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), '-layout', file, '-'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^propintel childcare report - page/.test(l)),
  );
}

describe('the PDF report\'s layout', () => {
  it('keeps each heading with what follows it, gives the notices no page of their own, and lines up the breakdown tables', async (ctx) => {
    if (!POPPLER) return needs(ctx, NO_POPPLER);
    // Catchments of several sizes, so that page breaks fall in different places.
    for (const radius of [1, 2, 3, 5, 8, 12]) {
      const html = (await fetchReport(circle('html', radius))).bytes.toString('utf8');
      const { headings, notices } = sectionsOf(html);
      expect(headings).toContain('Breakdowns');
      const file = join(dir, `layout-${radius}.pdf`);
      writeFileSync(file, (await fetchReport(circle('pdf', radius))).bytes);
      const pages = pageLines(file);
      pages.forEach((lines, i) => {
        const where = `${radius} km, page ${i + 1} of ${pages.length}`;
        expect(headings, `${where} ends with a heading alone: ${lines.at(-1)}`).not.toContain(lines.at(-1));
        expect(lines.some((l) => !notices.includes(squash(l))), `${where} holds only notices: ${lines.join(' / ')}`).toBe(true);
      });
      // Every breakdown table's count and share columns stand in the same place (right-aligned: their right edges).
      const bbox = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
      const words = [...bbox.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({ xMin: +m[1], y: +m[2], xMax: +m[3], text: m[4] }));
      const shares = words.filter((w) => w.text === 'Share');
      expect(shares.length, `${radius} km`).toBeGreaterThanOrEqual(2);
      const counts = shares.map((s) => words.find((w) => w.text === 'DAs' && Math.abs(w.y - s.y) < 1)!);
      for (const [column, found] of [['Share', shares], ['DAs', counts]] as const) {
        const right = found.map((w) => Math.round(w.xMax));
        expect(new Set(right).size, `${radius} km: ${column} at ${right.join(', ')}`).toBe(1);
      }
    }
  }, 60_000);

  it('labels each link by what it opens: the application on its reference, the council register on the council', async () => {
    // A VIC site: VIC councils publish both application records and register searches.
    const vic = t.stack.engine.das().list({ category: 'childcare', state: 'VIC' }, { limit: 500 }).filter((r) => r.lat !== null);
    const v = vic.find((r) => r.council_url_type === 'search_entry') ?? vic[0];
    const query = `state=VIC&lat=${v.lat}&lng=${v.lng}&radius_km=10`;
    const json = (await t.get(`/api/v1/childcare/site-analysis?${query}`, key)).body.data;
    const features: { properties: { council_reference: string; council_name: string; council_url: string; council_url_type: string } }[] = json.geojson.features;
    const html = (await fetchReport(`${query}&format=html`)).bytes.toString('utf8');
    const links = [...html.matchAll(/<a href="([^"]+)" rel="noopener noreferrer">([^<]*)<\/a>/g)].map((m) => ({ href: m[1].replace(/&amp;/g, '&'), text: m[2].replace(/&amp;/g, '&') }));
    const kinds = new Set<string>();
    for (const link of links) {
      const f = features.find((x) => x.properties.council_url === link.href && (link.text === x.properties.council_reference || link.text.includes(`(search ${x.properties.council_reference})`)));
      expect(f, `${link.text} -> ${link.href}`).toBeDefined();
      const p = f!.properties;
      kinds.add(p.council_url_type);
      expect(link.text).toBe(p.council_url_type === 'application_record' ? p.council_reference : `${p.council_name} register (search ${p.council_reference})`);
    }
    expect([...kinds].sort()).toEqual(['application_record', 'search_entry']);
  });
});

describe('the HTML report', () => {
  const chromium = useBrowser();

  it('is one self-contained file: in Chromium with the network blocked the map shows and nothing is requested', async (ctx) => {
    const r = await fetchReport(circle('html'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = r.bytes.toString('utf8');
    // Nothing that would load anything: no script, link, img, iframe, url() or src attribute.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|url\(|\ssrc=/i);
    if (!chromium.browser) return needs(ctx, chromium.missing);
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    const page = await chromium.browser!.newPage();
    await page.setViewport({ width: 900, height: 1200 });
    await page.setRequestInterception(true);
    const requested: string[] = [];
    const failed: string[] = [];
    page.on('request', (req) => {
      if (req.url() === `file://${file}`) return void req.continue();
      requested.push(req.url());
      void req.abort();
    });
    page.on('requestfailed', (req) => failed.push(req.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    const shown = await page.$eval('svg.map', (svg) => {
      const box = svg.getBoundingClientRect();
      return { width: box.width, height: box.height, dots: svg.querySelectorAll('circle').length, paths: svg.querySelectorAll('path').length };
    });
    expect(requested).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    expect(shown.width).toBeGreaterThan(500);
    expect(shown.height).toBeGreaterThan(350);
    expect(shown.dots).toBeGreaterThan(0);
    expect(shown.paths).toBeGreaterThan(10);
    await page.screenshot({ path: join(dir, 'report.png'), fullPage: false });
    await page.close();
  });

  it('draws a POSTed polygon and its hole', async () => {
    const x = site.lng, y = site.lat, d = 0.02, e = 0.004;
    const outer = [[x - d, y - d], [x + d, y - d], [x + d, y + d], [x - d, y + d], [x - d, y - d]];
    const hole = [[x - e, y - e], [x - e, y + e], [x + e, y + e], [x + e, y - e], [x - e, y - e]];
    const r = await fetchReport('format=html', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'NSW', catchment: { type: 'Polygon', coordinates: [outer, hole] } }) });
    expect(r.status, r.bytes.toString().slice(0, 300)).toBe(200);
    const html = r.bytes.toString('utf8');
    const catchment = /<path d="([^"]+)"[^>]*fill-rule="evenodd"/.exec(html);
    expect(catchment).not.toBeNull();
    // Two rings: two moves, and the outer ring's four corners in the map frame.
    expect(catchment![1].match(/M/g)!.length).toBe(2);
    expect(html).toContain('Polygon catchment of 8 vertices and 1 hole (NSW)');
    const pdf = await fetchReport('format=pdf', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'NSW', catchment: { type: 'Polygon', coordinates: [outer] } }) });
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('report limits and refusals', () => {
  it('renders at most the concurrency limit at once: the rest get 429 with Retry-After', async () => {
    const all = await Promise.all(Array.from({ length: 4 }, () => fetchReport(circle('pdf', 5))));
    const statuses = all.map((r) => r.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    const busy = all.find((r) => r.status === 429)!;
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(busy.bytes.toString())).toMatchObject({ error: 'renderer_busy', concurrency: 1 });
    // Once they are done, the renderer takes the next one.
    expect((await fetchReport(circle('html'))).status).toBe(200);
  });

  it('refuses what the site analysis refuses, with the same statuses, and a format other than pdf or html', async () => {
    const status = async (q: string) => (await fetchReport(q)).status;
    expect(await status(circle('docx'))).toBe(422);
    expect(await status(`state=NSW&lat=${site.lat}&lng=${site.lng}`)).toBe(422);
    expect(await status(`state=VIC&lat=${site.lat}&lng=${site.lng}&format=pdf`)).toBe(400);
    expect(await status(`state=NSW&lat=${site.lat}&lng=${site.lng}&radius_km=31&format=pdf`)).toBe(400);
    expect(await status(`${circle('pdf')}&include_access=true`)).toBe(400);
    expect(await status(`lat=${site.lat}&lng=${site.lng}&format=pdf`)).toBe(422);
    const bow = await fetchReport('format=pdf', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'NSW', catchment: { type: 'Polygon', coordinates: [[[site.lng, site.lat], [site.lng + 0.01, site.lat + 0.01], [site.lng + 0.01, site.lat], [site.lng, site.lat + 0.01], [site.lng, site.lat]]] } }) });
    expect(bow.status).toBe(400);
    expect((await fetch(`${t.url}/api/v1/childcare/report?${circle('pdf')}`)).status).toBe(401);
  });
});

describe('a renderer failure', () => {
  let server: StartedServer;
  beforeAll(async () => {
    const engine = t.stack.engine;
    const failing = { childcare: { report: () => Promise.reject(new Error('worker died')) } } as unknown as PropertyService;
    server = await startServer({ service: failing, store: t.stack.store, port: 0, das: () => engine.das(), stateAt: (x, y) => engine.stateAt(x, y), openSchools: (s) => engine.openSchools(s) });
  });
  afterAll(async () => {
    await server?.close(1000);
  });

  it('is 503 with Retry-After and the advice to use the JSON or CSV; the server goes on answering', async () => {
    const res = await fetch(`${server.url}/api/v1/childcare/report?${circle('pdf')}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await res.json();
    expect(body.error).toBe('renderer_failed');
    expect(body.message).toMatch(/site-analysis \(JSON\) or \/export \(CSV\)/);
    const json = await fetch(`${server.url}/api/v1/childcare/site-analysis?${circle('pdf').replace('&format=pdf', '')}`, { headers: { authorization: `Bearer ${key}` } });
    expect(json.status).toBe(200);
  });
});

describe('fair report slots (issue 47)', () => {
  let server: StartedServer;
  /** Renders of radius 5 wait for `release`; others render at once. */
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const started: string[] = [];
  beforeAll(async () => {
    const engine = t.stack.engine;
    const real = (engine as unknown as { childcare: { report: (...a: unknown[]) => Promise<unknown> } }).childcare;
    const slow = {
      childcare: {
        report: async (site: { catchment: { kind: string; radius_km?: number } }, ...rest: unknown[]) => {
          const slowOne = site.catchment.radius_km === 5;
          started.push(slowOne ? 'slow' : 'fast');
          if (slowOne) await gate;
          return real.report(site, ...rest);
        },
      },
    } as unknown as PropertyService;
    server = await startServer({ service: slow, store: t.stack.store, port: 0, reportConcurrency: 2, das: () => engine.das(), stateAt: (x, y) => engine.stateAt(x, y), openSchools: (s) => engine.openSchools(s) });
  });
  afterAll(async () => {
    release();
    await server?.close(1000);
  });

  it('another key\'s report renders while one key\'s slow renders run: a key has half the slots', async () => {
    const other = await t.key({ components: 'none', childcareStates: [...STATES], childcareExpires: '2030-01-01', childcareAddOn: 'childcare_market_intelligence' });
    const get = (k: string, q: string) => fetch(`${server.url}/api/v1/childcare/report?${q}`, { headers: { authorization: `Bearer ${k}` } });
    // One key's two slow reports: the first takes one of the two slots; the second is past the key's share and
    // waits for the first (before, it took the other slot and the next key got 429).
    const first = get(key, circle('pdf', 5));
    while (!started.length) await new Promise((r) => setTimeout(r, 10));
    const second = get(key, circle('pdf', 5));
    await new Promise((r) => setTimeout(r, 100));
    expect(started).toEqual(['slow']);
    // Another key's report renders meanwhile (before the slow one is let go).
    const theirs = await get(other, circle('html'));
    expect(theirs.status).toBe(200);
    expect((await theirs.text()).startsWith('<!doctype html>')).toBe(true);
    expect(started).toEqual(['slow', 'fast']);
    release();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
  }, 60_000);
});
