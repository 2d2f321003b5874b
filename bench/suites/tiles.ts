/**
 * Vector tiles (issues 20 and 36) on the sample world:
 * - contour tiles cold: every z14 tile over each state's 6 km DEM (eight states), each computed once on the pool (both
 *   workers warmed first, on other zooms), p50 and p95 of the tiles that drew lines; and cached;
 * - terrain tiles (Terrarium PNG) cold over the same tiles;
 * - DA tiles at z12 and z14 over the densest tile, uncached;
 * - cached tiles over HTTP, side by side with tileserver-gl-light (npm, installed into var/bench/ on first run):
 *   `propintel tiles export` writes one MBTiles per layer (das, zones, roads, water, schools, overlays) for a
 *   7 x 7 block of z15 tiles around the NSW sandbox address; tileserver-gl-light serves those files and our
 *   uWebSockets.js server serves the same tiles from its cache; wrk (Debian's package) requests every
 *   non-empty tile of the files round and round at 64 connections with Accept-Encoding: gzip, on each server
 *   in turn, three rounds, medians.
 *
 * Beside the cold contour tiles, where GDAL is installed (`apt-get install gdal-bin`), the same tiles made the
 * GDAL way: `gdal_translate -projwin` (the tile and its buffer) -> `gdal_contour -i 5` -> `ogr2ogr -f MVT`
 * at that zoom, three processes per tile, timed whole.
 *
 * Targets (benchmark, not test): cold contour tile p50 < 30 ms and p95 < 80 ms; cached < 1 ms; cached tiles
 * over HTTP at least 1.0x tileserver-gl-light's throughput.
 */
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/index.js';
import { tileAt, tileBounds, type TileId, emptyTerrainTile } from '../../engine/entry/tiles.js';
import { PACKAGE_ROOT } from '../../engine/entry/runtime.js';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDefaultMaxTime, percentile } from '../lib/measure.js';
import { median, startServerProcess, stop, wrk, wrkAvailable, wrkPathsScript, type WrkResult } from '../lib/load.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';
import { ensureTileserverGl, startTileserverGl, stopTileserverGl, TILESERVER_GL_VERSION } from '../lib/tileserver-gl.js';

/**
 * The GDAL way for the 8 neighbours of tile `c` (p50 ms per tile, three processes each), or why it was not run.
 */
function gdalContourTiles(dem: string, c: TileId): { ms?: number; note?: string } {
  // gdal_contour has no --version (it wants an interval): its presence is checked by its usage message.
  const have = (cmd: string) => {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    return !r.error && (r.status === 0 || /gdal_contour|Usage/i.test(`${r.stdout}${r.stderr}`));
  };
  if (!have('gdal_contour') || !have('ogr2ogr') || !have('gdal_translate')) return { note: 'GDAL not installed (apt-get install gdal-bin): no reference' };
  const work = mkdtempSync(join(tmpdir(), 'propintel-gdal-tiles-'));
  const times: number[] = [];
  try {
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        if (!dx && !dy) continue;
        const t = { z: c.z, x: c.x + dx, y: c.y + dy };
        const [w, s, e, n] = tileBounds(t);
        const bw = (e - w) * (64 / 4096), bh = (n - s) * (64 / 4096);
        const tag = `${t.x}-${t.y}`;
        const t0 = performance.now();
        const steps: [string, string[]][] = [
          ['gdal_translate', ['-q', '-projwin_srs', 'EPSG:4326', '-projwin', String(w - bw), String(n + bh), String(e + bw), String(s - bh), dem, join(work, `${tag}.tif`)]],
          ['gdal_contour', ['-q', '-i', '5', '-a', 'ele', join(work, `${tag}.tif`), join(work, `${tag}.gpkg`)]],
          ['ogr2ogr', ['-q', '-f', 'MVT', join(work, `${tag}-mvt`), join(work, `${tag}.gpkg`), '-dsco', `MINZOOM=${t.z}`, '-dsco', `MAXZOOM=${t.z}`, '-dsco', 'COMPRESS=NO']],
        ];
        for (const [cmd, args] of steps) {
          const r = spawnSync(cmd, args, { encoding: 'utf8' });
          if (r.status !== 0) return { note: `${cmd} failed: ${(r.stderr || r.stdout).trim().slice(0, 200)}` };
        }
        times.push(performance.now() - t0);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { ms: percentile(times, 50) };
}

const HTTP_LAYERS = ['das', 'zones', 'roads', 'water', 'schools', 'overlays'] as const;
const CONNECTIONS = 64;

/** The tiles of zoom `z` whose centres lie within `km` km of lon/lat, nearest first. */
function tilesAround(lon: number, lat: number, z: number, km: number): TileId[] {
  const dLat = km / 111.32, dLon = km / (111.32 * Math.cos((lat * Math.PI) / 180));
  const a = tileAt(lon - dLon, lat + dLat, z), b = tileAt(lon + dLon, lat - dLat, z);
  const out: TileId[] = [];
  for (let x = a.x; x <= b.x; x++) for (let y = a.y; y <= b.y; y++) out.push({ z, x, y });
  const centre = (t: TileId) => {
    const [w, s, e, n] = tileBounds(t);
    return Math.hypot(((w + e) / 2 - lon) * Math.cos((lat * Math.PI) / 180), (s + n) / 2 - lat);
  };
  return out.sort((p, q) => centre(p) - centre(q));
}

/**
 * Cached tiles over HTTP: the same non-empty z15 tiles from our server (its own process, the sample world)
 * and from tileserver-gl-light serving the MBTiles `propintel tiles export` wrote, with wrk.
 */
async function httpSideBySide(nsw: { lng: number; lat: number }): Promise<BenchRow[]> {
  const quick = getDefaultMaxTime() < 1;
  const seconds = quick ? 2 : 5, rounds = quick ? 1 : 3;
  const missing = wrkAvailable();
  if (missing) return [{ benchmark: 'cached tiles over HTTP (skipped)', size: '-', msPerOp: NaN, note: missing }];
  const c = tileAt(nsw.lng, nsw.lat, 15);
  const [w, , , n] = tileBounds({ z: 15, x: c.x - 3, y: c.y - 3 });
  const [, s, e] = tileBounds({ z: 15, x: c.x + 3, y: c.y + 3 });
  // Inset by a hair so the box's edges do not touch the next tiles.
  const eps = 1e-7;
  const bbox = [w + eps, s + eps, e - eps, n - eps].join(',');
  const work = join(PACKAGE_ROOT, 'var', 'bench', 'tiles-http');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // propintel tiles export, as a user runs it: one file per layer, so each server answers one layer per URL.
  const files: Record<string, string> = {};
  const paths: { ours: string[]; theirs: string[] } = { ours: [], theirs: [] };
  let exportMs = 0;
  for (const layer of HTTP_LAYERS) {
    const file = join(work, `${layer}.mbtiles`);
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'propintel.js'), 'tiles', 'export', '--layer', layer, '--bbox', bbox, '--zooms', '15-15', '--out', file], { encoding: 'utf8' });
    exportMs += performance.now() - t0;
    if (r.status !== 0) throw new Error(`propintel tiles export --layer ${layer} failed (exit ${r.status}): ${r.stderr}`);
    files[layer] = file;
    const db = new Database(file, { readonly: true });
    try {
      for (const row of db.prepare('SELECT zoom_level AS z, tile_column AS x, tile_row AS y FROM tiles').all() as { z: number; x: number; y: number }[]) {
        const y = 2 ** row.z - 1 - row.y; // MBTiles rows are TMS
        paths.ours.push(`/api/v1/tiles/${layer}/${row.z}/${row.x}/${y}.mvt`);
        paths.theirs.push(`/data/${layer}/${row.z}/${row.x}/${y}.pbf`);
      }
    } finally {
      db.close();
    }
  }
  const tsgl = ensureTileserverGl();
  if (!tsgl.main) return [{ benchmark: 'cached tiles over HTTP (skipped)', size: '-', msPerOp: NaN, note: tsgl.note }];
  const ours = await startServerProcess('uws');
  let theirs: Awaited<ReturnType<typeof startTileserverGl>> | undefined;
  try {
    theirs = await startTileserverGl(tsgl.main, files, work);
    const scriptOurs = join(work, 'ours.lua'), scriptTheirs = join(work, 'theirs.lua');
    writeFileSync(scriptOurs, wrkPathsScript(paths.ours));
    writeFileSync(scriptTheirs, wrkPathsScript(paths.theirs));
    const h = { 'accept-encoding': 'gzip' };
    // Every tile once on each (ours computes and caches; both check that each path answers 200 with a tile).
    let bytes = 0;
    for (const [base, list] of [[ours.ready.url, paths.ours], [theirs.url, paths.theirs]] as const) {
      for (const p of list) {
        const res = await fetch(`${base}${p}`, { headers: h });
        const body = new Uint8Array(await res.arrayBuffer());
        if (res.status !== 200) throw new Error(`warm-up ${base}${p}: ${res.status}`);
        if (base === ours.ready.url) bytes += body.length;
      }
      wrk(base, 1, h, CONNECTIONS, base === ours.ready.url ? scriptOurs : scriptTheirs);
    }
    const runs: { ours: WrkResult[]; theirs: WrkResult[] } = { ours: [], theirs: [] };
    for (let r = 0; r < rounds; r++) {
      runs.ours.push(wrk(ours.ready.url, seconds, h, CONNECTIONS, scriptOurs));
      runs.theirs.push(wrk(theirs.url, seconds, h, CONNECTIONS, scriptTheirs));
    }
    const m = (xs: WrkResult[]) => ({ rps: median(xs.map((x) => x.rps)), p50: median(xs.map((x) => x.p50)), p99: median(xs.map((x) => x.p99)), errors: xs.reduce((a, x) => a + x.errors, 0) });
    const o = m(runs.ours), t = m(runs.theirs);
    return [
      { benchmark: 'propintel tiles export (the MBTiles served beside)', size: `${HTTP_LAYERS.length} layers x 49 z15 tiles`, msPerOp: exportMs, note: `${paths.ours.length} non-empty tiles written, one file per layer; six CLI processes timed whole` },
      {
        benchmark: 'cached tiles over HTTP, gzip (uWS)',
        size: `${paths.ours.length} tiles, ${CONNECTIONS} conns, ${rounds}x${seconds}s`,
        msPerOp: 1000 / o.rps,
        itemsPerSec: o.rps,
        reference: `tileserver-gl-light ${TILESERVER_GL_VERSION}, same tiles from the MBTiles`,
        refMsPerOp: 1000 / t.rps,
        ratio: o.rps / t.rps,
        note: `p50 ${o.p50.toFixed(2)} ms, p99 ${o.p99.toFixed(2)} ms (tileserver-gl-light ${Math.round(t.rps)} req/s, p50 ${t.p50.toFixed(2)} ms, p99 ${t.p99.toFixed(2)} ms); mean tile ${(bytes / paths.ours.length / 1024).toFixed(1)} KB gzipped${o.errors + t.errors ? `; ${o.errors + t.errors} errors` : ''}; target >= 1.0x`,
      },
    ];
  } finally {
    if (theirs) await stopTileserverGl(theirs);
    await stop(ours);
  }
}

export const tilesSuite: BenchSuite = {
  name: 'tiles',
  description: 'tiles on the sample world: contour and terrain tiles cold, cached, DA tiles, cached tiles over HTTP (wrk) beside tileserver-gl-light',
  async run() {
    const dir = defaultDataDir();
    await ensureSampleWorld(dir, (line) => process.stdout.write(`  ${line}\n`));
    // No disk cache: cold tiles must be computed (the disk cache is measured on its own below).
    const engine = await createEngine({ datasets: dir, threads: 2, tileCache: false });
    const rows: BenchRow[] = [];
    let nsw: { lng: number; lat: number };
    try {
      // One sandbox address per state: the DEM of each is a 6 km square around it.
      const sandbox = (await engine.sandbox()).filter((x, i, all) => all.findIndex((y) => y.state === x.state) === i);
      nsw = sandbox.find((x) => x.state === 'NSW')!;
      // Warm both workers on both states' DEMs with tiles of other zooms (four at once, so both take some).
      await Promise.all(sandbox.flatMap((s) => [13, 15].map((z) => { const t = tileAt(s.lng, s.lat, z); return engine.tile('contours', z, t.x, t.y); })));
      await Promise.all(sandbox.flatMap((s) => [13, 15].map((z) => { const t = tileAt(s.lng, s.lat, z); return engine.terrainTile(z, t.x, t.y); })));
      // Every z14 tile over each state's DEM (6 km square around its sandbox address), each computed once.
      const z14 = sandbox.flatMap((s) => tilesAround(s.lng, s.lat, 14, 3.5));
      const cold: number[] = [], empty: number[] = [];
      for (const t of z14) {
        const t0 = performance.now();
        const r = await engine.tile('contours', t.z, t.x, t.y);
        (r.bytes ? cold : empty).push(performance.now() - t0);
      }
      const c = tileAt(nsw.lng, nsw.lat, 14);
      const warm: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await engine.tile('contours', c.z, c.x, c.y);
        warm.push(performance.now() - t0);
      }
      const gdal = gdalContourTiles(join(dir, 'nsw', 'dem-5m.tif'), c);
      rows.push(compared({ benchmark: 'contour tile z14 (5 m DEM), cold', size: `${cold.length} tiles with lines (+${empty.length} empty)`, msPerOp: percentile(cold, 50), reference: gdal.ms ? 'gdal_translate + gdal_contour + ogr2ogr MVT' : undefined, note: `p50; p95 ${percentile(cold, 95).toFixed(1)} ms, max ${Math.round(Math.max(...cold))} ms; every z14 tile over the ${sandbox.length} states' DEMs, each computed once on the pool at the z14 interval (5 m); target p50 < 30 ms, p95 < 80 ms${gdal.note ? `; ${gdal.note}` : ''}` }, gdal.ms));
      rows.push({ benchmark: 'contour tile z14, cached', size: '200 requests', msPerOp: percentile(warm, 50), note: 'p50; target < 1 ms' });
      // Tiles no DEM reaches are the one sea-level tile, encoded once: timed apart from the sampled.
      const terrain: number[] = [], outside: number[] = [];
      for (const t of z14) {
        const t0 = performance.now();
        const r = await engine.terrainTile(t.z, t.x, t.y);
        (r.bytes === emptyTerrainTile() ? outside : terrain).push(performance.now() - t0);
      }
      rows.push({ benchmark: 'terrain tile z14 (Terrarium PNG), cold', size: `${terrain.length} tiles sampled (+${outside.length} no DEM reaches)`, msPerOp: percentile(terrain, 50), note: `p50; p95 ${percentile(terrain, 95).toFixed(1)} ms; 256 x 256 bilinear samples of the DEMs, the gaps filled, and the PNG encode, all on the pool` });
      for (const z of [12, 14]) {
        const t = tileAt(nsw.lng, nsw.lat, z);
        const times: number[] = [];
        let features = 0;
        for (let i = 0; i < 9; i++) {
          const t0 = performance.now();
          // Different neighbours each time, so none is cached.
          const r = await engine.tile('das', z, t.x + (i % 3) - 1, t.y + Math.floor(i / 3) - 1);
          times.push(performance.now() - t0);
          features = Math.max(features, r.bytes?.length ?? 0);
        }
        rows.push({ benchmark: `DA tile z${z}, uncached`, size: '9 neighbouring tiles', msPerOp: percentile(times, 50), note: `p50; largest tile ${(features / 1024).toFixed(1)} KB` });
      }
    } finally {
      await engine.close();
    }
    rows.push(...(await httpSideBySide(nsw)));
    return rows;
  },
};
