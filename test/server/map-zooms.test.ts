/// <reference lib="dom" />
// The map at every zoom (issue 36): headless Chromium drives /map from z10 to z18 over a sandbox address in
// two states with every layer switched on, and asserts that MapLibre logged no warning or error (it warns
// "Geometry exceeds allowed extent" for a tile that overshoots its buffer), that no tile request failed, and
// that each layer drew features at the zooms where the sample world has them there. The screenshots, one
// sheet of the nine zooms per state (every layer on) and z17 at full size with the area fills off (roads
// over parcels), are kept in docs/map/.
// Skips, naming what is missing, without Chromium.
import { VectorTile } from '@mapbox/vector-tile';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PbfReader } from 'pbf';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { tileAt } from '../../engine/tiles/tile-math.js';
import { useBrowser } from '../helpers/browser.js';
import { demAt } from '../helpers/dem.js';
import { startServer } from '../../server/http-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { needs } from '../helpers/skip.js';

const DOCS = join(process.cwd(), 'docs', 'map');
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ threads: 2 });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** The map's style layers that draw vector features: their source, the zoom from which the style draws them, the geometry type its filter keeps. */
const STYLE_LAYERS: { id: string; source: string; minzoom: number; type?: 1 | 2 | 3 }[] = [
  { id: 'basemap-zones', source: 'zones', minzoom: 0 },
  { id: 'roads', source: 'roads', minzoom: 0 },
  { id: 'water-fill', source: 'water', minzoom: 0, type: 3 },
  { id: 'water-line', source: 'water', minzoom: 0, type: 2 },
  { id: 'basemap-parcels', source: 'parcels', minzoom: 16 },
  { id: 'zones', source: 'zones', minzoom: 0 },
  { id: 'overlays', source: 'overlays', minzoom: 0 },
  { id: 'hand', source: 'hand', minzoom: 0 },
  { id: 'noise', source: 'noise', minzoom: 0 },
  { id: 'flood', source: 'flood', minzoom: 0 },
  { id: 'bushfire', source: 'bushfire', minzoom: 0 },
  { id: 'parcels', source: 'parcels', minzoom: 16 },
  { id: 'contours', source: 'contours', minzoom: 0 },
  { id: 'schools', source: 'schools', minzoom: 0 },
  { id: 'das', source: 'das', minzoom: 0 },
];
/**
 * Chromium's own notes about its software renderer (SwiftShader, no GPU here), not the page's: the GL driver's
 * performance remarks. Named so that nothing else is ever let through.
 */
const DRIVER_NOTES = [/^\[\.WebGL-0x[0-9a-f]+\]GL Driver Message \(OpenGL, Performance, /];

/**
 * How many features of `source` have a vertex inside `bounds` in the tiles MapLibre loads for it at map zoom
 * `z`, of geometry `type` if given (a 512 px vector source: tile zoom = floor(z), overzoomed past the layer's maxzoom, none below its
 * minzoom), read over HTTP and decoded with @mapbox/vector-tile. Such a feature must be drawn.
 */
async function featuresInView(source: { id: string; minzoom: number; maxzoom: number }, z: number, bounds: [number, number, number, number], type?: number): Promise<number> {
  if (z < source.minzoom) return 0;
  const tz = Math.min(z, source.maxzoom);
  const [w, s, e, n] = bounds;
  const a = tileAt(w, n, tz), b = tileAt(e, s, tz);
  let count = 0;
  for (let x = a.x; x <= b.x; x++) {
    for (let y = a.y; y <= b.y; y++) {
      const res = await fetch(`${t.url}/api/v1/tiles/${source.id}/${tz}/${x}/${y}.mvt`);
      if (res.status === 204) continue;
      expect(res.status).toBe(200);
      const layer = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers[source.id];
      for (let i = 0; i < (layer?.length ?? 0); i++) {
        if (type !== undefined && layer.feature(i).type !== type) continue;
        const coords = JSON.stringify(layer.feature(i).toGeoJSON(x, y, tz).geometry);
        const nums = [...coords.matchAll(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)].map(Number);
        let inside = false;
        for (let k = 0; k + 1 < nums.length && !inside; k += 2) inside = nums[k] > w && nums[k] < e && nums[k + 1] > s && nums[k + 1] < n;
        if (inside) count++;
      }
    }
  }
  return count;
}
/** The area fills, off in the screenshots. */
const FILLS = ['zones', 'hand', 'noise', 'flood', 'bushfire'];
const WIDTH = 768, HEIGHT = 512;

/**
 * Moves the map (`center`, `zoom`) or switches layers (`visibility`) and waits for MapLibre's next `idle`:
 * every tile the new view asked for loaded and drawn (registered before the change, so a view that is not yet
 * requested cannot pass for a loaded one).
 */
const settle = (page: Page, change: { center?: [number, number]; zoom?: number; visibility?: [string[], 'visible' | 'none'] }) =>
  page.evaluate(
    (c) =>
      new Promise<void>((resolve) => {
        const m = (window as any).propintelMap; // eslint-disable-line @typescript-eslint/no-explicit-any
        m.once('idle', () => resolve());
        if (c.center) m.jumpTo({ center: c.center, zoom: c.zoom });
        if (c.visibility) for (const id of c.visibility[0]) m.setLayoutProperty(id, 'visibility', c.visibility[1]);
        m.triggerRepaint();
      }),
    change,
  );

/** The map's canvas as PNG (base64): what MapLibre drew, without the page around it. */
const canvasPng = (page: Page) => page.evaluate(() => (document.querySelector('canvas.maplibregl-canvas') as HTMLCanvasElement).toDataURL('image/png').split(',')[1]);

describe('the map at z10-z18 in Chromium', () => {
  const chromium = useBrowser();

  it('draws every layer at its zooms over VIC and NSW with no console warning or error', async (ctx) => {
    if (!chromium.browser) return needs(ctx, chromium.missing);
    const sites = (await t.stack.engine.sandbox()).filter((s) => s.state === 'VIC' || s.state === 'NSW');
    const byState = ['VIC', 'NSW'].map((st) => sites.find((s) => s.state === st)!);
    const page = await chromium.browser!.newPage();
    await page.setViewport({ width: WIDTH + 300, height: HEIGHT });
    const logged: string[] = [];
    const failed: string[] = [];
    const tiles = { vector: 0, terrain: 0 };
    page.on('console', (m) => {
      if (m.type() === 'warn' || m.type() === 'error') logged.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => logged.push(`page error: ${e}`));
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
      if (/\/api\/v1\/tiles\/terrain\/.*\.png$/.test(r.url()) && r.status() === 200) tiles.terrain++;
      else if (/\.mvt$/.test(r.url()) && r.status() < 300) tiles.vector++;
    });
    await page.goto(`${t.url}/map`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as any).propintelMap?.loaded()); // eslint-disable-line @typescript-eslint/no-explicit-any
    // Every overlay on.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          (window as any).propintelMap.once('idle', () => resolve()); // eslint-disable-line @typescript-eslint/no-explicit-any
          for (const box of document.querySelectorAll<HTMLInputElement>('input[data-layer]')) if (!box.checked) box.click();
        }),
    );
    const sources = Object.fromEntries(
      await Promise.all([...new Set(STYLE_LAYERS.map((l) => l.source))].map(async (id) => [id, { id, ...(await t.get(`/api/v1/tiles/${id}.json`)).body }] as const)),
    );
    const checked: string[] = [];
    const shots: Record<string, string> = {};
    for (const site of byState) {
      for (let z = 10; z <= 18; z++) {
        await settle(page, { center: [site.lng, site.lat], zoom: z });
        shots[`${site.state}-z${z}`] = await canvasPng(page);
        if (z === 17) {
          // And as a user sees it with parcels and contours on and the area fills off (they hide the streets).
          await settle(page, { visibility: [FILLS, 'none'] });
          shots[`${site.state}-z17-streets`] = await canvasPng(page);
          await settle(page, { visibility: [FILLS, 'visible'] });
        }
        const view = await page.evaluate((ids: string[]) => {
          const m = (window as any).propintelMap; // eslint-disable-line @typescript-eslint/no-explicit-any
          const b = m.getBounds();
          return { bounds: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()] as [number, number, number, number], drawn: Object.fromEntries(ids.map((id) => [id, m.queryRenderedFeatures({ layers: [id] }).length])) as Record<string, number> };
        }, STYLE_LAYERS.map((l) => l.id));
        for (const l of STYLE_LAYERS) {
          if (z < l.minzoom) continue;
          const expected = await featuresInView(sources[l.source], z, view.bounds, l.type);
          if (expected > 0) {
            expect(view.drawn[l.id], `${site.state} z${z}: ${l.id} has ${expected} features with a vertex in view`).toBeGreaterThan(0);
            checked.push(`${site.state} z${z} ${l.id}`);
          }
        }
        // The base of the map is there at every zoom: the check above is not vacuous.
        const base = ['roads', 'basemap-zones', ...(z >= 14 ? ['contours', 'hand', 'noise'] : []), ...(z >= 16 ? ['parcels'] : [])];
        for (const id of base) expect(checked, `${site.state} z${z}`).toContain(`${site.state} z${z} ${id}`);
      }
    }
    expect(logged.filter((m) => !DRIVER_NOTES.some((r) => r.test(m.replace(/^warn: /, ''))))).toEqual([]);
    expect(failed).toEqual([]);
    expect(tiles.terrain).toBeGreaterThan(0);
    // The sheets: the nine zooms of each state, a third of their size, drawn in the page itself.
    mkdirSync(DOCS, { recursive: true });
    for (const site of byState) {
      const sheet = await page.evaluate(
        async (images: string[], w: number, h: number, label: string) => {
          const tw = Math.round(w / 3), th = Math.round(h / 3);
          const c = document.createElement('canvas');
          c.width = tw * 3;
          c.height = th * 3;
          const g = c.getContext('2d')!;
          for (let i = 0; i < images.length; i++) {
            const img = new Image();
            img.src = `data:image/png;base64,${images[i]}`;
            await img.decode();
            const x = (i % 3) * tw, y = Math.floor(i / 3) * th;
            g.drawImage(img, x, y, tw, th);
            g.strokeStyle = '#333';
            g.strokeRect(x + 0.5, y + 0.5, tw - 1, th - 1);
            g.fillStyle = '#fffc';
            g.fillRect(x + 4, y + 4, 88, 20);
            g.fillStyle = '#000';
            g.font = '13px sans-serif';
            g.fillText(`${label} z${10 + i}`, x + 9, y + 19);
          }
          return c.toDataURL('image/png').split(',')[1];
        },
        Array.from({ length: 9 }, (_, i) => shots[`${site.state}-z${10 + i}`]),
        WIDTH,
        HEIGHT,
        site.state,
      );
      writeFileSync(join(DOCS, `zooms-${site.state.toLowerCase()}.png`), Buffer.from(sheet, 'base64'));
      writeFileSync(join(DOCS, `z17-${site.state.toLowerCase()}.png`), Buffer.from(shots[`${site.state}-z17-streets`], 'base64'));
    }
    await page.close();
  }, 240_000);

  it('shows 3D terrain with setTerrain over two states, its heights within 1 m of the DEM (issue 47)', async (ctx) => {
    if (!chromium.browser) return needs(ctx, chromium.missing);
    const sites = await t.stack.engine.sandbox();
    const page = await chromium.browser!.newPage();
    await page.setViewport({ width: WIDTH, height: HEIGHT });
    const failed: string[] = [];
    page.on('pageerror', (e) => failed.push(`page error: ${e}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
    });
    await page.goto(`${t.url}/map`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as any).propintelMap?.loaded()); // eslint-disable-line @typescript-eslint/no-explicit-any
    const shots: string[] = [];
    let points = 0;
    for (const state of ['VIC', 'NSW']) {
      const site = sites.find((s) => s.state === state)!;
      const dem = join(defaultDataDir(), state.toLowerCase(), 'dem-5m.tif');
      // Five places around the address, up to 400 m off; the DEM read with geotiff.js and proj4.
      const places: [number, number][] = [[0, 0], [0.004, 0.002], [-0.003, 0.003], [0.002, -0.004], [-0.004, -0.002]].map(([dx, dy]) => [site.lng + dx, site.lat + dy]);
      const expected = await demAt(dem, places);
      // Exaggeration 1 for the heights (queryTerrainElevation multiplies by it), looking down at z15.
      const got = await page.evaluate(
        (c: [number, number], ps: [number, number][]) =>
          new Promise<(number | null)[]>((resolve) => {
            const m = (window as any).propintelMap; // eslint-disable-line @typescript-eslint/no-explicit-any
            m.setTerrain({ source: 'terrain', exaggeration: 1 });
            m.once('idle', () => resolve(ps.map((p) => m.queryTerrainElevation(p))));
            m.jumpTo({ center: c, zoom: 15, pitch: 0, bearing: 0 });
          }),
        [site.lng, site.lat] as [number, number],
        places,
      );
      places.forEach((p, i) => {
        expect(got[i], `${state} ${p.join(',')}: MapLibre ${got[i]} m, the DEM ${expected[i].toFixed(2)} m`).not.toBeNull();
        expect(Math.abs(got[i]! - expected[i]), `${state} ${p.join(',')}: MapLibre ${got[i]} m, the DEM ${expected[i].toFixed(2)} m`).toBeLessThan(1);
        points++;
      });
      // The picture: tilted, relief exaggerated so the sample world's gentle slopes show, hillshade on.
      await page.evaluate(
        (c: [number, number]) =>
          new Promise<void>((resolve) => {
            const m = (window as any).propintelMap; // eslint-disable-line @typescript-eslint/no-explicit-any
            m.setTerrain({ source: 'terrain', exaggeration: 8 });
            // The ground alone: hillshade, water, roads and contours; markers and fills off.
            for (const l of m.getStyle().layers) if (!['hillshade', 'water-fill', 'water-line', 'roads', 'contours', 'background'].includes(l.id) && l.type !== 'background') m.setLayoutProperty(l.id, 'visibility', 'none');
            m.setPaintProperty('hillshade', 'hillshade-exaggeration', 0.8);
            m.once('idle', () => resolve());
            m.jumpTo({ center: c, zoom: 13, pitch: 70, bearing: 30 });
          }),
        [site.lng, site.lat] as [number, number],
      );
      shots.push(await canvasPng(page));
      // Relief shows: the ground under the view centre stands at the DEM's height times 8, not at -32,768 m x 8
      // (a transparent pixel read as black) nor flat.
      const centre = await page.evaluate((c: [number, number]) => (window as any).propintelMap.queryTerrainElevation(c), [site.lng, site.lat] as [number, number]); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(Math.abs(centre / 8 - expected[0]), `${state}: centre ${centre} m at exaggeration 8`).toBeLessThan(1);
    }
    expect(points).toBe(10);
    expect(failed).toEqual([]);
    mkdirSync(DOCS, { recursive: true });
    const sheet = await page.evaluate(async (images: string[], w: number, h: number) => {
      const c = document.createElement('canvas');
      c.width = w * 2;
      c.height = h;
      const g = c.getContext('2d')!;
      for (let i = 0; i < images.length; i++) {
        const img = new Image();
        img.src = `data:image/png;base64,${images[i]}`;
        await img.decode();
        g.drawImage(img, i * w, 0, w, h);
        g.fillStyle = '#fffc';
        g.fillRect(i * w + 4, 4, 150, 20);
        g.fillStyle = '#000';
        g.font = '13px sans-serif';
        g.fillText(`${['VIC', 'NSW'][i]} 3D terrain x8`, i * w + 9, 19);
      }
      return c.toDataURL('image/png').split(',')[1];
    }, shots, WIDTH, HEIGHT);
    writeFileSync(join(DOCS, 'terrain-3d.png'), Buffer.from(sheet, 'base64'));
    await page.close();
  }, 120_000);

  it('loads every source on a page from another origin that sends the key with transformRequest (CORS, issue 47)', async (ctx) => {
    if (!chromium.browser) return needs(ctx, chromium.missing);
    // The same engine as real data: tiles need a key with the geometry licence.
    const real = new Proxy(t.stack.engine as object, {
      get: (target, name) => {
        if (name === 'store') return { ...(Reflect.get(target, name) as object), catalogue: { ...(Reflect.get(target, name) as { catalogue: object }).catalogue, synthetic: false } };
        const v = Reflect.get(target, name);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as typeof t.stack.engine;
    const api = await startServer({ service: real, store: t.stack.store, port: 0 });
    const key = await t.key();
    // The other site: a page on another port of another host name (localhost, not 127.0.0.1).
    const apiUrl = api.url.replace('localhost', '127.0.0.1');
    const site = (await t.stack.engine.sandbox()).find((s) => s.state === 'VIC')!;
    const layers = [...new Set(STYLE_LAYERS.map((l) => l.source))];
    const page404: string[] = [];
    const other = createServer((req, res) => {
      if (req.url !== '/') {
        // The browser's own favicon request aside, the page asks this site for nothing else.
        res.writeHead(req.url === '/favicon.ico' ? 204 : 404).end();
        if (req.url !== '/favicon.ico') page404.push(req.url ?? '');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><link rel="stylesheet" href="${apiUrl}/map/maplibre-gl.css"><script src="${apiUrl}/map/maplibre-gl.js"></script></head>
<body style="margin:0"><div id="map" style="width:${WIDTH}px;height:${HEIGHT}px"></div><script>
const API = ${JSON.stringify(apiUrl)}, KEY = ${JSON.stringify(key)}, LAYERS = ${JSON.stringify(layers)};
const sources = Object.fromEntries(LAYERS.map((id) => [id, { type: 'vector', url: API + '/api/v1/tiles/' + id + '.json' }]));
sources.terrain = { type: 'raster-dem', url: API + '/api/v1/tiles/terrain.json' };
const style = { version: 8, sources, layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#fff' } }, { id: 'hillshade', type: 'hillshade', source: 'terrain' },
  ...LAYERS.flatMap((id) => [{ id: id + '-line', type: 'line', source: id, 'source-layer': id }, { id: id + '-circle', type: 'circle', source: id, 'source-layer': id, filter: ['==', ['geometry-type'], 'Point'] }])] };
window.map = new maplibregl.Map({ container: 'map', style, center: [${site.lng}, ${site.lat}], zoom: 16, fadeDuration: 0,
  transformRequest: (url) => (url.startsWith(API) ? { url, headers: { Authorization: 'Bearer ' + KEY } } : undefined) });
</script></body></html>`);
    });
    await new Promise<void>((resolve) => other.listen(0, 'localhost', resolve));
    const origin = `http://localhost:${(other.address() as AddressInfo).port}`;
    const page = await chromium.browser!.newPage();
    try {
      const failed: string[] = [], logged: string[] = [];
      const answered = new Map<string, number[]>();
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warn') logged.push(m.text());
      });
      page.on('requestfailed', (r) => failed.push(`${r.method()} ${r.url()} ${r.failure()?.errorText}`));
      page.on('response', (r) => {
        const m = /\/api\/v1\/tiles\/([a-z]+)(?:\.json|\/)/.exec(r.url());
        if (m && r.request().method() === 'GET') answered.set(m[1], [...(answered.get(m[1]) ?? []), r.status()]);
      });
      await page.setViewport({ width: WIDTH, height: HEIGHT });
      await page.goto(origin, { waitUntil: 'load' });
      await page.waitForFunction(() => (window as any).map?.loaded(), { timeout: 60_000 }); // eslint-disable-line @typescript-eslint/no-explicit-any
      const loaded = await page.evaluate(
        (ids: string[]) => new Promise<Record<string, boolean>>((resolve) => {
          const m = (window as any).map; // eslint-disable-line @typescript-eslint/no-explicit-any
          const done = () => resolve(Object.fromEntries(ids.map((id) => [id, m.isSourceLoaded(id)])));
          if (m.areTilesLoaded()) done();
          else m.once('idle', done);
        }),
        [...layers, 'terrain'],
      );
      expect(failed).toEqual([]);
      expect(logged.filter((m) => !DRIVER_NOTES.some((r) => r.test(m)))).toEqual([]);
      for (const id of [...layers, 'terrain']) {
        expect(loaded[id], `source ${id} loaded`).toBe(true);
        const statuses = answered.get(id) ?? [];
        // Its TileJSON and at least one tile, each 200 (or 204, an empty vector tile), with the key.
        expect(statuses.length, `${id}: requests answered`).toBeGreaterThan(1);
        expect(statuses.filter((st) => st !== 200 && st !== 204), `${id}: statuses ${statuses.join(',')}`).toEqual([]);
      }
      // fetch() from that page: a keyed lookup, its exposed headers, and a 401 the page can read.
      const fetched = await page.evaluate(async (API: string, KEY: string, address: string) => {
        const ok = await fetch(`${API}/api/v1/property?address=${encodeURIComponent(address)}&components=planning`, { headers: { Authorization: `Bearer ${KEY}` } });
        const no = await fetch(`${API}/api/v1/property?address=${encodeURIComponent(address)}`);
        return { status: ok.status, requestId: ok.headers.get('x-request-id'), zone: (await ok.json()).planning !== undefined, unauthorised: no.status, error: (await no.json()).error };
      }, apiUrl, key, site.address);
      expect(fetched).toEqual({ status: 200, requestId: expect.stringMatching(/.+/), zone: true, unauthorised: 401, error: 'missing_key' });
      // And without the preflight answered, none of it would have been sent: the browser asked first.
      const pre = await fetch(`${apiUrl}/api/v1/tiles/zones/16/1/1.mvt`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
      expect([pre.status, pre.headers.get('access-control-allow-origin'), pre.headers.get('access-control-allow-headers')?.split(', ')]).toEqual([204, '*', expect.arrayContaining(['Authorization'])]);
      expect(page404).toEqual([]);
    } finally {
      await page.close();
      other.close();
      await api.close(5_000);
    }
  }, 120_000);
});

