/// <reference lib="dom" />
// Tiles over HTTP (issue 20) on the sample world: an MVT with gzip, ETag, 304 and Cache-Control; 204 with no
// body for an empty tile; 422 and 404 for bad tiles; TileJSON 3.0.0 with absolute URLs and vector_layers; and
// the /map page in headless Chromium (skipped, naming why, without Chromium): it loads with no failed request
// or page error, switches contours and DAs on, and draws a canvas that is not blank. The screenshot is kept
// in docs/map.png for the README.
import { VectorTile } from '@mapbox/vector-tile';
import { copyFileSync, mkdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileAt } from '../../engine/tiles/tile-math.js';
import { useBrowser } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { needs } from '../helpers/skip.js';

const dir = tempDir('propintel-tiles-');
let t: TestServer;
let site: { lat: number; lng: number };

beforeAll(async () => {
  t = await startTestServer({ threads: 2 });
  const s = (await t.stack.engine.sandbox()).find((x) => x.state === 'NSW')!;
  site = { lat: s.lat, lng: s.lng };
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('tile endpoints', () => {
  it('serve an MVT gzipped, with an ETag (304 when it matches) and a day of caching; no key on the sample world', async () => {
    const { z, x, y } = tileAt(site.lng, site.lat, 15);
    const url = `${t.url}/api/v1/tiles/das/${z}/${x}/${y}.mvt`;
    const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toMatch(/max-age=86400/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const raw = Buffer.from(await res.arrayBuffer());
    // fetch may or may not have undone the gzip: either way the bytes are the tile.
    const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
    const layer = new VectorTile(new PbfReader(bytes)).layers.das;
    expect(layer.extent).toBe(4096);
    expect(layer.version).toBe(2);
    expect(layer.length).toBeGreaterThan(0);
    expect(Object.keys(layer.feature(0).properties).sort()).toEqual(['category', 'id', 'lodged', 'status_group']);
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 204 with no body for an empty tile, 422 for tiles off the grid or too coarse, 404 for an unknown layer', async () => {
    const sea = tileAt(-150, -20, 14);
    const empty = await fetch(`${t.url}/api/v1/tiles/das/${sea.z}/${sea.x}/${sea.y}.mvt`);
    expect(empty.status).toBe(204);
    expect((await empty.arrayBuffer()).byteLength).toBe(0);
    const coarse = await t.get('/api/v1/tiles/contours/0/0/0.mvt');
    expect(coarse.status).toBe(422);
    expect(coarse.body).toMatchObject({ error: 'invalid_tile', parameter: 'z' });
    expect(coarse.body.message).toMatch(/starts at zoom 12/);
    for (const tile of ['14/16384/0', '14/-1/0', '99/0/0']) {
      const r = await t.get(`/api/v1/tiles/das/${tile}.mvt`);
      expect([tile, r.status, r.body.error]).toEqual([tile, 422, 'invalid_tile']);
    }
    const unknown = await t.get('/api/v1/tiles/noise2/14/1/1.mvt');
    expect(unknown.status).toBe(404);
    expect(unknown.body.layers).toContain('contours');
    expect((await fetch(`${t.url}/api/v1/tiles/das/14/1/1.mvt`, { method: 'POST' })).status).toBe(405);
  });

  it('describe each layer as TileJSON 3.0.0 with absolute tile URLs, vector_layers and attribution', async () => {
    for (const id of ['das', 'zones', 'contours', 'parcels']) {
      const r = await t.get(`/api/v1/tiles/${id}.json`);
      expect(r.status).toBe(200);
      const doc = r.body;
      expect(doc.tilejson).toBe('3.0.0');
      expect(doc.tiles).toEqual([`${t.url}/api/v1/tiles/${id}/{z}/{x}/{y}.mvt`]);
      expect(doc.vector_layers).toHaveLength(1);
      expect(doc.vector_layers[0].id).toBe(id);
      expect(typeof doc.vector_layers[0].fields).toBe('object');
      expect(doc.minzoom).toBeLessThanOrEqual(doc.maxzoom);
      expect(doc.bounds[0]).toBeLessThan(doc.bounds[2]);
      expect(doc.attribution).not.toMatch(/[<>]/);
      expect(doc.attribution.length).toBeGreaterThan(5);
    }
    expect((await t.get('/api/v1/tiles/parcels.json')).body.minzoom).toBe(16);
    expect((await t.get('/api/v1/tiles/nope.json')).status).toBe(404);
  });
});

describe('the map\'s point summary', () => {
  it('gives the property lookup\'s scores, hazards and DAs of a point, without a key on the sample world', async () => {
    const r = await t.get(`/map/point?lat=${site.lat}&lng=${site.lng}`);
    expect(r.status).toBe(200);
    const full = (await t.stack.engine.property({ lat: site.lat, lng: site.lng }, {})).payload as any;
    expect(r.body.noise).toBe(`${full.scores.noise.score} (${full.scores.noise.level})`);
    expect(r.body['DAs within 300 m']).toBe(full.development_applications.nearby_300m.length);
    expect(Object.keys(r.body)).toEqual(expect.arrayContaining(['hazard: flood', 'hazard: bushfire', 'hazard: contamination']));
    expect((await t.get('/map/point?lat=abc&lng=151')).status).toBe(422);
  });
});

describe('the map page in Chromium', () => {
  const chromium = useBrowser();

  it('loads from this server alone, switches layers, and draws a map that is not blank', async (ctx) => {
    if (!chromium.browser) return needs(ctx, chromium.missing);
    const page = await chromium.browser!.newPage();
    await page.setViewport({ width: 1200, height: 800 });
    const failed: string[] = [];
    const foreign: string[] = [];
    const errors: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(t.url) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${t.url}/map`, { waitUntil: 'load' });
    const idle = () => page.evaluate(() => new Promise<void>((r) => { const m = (window as any).propintelMap; if (m.loaded() && m.areTilesLoaded()) r(); else m.once('idle', () => r()); }));
    await idle();
    await page.click('#layer-contours');
    await page.click('#layer-zones');
    await idle();
    const state = await page.evaluate(() => {
      const m = (window as any).propintelMap;
      return { contours: m.getLayoutProperty('contours', 'visibility'), das: m.getLayoutProperty('das', 'visibility'), rendered: { das: m.queryRenderedFeatures({ layers: ['das'] }).length, contours: m.queryRenderedFeatures({ layers: ['contours'] }).length, roads: m.queryRenderedFeatures({ layers: ['roads'] }).length } };
    });
    expect(state.contours).toBe('visible');
    expect(state.das).toBe('visible');
    expect(state.rendered.das).toBeGreaterThan(10);
    expect(state.rendered.contours).toBeGreaterThan(5);
    expect(state.rendered.roads).toBeGreaterThan(5);
    const shot = join(dir, 'map.png');
    await page.screenshot({ path: shot });
    // Not blank: the canvas's pixels take many values.
    const distinct = await page.evaluate(() => {
      const c = document.querySelector('canvas.maplibregl-canvas') as HTMLCanvasElement;
      const copy = document.createElement('canvas');
      copy.width = 200;
      copy.height = 150;
      const g = copy.getContext('2d')!;
      g.drawImage(c, 0, 0, 200, 150);
      const d = g.getImageData(0, 0, 200, 150).data;
      const seen = new Set<number>();
      for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      return seen.size;
    });
    expect(distinct).toBeGreaterThan(50);
    // A click shows what the shown layers hold there and the point's property summary.
    await page.mouse.click(450, 400);
    await page.waitForFunction(() => (document.getElementById('info')?.textContent ?? '').includes('Property summary'), { timeout: 30_000 });
    const info = await page.$eval('#info', (e) => e.textContent ?? '');
    expect(info).toMatch(/walkability/);
    expect(info).toMatch(/DAs within 300 m/);
    expect(failed).toEqual([]);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    mkdirSync(join(process.cwd(), 'docs'), { recursive: true });
    copyFileSync(shot, join(process.cwd(), 'docs', 'map.png'));
    await page.close();
  });
});
