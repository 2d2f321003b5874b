/**
 * `surfaces.heat` (spec 2.7): the 10 m land-cover grid over the analysis window with its class legend, the
 * heat-driver role of each class, and the shares of the window that cool and that heat. It is the heat
 * driver surface, not a per-cell exposure score.
 *
 * Shares are of the whole window: cells outside the land-cover footprint (no data, or codes outside the
 * legend) are not covered, so cooling + heat-source + neutral shares = covered share, and covered +
 * uncovered = 1.
 */
import { windowGridSpec, type Window } from '../../geo/window.js';
import { transformBBox } from '../../geo/crs.js';
import { isNorthUp, worldToPixel, type GeoTransform } from '../../geo/geo-transform.js';
import type { RasterSource } from '../../raster/geotiff-reader.js';
import type { Grid, TypedArray } from '../../raster/grid.js';
import { resampleGrid } from '../../raster/resample.js';
import { CLASS_INDEX, LAND_COVER_CLASSES, LAND_COVER_NO_DATA, type HeatDriverRole } from './land-cover-classes.js';

/** Cell size of the heat surface, metres. */
export const HEAT_CELL_M = 10;

/** One row of `class_legend`. */
export interface HeatLegendEntry {
  code: number;
  name: string;
  label: string;
  heat_driver_role: HeatDriverRole;
  /** Cells of this class in the window. */
  cells: number;
  /** Share of the window. */
  share: number;
}

/**
 * The class grid of `surfaces.heat` as JSON: the land-cover class code of every 10 m cell of the window,
 * run-length encoded so a payload stays small (a 300 x 300 window is about 30 KB of runs instead of 90,000
 * numbers).
 *
 * Decoding, in any language: walk `runs` two numbers at a time, `[code, count, code, count, ...]`, writing
 * `count` cells of `code`; the result is `width * height` codes in row-major order, row 0 the northern row
 * and column 0 the western column. Cell (col, row) covers world x from `transform[0] + col * transform[1]`
 * and y from `transform[3] + row * transform[5]` (a GDAL geotransform in `crs`, metres; `transform[5]` is
 * negative). Code `no_data` (0) marks cells with no land cover. See {@link decodeHeatGrid}.
 */
export interface HeatGrid {
  width: number;
  height: number;
  /** Cell size, metres. */
  cell_size_m: number;
  /** The window's projected CRS (EPSG code string). */
  crs: string;
  /** GDAL geotransform of the grid in `crs`. */
  transform: [number, number, number, number, number, number];
  no_data: number;
  /** Cell order once decoded: row-major, northern row first, western column first. */
  order: 'row_major_north_first';
  /** How `runs` encodes the cells: run-length pairs. */
  encoding: 'rle';
  /** `[code, count, code, count, ...]`; the counts sum to `width * height`. */
  runs: number[];
}

/** Run-length encodes class codes as `[code, count, ...]` pairs (see {@link HeatGrid}). */
export function encodeRuns(classes: Uint8Array): number[] {
  const runs: number[] = [];
  for (let i = 0; i < classes.length;) {
    const v = classes[i];
    let j = i + 1;
    while (j < classes.length && classes[j] === v) j++;
    runs.push(v, j - i);
    i = j;
  }
  return runs;
}

/**
 * The class codes of a heat grid (as delivered, or parsed back from JSON), `width * height` cells, row 0
 * north. Throws a RangeError when the runs do not fill the grid exactly.
 */
export function decodeHeatGrid(grid: Pick<HeatGrid, 'width' | 'height' | 'encoding' | 'runs'>): Uint8Array {
  if (grid.encoding !== 'rle') throw new RangeError(`unknown heat grid encoding ${String(grid.encoding)}`);
  const n = grid.width * grid.height;
  const out = new Uint8Array(n);
  let at = 0;
  for (let k = 0; k + 1 < grid.runs.length; k += 2) {
    const count = grid.runs[k + 1];
    if (at + count > n) throw new RangeError(`heat grid runs overflow the ${grid.width}x${grid.height} grid`);
    out.fill(grid.runs[k], at, at + count);
    at += count;
  }
  if (at !== n || grid.runs.length % 2 !== 0) throw new RangeError(`heat grid runs cover ${at} of ${n} cells`);
  return out;
}

/** `surfaces.heat`. */
export interface HeatSurface {
  /** Class codes on the window grid (run-length encoded, row 0 north; 0 where not covered). */
  grid: HeatGrid;
  class_legend: HeatLegendEntry[];
  /** Role by class name. */
  heat_driver_role: Record<string, HeatDriverRole>;
  cooling_cover_share: number;
  heat_source_share: number;
  neutral_share: number;
  /** Share of the window inside the land-cover footprint (a legend class). */
  covered_share: number;
  /** Share of the window with no land-cover class (outside the footprint, no data or an unknown code). */
  uncovered_share: number;
  source: string;
  resolution_m: number;
  note: string;
  caveat: string;
}

const NOTE = 'Heat driver surface: what each 10 m cell is (tree cover, built-up, water, ...) and whether it tends to cool or heat its neighbourhood. Not a per-cell exposure score.';

/**
 * The heat surface from land-cover class codes already on the window's 10 m grid (`classes` holds
 * `width * height` codes, row 0 north; 0 = no data).
 */
export function heatSurfaceFromClasses(classes: Uint8Array, window: Window, source: string): HeatSurface {
  const spec = windowGridSpec(window, HEAT_CELL_M);
  const n = spec.width * spec.height;
  if (classes.length !== n) throw new RangeError(`expected ${n} class cells for the ${spec.width}x${spec.height} window grid, got ${classes.length}`);
  const counts = new Float64Array(LAND_COVER_CLASSES.length);
  for (let i = 0; i < n; i++) {
    const k = CLASS_INDEX[classes[i]];
    if (k !== 255) counts[k]++;
  }
  let cooling = 0, heat = 0, neutral = 0;
  const legend = LAND_COVER_CLASSES.map((c, i) => {
    if (c.heat_driver_role === 'cooling') cooling += counts[i];
    else if (c.heat_driver_role === 'heat_source') heat += counts[i];
    else neutral += counts[i];
    return { code: c.code, name: c.name, label: c.label, heat_driver_role: c.heat_driver_role, cells: counts[i], share: counts[i] / n };
  });
  const covered = cooling + heat + neutral;
  return {
    grid: { width: spec.width, height: spec.height, cell_size_m: HEAT_CELL_M, crs: spec.crs, transform: [...spec.transform], no_data: LAND_COVER_NO_DATA, order: 'row_major_north_first', encoding: 'rle', runs: encodeRuns(classes) },
    class_legend: legend,
    heat_driver_role: Object.fromEntries(LAND_COVER_CLASSES.map((c) => [c.name, c.heat_driver_role])),
    cooling_cover_share: cooling / n,
    heat_source_share: heat / n,
    neutral_share: neutral / n,
    covered_share: covered / n,
    uncovered_share: (n - covered) / n,
    source,
    resolution_m: HEAT_CELL_M,
    note: NOTE,
    caveat: covered < n
      ? `Land cover covers ${Math.round((1000 * covered) / n) / 10} % of the window; shares are of the whole window.`
      : 'Land-cover classes from satellite imagery at 10 m; a class says what tends to drive heat, not measured temperature.',
  };
}

/** A class code as stored: no data and anything that is not a byte become 0. */
function classCode(v: number, noData: number): number {
  return v === noData || Number.isNaN(v) || v < 0 || v > 255 ? LAND_COVER_NO_DATA : v;
}

/**
 * Class codes of a land-cover grid (any CRS, any typed array) on the window's 10 m grid, nearest cell. A
 * north-up grid in the window's CRS (the usual case: WorldCover reprojected to MGA) is read by affine
 * arithmetic alone; any other grid has the window's part cut out and resampled (engine/raster/resample.ts).
 */
export function landCoverOnWindow(landCover: Grid<TypedArray>, window: Window): Uint8Array {
  const spec = windowGridSpec(window, HEAT_CELL_M);
  const W = spec.width, H = spec.height;
  const out = new Uint8Array(W * H);
  const src = landCover.data;
  const sw = landCover.width, sh = landCover.height;
  if (landCover.crs === spec.crs && isNorthUp(landCover.transform)) {
    const [x0, dx, , y0, , dy] = spec.transform;
    const [sx0, sdx, , sy0, , sdy] = landCover.transform;
    for (let r = 0; r < H; r++) {
      const pr = Math.floor((y0 + (r + 0.5) * dy - sy0) / sdy);
      if (pr < 0 || pr >= sh) continue;
      for (let c = 0; c < W; c++) {
        const pc = Math.floor((x0 + (c + 0.5) * dx - sx0) / sdx);
        if (pc >= 0 && pc < sw) out[r * W + c] = classCode(src[pr * sw + pc], landCover.noData);
      }
    }
    return out;
  }
  // Cut out the source cells under the window (plus a cell of margin), then resample them.
  const box = transformBBox(window.bbox, window.crs, landCover.crs);
  const [ca, ra] = worldToPixel(landCover.transform, box[0], box[3]);
  const [cb, rb] = worldToPixel(landCover.transform, box[2], box[1]);
  const c0 = Math.max(0, Math.floor(Math.min(ca, cb)) - 1), c1 = Math.min(sw, Math.ceil(Math.max(ca, cb)) + 1);
  const r0 = Math.max(0, Math.floor(Math.min(ra, rb)) - 1), r1 = Math.min(sh, Math.ceil(Math.max(ra, rb)) + 1);
  if (c1 <= c0 || r1 <= r0) return out;
  const cw = c1 - c0, ch = r1 - r0;
  const cut = new Float32Array(cw * ch);
  for (let r = 0; r < ch; r++) {
    for (let c = 0; c < cw; c++) {
      const v = classCode(src[(r0 + r) * sw + c0 + c], landCover.noData);
      cut[r * cw + c] = v === LAND_COVER_NO_DATA ? NaN : v;
    }
  }
  const t = landCover.transform;
  const cutGrid = { width: cw, height: ch, data: cut, noData: NaN, crs: landCover.crs, transform: [t[0] + c0 * t[1] + r0 * t[2], t[1], t[2], t[3] + c0 * t[4] + r0 * t[5], t[4], t[5]] as GeoTransform };
  const onto = resampleGrid(cutGrid, spec, 'nearest').data;
  for (let i = 0; i < out.length; i++) out[i] = Number.isNaN(onto[i]) ? LAND_COVER_NO_DATA : onto[i];
  return out;
}

/** The heat surface from an in-memory land-cover grid. */
export function heatSurface(landCover: Grid<TypedArray>, window: Window, source: string): HeatSurface {
  return heatSurfaceFromClasses(landCoverOnWindow(landCover, window), window, source);
}

/** The heat surface read from a land-cover GeoTIFF (only the window's cells are read). */
/** Input of the `heat-surface` worker task: the land-cover raster and the subject (its window is made there). */
export interface HeatSurfaceTaskInput {
  file: string;
  source: string;
  lon: number;
  lat: number;
}

export async function readHeatSurface(raster: RasterSource, window: Window, source: string, signal?: AbortSignal): Promise<HeatSurface> {
  const onto = await raster.readOnto(windowGridSpec(window, HEAT_CELL_M), { method: 'nearest', signal });
  const classes = new Uint8Array(onto.data.length);
  for (let i = 0; i < classes.length; i++) classes[i] = classCode(onto.data[i], LAND_COVER_NO_DATA);
  return heatSurfaceFromClasses(classes, window, source);
}
