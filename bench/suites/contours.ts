/**
 * Contours: 600 x 600 DEM windows at 5 m, 1 m and 0.5 m intervals, on seeded synthetic terrain (hills and a
 * valley with a creek, at 5 m cells), on the sample world's terrain (the central 600 x 600 cells of
 * datasets/sample-world/nsw/dem-5m.tif, when the sample world is there) and on the real DEMs in
 * ../shared/realdata/dem when present.
 *
 * Rows, per terrain and interval:
 * - the single-pass isoliner alone (ms per window, lines per second): the kernel, stopping at packed
 *   pixel-space lines, so it has no reference beside it;
 * - the traced output in process, like for like with GDAL: isolines, pixel -> CRS, clip to the window,
 *   lon/lat, packed lines with their elevations; beside GDAL's own marching squares in process
 *   (`gdal.ContourGenerateEx` into an in-memory OGR layer, through python3-gdal) on the same grid, whose
 *   figure includes building its OGR features in the file's CRS (ours does the clip and lon/lat on top);
 * - the whole `propintel contours` process beside the whole `gdal_contour` process on the same GeoTIFF and
 *   interval (`--unlimited`, so both deliver every line), with a check that both give the same levels and
 *   the same total line length within 1 %;
 * and on the synthetic window: d3-contour (one pass per level, polygons), and the whole surface in process
 * (GeoTIFF read, halo, isolines, clip, lon/lat, limits) at the default interval.
 *
 * Targets (issue 4): 600 x 600 at 5 m under 25 ms in process on one core; within 1.5x of GDAL in process
 * (ratio >= 0.67 on the traced output row); the propintel process at least as fast as the gdal_contour process
 * (ratio >= 1). Other engineers share the machine: run with --quick to check it works; the lead re-measures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contours as d3Contours } from 'd3-contour';
import { getTransformer, LONLAT, mgaCrsForLon, createWindow, windowGridSpec, type Window, seededRandom } from '../../engine/entry/geo.js';
import { openRaster, writeGeoTiff, gridStats, createGrid, type Grid } from '../../engine/entry/raster.js';
import { demContours, traceWindowLines, levelsInRange, isolines, latticeTransform } from '../../engine/entry/contours.js';
import { measure, measureAsync } from '../lib/measure.js';
import { ensurePythonGdal, ensureTool, timeProcess, type ToolStatus } from '../lib/reference-tools.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';

const SIDE = 600;
const INTERVALS = [5, 1, 0.5];
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REALDATA = process.env.PROPINTEL_REALDATA ?? join(ROOT, '..', 'shared', 'realdata');

/** A DEM window to benchmark: a GeoTIFF on disk and the same grid in memory. */
interface Terrain {
  label: string;
  size: string;
  path: string;
  grid: Grid<Float32Array>;
  lon: number;
  lat: number;
  /** Half-width that makes the CLI's window cover the whole file (so both tools see the same cells). */
  halfWidth: number;
}

/**
 * Seeded synthetic terrain on the 3 km window around a Melbourne subject, 5 m cells: a regional tilt,
 * 25 hills, a meandering valley with a creek channel, and half a metre of LiDAR-like roughness.
 */
async function syntheticTerrain(dir: string): Promise<Terrain> {
  const lon = 145.0, lat = -37.8;
  const w = createWindow(lon, lat);
  const grid = createGrid(windowGridSpec(w, 5));
  const rnd = seededRandom(20240601);
  const hills = Array.from({ length: 25 }, () => ({ x: rnd.range(0, 3000), y: rnd.range(0, 3000), h: rnd.range(10, 45), s: rnd.range(80, 400) }));
  const waves = Array.from({ length: 6 }, () => ({ kx: rnd.range(0.01, 0.2), ky: rnd.range(0.01, 0.2), p: rnd.range(0, 6.3), a: rnd.range(0.05, 0.15) }));
  for (let r = 0; r < SIDE; r++) {
    for (let c = 0; c < SIDE; c++) {
      const x = (c + 0.5) * 5, y = 3000 - (r + 0.5) * 5;
      const valley = 1500 + 220 * Math.sin(y / 420);
      let z = 120 + 0.015 * x - 35 * Math.exp(-((x - valley) ** 2) / (2 * 180 * 180)) - 3 * Math.exp(-((x - valley) ** 2) / (2 * 8 * 8));
      for (const h of hills) z += h.h * Math.exp(-((x - h.x) ** 2 + (y - h.y) ** 2) / (2 * h.s * h.s));
      for (const wv of waves) z += wv.a * Math.sin(wv.kx * x + wv.ky * y + wv.p);
      grid.data[r * SIDE + c] = z;
    }
  }
  const path = join(dir, 'synthetic.tif');
  await writeGeoTiff(path, grid);
  return { label: 'synthetic', size: '600x600 @5m', path, grid, lon, lat, halfWidth: 1500 };
}

/** The central window (at most 600 x 600 cells) of a real DEM, rewritten as a plain GeoTIFF; `label` names
 * it in the table (default the file's name). */
async function realTerrain(file: string, dir: string, label?: string): Promise<Terrain> {
  const raster = await openRaster(file);
  let grid: Grid<Float32Array>;
  try {
    const { width, height } = raster.info;
    const w = Math.min(SIDE, width), h = Math.min(SIDE, height);
    const c0 = Math.floor((width - w) / 2), r0 = Math.floor((height - h) / 2);
    grid = await raster.readPixels([c0, r0, c0 + w, r0 + h]);
  } finally {
    await raster.close();
  }
  const name = label ?? file.split('/').pop()!.replace(/\.tif$/, '');
  const path = join(dir, `${name.replace(/[^\w-]+/g, '-')}.tif`);
  await writeGeoTiff(path, grid);
  const [x0, dx, , y0, , dy] = grid.transform;
  const cx = x0 + (grid.width * dx) / 2, cy = y0 + (grid.height * dy) / 2;
  const [lon, lat] = getTransformer(grid.crs, LONLAT).forward(cx, cy);
  // Window half-width covering every corner of the file, in the subject's MGA zone.
  const toWindow = getTransformer(grid.crs, mgaCrsForLon(lon));
  const [wx, wy] = toWindow.forward(cx, cy);
  let half = 0;
  for (const [px, py] of [[x0, y0], [x0 + grid.width * dx, y0], [x0, y0 + grid.height * dy], [x0 + grid.width * dx, y0 + grid.height * dy]]) {
    const [ex, ey] = toWindow.forward(px, py);
    half = Math.max(half, Math.abs(ex - wx), Math.abs(ey - wy));
  }
  const cell = Math.abs(dx) < 0.01 ? `${Math.round(Math.abs(dx) * 3600)}"` : `${Math.round(Math.abs(dx) * 100) / 100}m`;
  return { label: name, size: `${grid.width}x${grid.height} @${cell}`, path, grid, lon, lat, halfWidth: Math.ceil(half + 1) };
}

const GDAL_IN_PROCESS = `
import sys, json, time
from osgeo import gdal, ogr
gdal.UseExceptions()
src = gdal.Open(sys.argv[1])
mem = gdal.GetDriverByName('MEM').CreateCopy('', src)  # decode once: time the contouring only
band = mem.GetRasterBand(1)
out = {}
for interval in sys.argv[2].split(','):
    times, lines = [], 0
    for _ in range(int(sys.argv[3])):
        ds = ogr.GetDriverByName('Memory').CreateDataSource('m')
        layer = ds.CreateLayer('c', geom_type=ogr.wkbLineString)
        layer.CreateField(ogr.FieldDefn('elevation', ogr.OFTReal))
        t0 = time.perf_counter()
        gdal.ContourGenerateEx(band, layer, options=['LEVEL_INTERVAL=' + interval, 'ELEV_FIELD=elevation'])
        times.append((time.perf_counter() - t0) * 1000)
        lines = layer.GetFeatureCount()
    times.sort()
    out[interval] = {'median': times[len(times) // 2], 'lines': lines}
print(json.dumps(out))
`;

/** GDAL's in-process times per interval (median ms), or undefined when the bindings are missing. */
function gdalInProcess(python: ToolStatus, script: string, file: string, reps: number): Record<string, { median: number; lines: number }> | undefined {
  if (!python.available) return undefined;
  const r = spawnSync(python.command, [script, file, INTERVALS.join(','), String(reps)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) {
    process.stdout.write(`  GDAL in-process run failed on ${file}: ${r.stderr}\n`);
    return undefined;
  }
  return JSON.parse(r.stdout) as Record<string, { median: number; lines: number }>;
}

/**
 * The traced output of one window, as the surface builds it before its limits: isolines, pixel -> the DEM's
 * CRS -> the window's CRS, clipped to the window square, then lon/lat (the counterpart of GDAL writing OGR
 * features). Returns the line count.
 */
function tracedOutput(grid: Grid<Float32Array>, window: Window, levels: Float64Array, interval: number): number {
  const lines = traceWindowLines(grid, window, levels, interval);
  latticeTransform(window.crs, LONLAT, window.bbox).forwardArray(lines.xy);
  return lines.elevation.length;
}

/** Total line length per level of GeoJSON LineStrings, coordinates mapped by `project` first. */
function lengthsByLevel(features: { properties: { elevation: number }; geometry: { type: string; coordinates: number[][] } }[], project: (x: number, y: number) => [number, number]): Map<number, number> {
  const out = new Map<number, number>();
  for (const f of features) {
    const pts = f.geometry.coordinates.map(([x, y]) => project(x, y));
    let len = 0;
    for (let i = 1; i < pts.length; i++) len += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    const e = Math.round(f.properties.elevation * 1e6) / 1e6;
    out.set(e, (out.get(e) ?? 0) + len);
  }
  return out;
}

/** Compares the two tools' outputs: same levels, total length within 1 %. */
function checkAgainstGdal(oursFile: string, gdalFile: string, crs: string): string {
  const ours = JSON.parse(readFileSync(oursFile, 'utf8'));
  const gdal = JSON.parse(readFileSync(gdalFile, 'utf8'));
  const toFile = getTransformer(LONLAT, crs);
  const a = lengthsByLevel(ours.features.features, (x, y) => toFile.forward(x, y));
  const b = lengthsByLevel(gdal.features.filter((f: { geometry: unknown }) => f.geometry), (x, y) => [x, y]);
  const la = [...a.keys()].sort((p, q) => p - q), lb = [...b.keys()].sort((p, q) => p - q);
  const sameLevels = la.length === lb.length && la.every((v, i) => v === lb[i]);
  let ta = 0, tb = 0;
  for (const v of a.values()) ta += v;
  for (const v of b.values()) tb += v;
  const diff = (100 * Math.abs(ta - tb)) / tb;
  const levels = sameLevels ? `same ${la.length} levels` : `LEVELS DIFFER (${la.length} vs ${lb.length})`;
  return `${levels}, length ${diff < 1 ? 'within 1%' : 'OFF BY MORE THAN 1%'} (${diff.toFixed(3)}%)`;
}

export const contoursSuite: BenchSuite = {
  name: 'contours',
  description: 'isolines of 600x600 DEM windows at 5/1/0.5 m vs GDAL (in process and gdal_contour) and d3-contour',
  async run() {
    const quick = process.argv.includes('--quick');
    const dir = mkdtempSync(join(tmpdir(), 'propintel-bench-contours-'));
    const rows: BenchRow[] = [];
    try {
      const terrains: Terrain[] = [await syntheticTerrain(dir)];
      const sampleDem = join(ROOT, 'datasets', 'sample-world', 'nsw', 'dem-5m.tif');
      if (existsSync(sampleDem)) terrains.push(await realTerrain(sampleDem, dir, 'sample-world nsw'));
      else process.stdout.write(`  no sample world at ${sampleDem} (run propintel sample-world): skipping its terrain\n`);
      const demDir = join(REALDATA, 'dem');
      if (existsSync(demDir)) {
        for (const f of readdirSync(demDir).filter((n) => n.endsWith('.tif')).sort()) terrains.push(await realTerrain(join(demDir, f), dir));
      } else {
        process.stdout.write(`  no real DEMs at ${demDir} (set PROPINTEL_REALDATA): synthetic terrain only\n`);
      }
      const gdalContour = ensureTool('gdal_contour', ['--utility_version'], 'gdal-bin'); // --version exits 1
      const python = ensurePythonGdal();
      for (const t of [gdalContour, python]) if (!t.available) process.stdout.write(`  skipping: ${t.note}\n`);
      const script = join(dir, 'gdal_in_process.py');
      writeFileSync(script, GDAL_IN_PROCESS);
      const cli = join(ROOT, 'bin', 'propintel.js');
      const runs = quick ? 3 : 7;

      for (const t of terrains) {
        const { grid } = t;
        const stats = gridStats(grid);
        const gdal = gdalInProcess(python, script, t.path, quick ? 3 : 9);
        const window = createWindow(t.lon, t.lat, t.halfWidth);
        for (const interval of INTERVALS) {
          const levels = levelsInRange(stats.min, stats.max, interval);
          // Warm up (JIT) outside the timed runs; the count is the lines each run produces.
          let lines = 0;
          for (let i = 0; i < 5; i++) lines = isolines(grid.data, grid.width, grid.height, levels, { step: interval }).lineLevel.length;
          const m = await measure(() => isolines(grid.data, grid.width, grid.height, levels, { step: interval }).lineLevel.length);
          rows.push({
            benchmark: `isolines ${interval} m, ${t.label}`,
            size: t.size,
            msPerOp: m.msPerOp,
            rme: m.rme,
            itemsPerSec: lines / (m.msPerOp / 1e3),
            note: `kernel only (packed pixel-space lines): ${levels.length} levels, ${lines} lines`,
          });
          let traced = 0;
          for (let i = 0; i < 5; i++) traced = tracedOutput(grid, window, levels, interval);
          const full = await measure(() => tracedOutput(grid, window, levels, interval));
          const ref = gdal?.[String(interval)];
          rows.push(
            compared(
              {
                benchmark: `traced output ${interval} m, ${t.label}`,
                size: t.size,
                msPerOp: full.msPerOp,
                rme: full.rme,
                itemsPerSec: traced / (full.msPerOp / 1e3),
                reference: gdal ? 'GDAL in-process (OGR features)' : undefined,
                note: `isolines + clip + lon/lat: ${traced} lines${ref ? ` (GDAL ${ref.lines})` : python.available ? '' : '; GDAL bindings unavailable'}${interval === 5 && t.label === 'synthetic' ? '; target <25 ms, ratio >=0.67' : ''}`,
              },
              ref?.median,
            ),
          );
          if (!gdalContour.available) continue;
          const oursOut = join(dir, 'ours.json');
          const gdalOut = join(dir, 'gdal.geojson');
          const ours = timeProcess(process.execPath, [cli, 'contours', '--dem', t.path, `--lon=${t.lon}`, `--lat=${t.lat}`, '--half-width', String(t.halfWidth), '--interval', String(interval), '--floor', String(interval), '--unlimited'], { runs, stdoutFile: oursOut });
          const theirs = timeProcess(gdalContour.command, ['-q', '-a', 'elevation', '-i', String(interval), '-f', 'GeoJSON', t.path, gdalOut], { runs, before: () => rmSync(gdalOut, { force: true }) });
          rows.push(
            compared(
              {
                benchmark: `propintel contours process ${interval} m, ${t.label}`,
                size: t.size,
                msPerOp: ours.median,
                itemsPerSec: lines / (ours.median / 1e3),
                reference: 'gdal_contour process',
                note: `${checkAgainstGdal(oursOut, gdalOut, grid.crs)}; median of ${runs}; target ratio >=1`,
              },
              theirs.median,
            ),
          );
        }
      }

      // The synthetic window only: d3-contour, and the whole surface in process.
      const syn = terrains[0];
      const stats = gridStats(syn.grid);
      const levels5 = levelsInRange(stats.min, stats.max, 5);
      const values = Array.from(syn.grid.data);
      const d3 = await measure(() => d3Contours().size([SIDE, SIDE]).thresholds(Array.from(levels5))(values).length, { minSamples: 3 });
      const ours5 = await measure(() => isolines(syn.grid.data, SIDE, SIDE, levels5, { step: 5 }).lineLevel.length);
      rows.push(compared({ benchmark: 'isolines 5 m vs d3-contour, synthetic', size: syn.size, msPerOp: ours5.msPerOp, rme: ours5.rme, reference: 'd3-contour (per level)' }, d3.msPerOp));
      const source = { kind: 'dem' as const, id: 'bench', name: 'synthetic', path: syn.path };
      const surface = await measureAsync(() => demContours(source, syn.lon, syn.lat));
      const layer = await demContours(source, syn.lon, syn.lat);
      rows.push({
        benchmark: 'surface in process (read, trace, clip, lon/lat, limits)',
        size: syn.size,
        msPerOp: surface.msPerOp,
        rme: surface.rme,
        itemsPerSec: layer.available ? layer.lines.elevation.length / (surface.msPerOp / 1e3) : undefined,
        note: layer.available ? `auto interval ${layer.interval_m} m, ${layer.lines.elevation.length} lines, truncated ${layer.truncated}` : 'unavailable',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
