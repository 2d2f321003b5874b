/**
 * Contours traced from a DEM for one window: read the DEM cells under the window, measure how much of the
 * window has data, choose the interval from the window's elevation range (levels are counted before any
 * line is traced), trace every level in one pass, clip to the window square, order the lines nearest the
 * subject first, then the shared limits and output.
 *
 * Source order for a DEM: the engine is the source here, and it returns lines nearest the subject first
 * (by the closest vertex; ties by elevation, then trace order). So when the 1,200-line cap or the byte
 * budget acts, the lines dropped are the ones farthest from the property.
 */
import { isGeographic } from '../../geo/crs.js';
import { createWindow, type Window } from '../../geo/window.js';
import { sharedRaster } from '../../raster/raster-pool.js';
import { gridStats } from '../../raster/grid-stats.js';
import { gridBBox, type Grid } from '../../raster/grid.js';
import { clipLineToRect } from './clip.js';
import { assembleContours, unavailable, type PackedContoursLayer } from './contours-layer.js';
import { chooseInterval, countLevels, levelsInRange, validateInterval } from './interval.js';
import { isolines } from './isolines.js';
import { latticeTransform } from '../../geo/lattice-transform.js';
import { LineBuffer, type PackedLines } from './line-buffer.js';
import { resolveLimits, type ContourRequestOptions } from './request.js';
import type { DemContourSource } from './sources.js';

/** Metres per degree of latitude, to size a halo of cells in a lon/lat DEM (sizing only). */
const METRES_PER_DEGREE = 111_320;

/** Samples per axis when measuring coverage: at most one per DEM cell, at most this many. */
const COVERAGE_SAMPLES = 600;

/**
 * Share of the window square with DEM data: the window is sampled on a regular lattice (one sample per DEM
 * cell across, up to {@link COVERAGE_SAMPLES}), each sample looked up in the cell that contains it.
 */
export function coveredFraction(grid: Grid<Float32Array>, window: Window): number {
  const [x0, y0, x1, y1] = window.bbox;
  const cell = grid.crs === window.crs ? Math.abs(grid.transform[1]) : (x1 - x0) / COVERAGE_SAMPLES;
  const n = Math.max(1, Math.min(COVERAGE_SAMPLES, Math.round((x1 - x0) / cell)));
  const toGrid = latticeTransform(window.crs, grid.crs, window.bbox);
  const row = new Float64Array(2 * n);
  const [gx0, gdx, , gy0, , gdy] = grid.transform;
  let valid = 0;
  if (toGrid.identity) {
    // Same CRS: a sample's column depends on i only and its row on j only, so each is worked out once
    // (the same expressions as below, so the same answer).
    const cols = new Int32Array(n), rows = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = Math.floor((x0 + ((i + 0.5) * (x1 - x0)) / n - gx0) / gdx);
      cols[i] = c < 0 || c >= grid.width ? -1 : c;
      const r = Math.floor((y1 - ((i + 0.5) * (y1 - y0)) / n - gy0) / gdy);
      rows[i] = r < 0 || r >= grid.height ? -1 : r;
    }
    for (let j = 0; j < n; j++) {
      if (rows[j] < 0) continue;
      const base = rows[j] * grid.width;
      for (let i = 0; i < n; i++) if (cols[i] >= 0 && !Number.isNaN(grid.data[base + cols[i]])) valid++;
    }
    return valid / (n * n);
  }
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      row[2 * i] = x0 + ((i + 0.5) * (x1 - x0)) / n;
      row[2 * i + 1] = y1 - ((j + 0.5) * (y1 - y0)) / n;
    }
    toGrid.forwardArray(row);
    for (let i = 0; i < n; i++) {
      // North-up grids only (the reader rejects rotated ones): col = (x - x0) / dx, row = (y - y0) / dy.
      const c = Math.floor((row[2 * i] - gx0) / gdx), r = Math.floor((row[2 * i + 1] - gy0) / gdy);
      if (c < 0 || r < 0 || c >= grid.width || r >= grid.height) continue;
      if (!Number.isNaN(grid.data[r * grid.width + c])) valid++;
    }
  }
  return valid / (n * n);
}

/** Isolines of a DEM grid at `levels`, their vertices (`xy`, interleaved) in `crs`. */
export function gridIsolines(grid: Grid<Float32Array>, levels: Float64Array, crs: string, step?: number): ReturnType<typeof isolines> {
  const set = isolines(grid.data, grid.width, grid.height, levels, { step });
  // Pixel -> the DEM's CRS (its affine transform), then -> `crs` (identity when they agree).
  const [a0, a1, a2, b0, b1, b2] = grid.transform;
  const xy = set.xy;
  for (let p = 0; p < xy.length; p += 2) {
    const px = xy[p], py = xy[p + 1];
    xy[p] = a0 + px * a1 + py * a2;
    xy[p + 1] = b0 + px * b1 + py * b2;
  }
  latticeTransform(grid.crs, crs, gridBBox(grid)).forwardArray(xy);
  return set;
}

/** Isolines of a DEM grid at `levels`, in the window's CRS, clipped to the window square. */
export function traceWindowLines(grid: Grid<Float32Array>, window: Window, levels: Float64Array, step?: number): PackedLines {
  const set = gridIsolines(grid, levels, window.crs, step);
  const xy = set.xy;
  const out = new LineBuffer();
  for (let i = 0; i < set.lineLevel.length; i++) {
    clipLineToRect(xy, set.lineOffsets[i], set.lineOffsets[i + 1], set.lineClosed[i] === 1, window.bbox, out, levels[set.lineLevel[i]], i);
  }
  return out.pack();
}

/** Line indices ordered nearest the subject first (closest vertex), then by elevation, then as traced. */
export function orderBySubjectDistance(lines: PackedLines, x: number, y: number): number[] {
  const n = lines.elevation.length;
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let best = Infinity;
    for (let p = lines.offsets[i]; p < lines.offsets[i + 1]; p++) {
      const dx = lines.xy[2 * p] - x, dy = lines.xy[2 * p + 1] - y;
      const d2 = dx * dx + dy * dy;
      if (d2 < best) best = d2;
    }
    d[i] = best;
  }
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => d[a] - d[b] || lines.elevation[a] - lines.elevation[b] || a - b);
}

/** Contours of `source` around (lon, lat). See {@link ContourRequestOptions} for the options. */
export async function demContours(source: DemContourSource, lon: number, lat: number, options: ContourRequestOptions = {}): Promise<PackedContoursLayer> {
  const requested = validateInterval(options.interval);
  const window = createWindow(lon, lat, options.halfWidth);
  const limits = resolveLimits(options.limits);
  const floor = source.floor_m ?? 1;
  const raster = await sharedRaster(source.path, { crs: source.crs });
  let grid: Grid<Float32Array> | null;
  try {
    // A halo of 1.5 cells beyond the window: lines then run through real data to the window edge, where
    // they are clipped, instead of bending along the grid's last half cell (the no-data padding rule).
    const cell = Math.abs(raster.info.transform[1]) * (isGeographic(raster.info.crs) ? METRES_PER_DEGREE : 1);
    const halo = 1.5 * cell;
    const [x0, y0, x1, y1] = window.bbox;
    grid = await raster.readBBox([x0 - halo, y0 - halo, x1 + halo, y1 + halo], { crs: window.crs, signal: options.signal });
  } finally {
    await raster.close();
  }
  const outside = () =>
    unavailable(source, 'outside_coverage', `The window around this location is outside the footprint of ${source.name}, so no contours can be traced there. Contours for this location come only from this source.`);
  if (!grid) return outside();
  const covered = coveredFraction(grid, window);
  if (covered === 0) return outside();
  const stats = gridStats(grid);
  const choice = chooseInterval(requested, { floorM: floor, maxLevels: limits.maxLevels, autoMaxLevels: limits.autoMaxLevels }, (i) => countLevels(stats.min, stats.max, i));
  const levels = levelsInRange(stats.min, stats.max, choice.interval_m);
  const lines = traceWindowLines(grid, window, levels, choice.interval_m);
  return assembleContours({
    window,
    lines,
    order: orderBySubjectDistance(lines, window.x, window.y),
    source,
    native_interval_m: source.native_interval_m ?? floor,
    choice,
    coveredFraction: covered,
    limits,
  });
}
