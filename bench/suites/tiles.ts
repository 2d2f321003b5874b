/**
 * Vector tiles (issue 20) on the sample world: a contour tile at z14 from the 5 m DEM, cold (a different tile
 * each time, each computed on the pool) and cached; a DA tile at z12 and z14 over the densest tile; and tiles
 * per second over HTTP at 16 concurrent connections (a 7 x 7 block of z15 tiles of every cheap layer, cached
 * after the first pass, through the uWebSockets.js server).
 *
 * Beside the cold contour tiles, where GDAL is installed (`apt-get install gdal-bin`), the same tiles made the
 * GDAL way: `gdal_translate -projwin` (the tile and its buffer) -> `gdal_contour -i 5` -> `ogr2ogr -f MVT`
 * at that zoom, three processes per tile, timed whole.
 *
 * Targets (benchmark, not test): cold contour tile p50 < 30 ms, cached < 1 ms.
 */
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/engine.js';
import { tileAt } from '../../engine/tiles/tile-math.js';
import { startServer } from '../../server/http-server.js';
import { SqliteStore } from '../../server/store/sqlite-store.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tileBounds, type TileId } from '../../engine/tiles/tile-math.js';
import { percentile } from '../lib/measure.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';

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

export const tilesSuite: BenchSuite = {
  name: 'tiles',
  description: 'vector tiles on the sample world: contour tiles cold and cached, DA tiles, tiles per second over HTTP at 16 connections',
  async run() {
    const dir = defaultDataDir();
    await ensureSampleWorld(dir, (line) => process.stdout.write(`  ${line}\n`));
    // No disk cache: cold tiles must be computed (the disk cache is measured on its own below).
    const engine = await createEngine({ datasets: dir, threads: 2, tileCache: false });
    const rows: BenchRow[] = [];
    try {
      const s = (await engine.sandbox()).find((x) => x.state === 'NSW')!;
      const c = tileAt(s.lng, s.lat, 14);
      await engine.tile('contours', c.z, c.x, c.y); // starts the workers and opens the DEM
      const cold: number[] = [], warm: number[] = [];
      let lines = 0;
      // The eight neighbours of the first tile: all on the sample world's 6 km DEM, none cached.
      for (let dx = -1; dx <= 1; dx++) {
        for (let dy = -1; dy <= 1; dy++) {
          if (!dx && !dy) continue;
          const t0 = performance.now();
          const r = await engine.tile('contours', c.z, c.x + dx, c.y + dy);
          cold.push(performance.now() - t0);
          if (r.bytes) lines++;
        }
      }
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await engine.tile('contours', c.z, c.x, c.y);
        warm.push(performance.now() - t0);
      }
      const gdal = gdalContourTiles(join(dir, 'nsw', 'dem-5m.tif'), c);
      rows.push(compared({ benchmark: 'contour tile z14 (5 m DEM), cold', size: `${cold.length} different tiles, ${lines} with lines`, msPerOp: percentile(cold, 50), reference: gdal.ms ? 'gdal_translate + gdal_contour + ogr2ogr MVT' : undefined, note: `p50; max ${Math.round(Math.max(...cold))} ms; each computed on the pool at the z14 interval (5 m); target < 30 ms${gdal.note ? `; ${gdal.note}` : ''}` }, gdal.ms));
      rows.push({ benchmark: 'contour tile z14, cached', size: '200 requests', msPerOp: percentile(warm, 50), note: 'p50; target < 1 ms' });
      for (const z of [12, 14]) {
        const t = tileAt(s.lng, s.lat, z);
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
      // Throughput over HTTP: 16 connections, a block of z15 tiles of the cheap layers (cached after the first pass).
      const store = SqliteStore.open(':memory:');
      const server = await startServer({ service: engine, store, port: 0 });
      try {
        const t = tileAt(s.lng, s.lat, 15);
        const urls: string[] = [];
        for (const layer of ['das', 'zones', 'roads', 'water', 'schools', 'overlays']) for (let dx = -3; dx <= 3; dx++) for (let dy = -3; dy <= 3; dy++) urls.push(`${server.url}/api/v1/tiles/${layer}/15/${t.x + dx}/${t.y + dy}.mvt`);
        await Promise.all(urls.map((u) => fetch(u).then((r) => r.arrayBuffer())));
        const n = 4000;
        let next = 0;
        const t0 = performance.now();
        await Promise.all(Array.from({ length: 16 }, async () => {
          while (next < n) {
            const u = urls[next++ % urls.length];
            await (await fetch(u, { headers: { 'accept-encoding': 'gzip' } })).arrayBuffer();
          }
        }));
        const ms = performance.now() - t0;
        rows.push({ benchmark: 'tiles over HTTP, 16 connections (cached)', size: `${n} requests over ${urls.length} tiles`, msPerOp: ms / n, itemsPerSec: n / (ms / 1000), note: 'uWebSockets.js; the client (undici fetch) runs in the same process and shares the 2 cores' });
      } finally {
        await server.close(1000);
        await store.close();
      }
    } finally {
      await engine.close();
    }
    return rows;
  },
};
