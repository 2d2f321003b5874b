/**
 * Contours from a state's published contour lines (VIC, QLD, TAS): the lines are selected, never re-traced.
 * Features touching the window are projected to the window's CRS and clipped to its square (in file order:
 * the source order, which the 1,200-line cap keeps the head of); the interval is chosen from the elevations
 * present; the lines whose elevation is a multiple of it are kept; then the shared limits and output. A
 * dataset with no lines in the window gives `available: false` naming it, never a fallback to the DEM.
 */
import { createWindow, windowLonLatBBox } from '../../geo/window.js';
import { lineDataset, partsIn, projectedParts } from './line-dataset.js';
import { clipLineToRect } from './clip.js';
import { assembleContours, unavailable, type PackedContoursLayer } from './contours-layer.js';
import { chooseInterval, isMultipleOf, validateInterval } from './interval.js';
import { LineBuffer, selectLines } from './line-buffer.js';
import { resolveLimits, type ContourRequestOptions } from './request.js';
import type { VectorContourSource } from './sources.js';

/** The line parts of a feature's geometry, or null when it is not a (Multi)LineString. */

/** Contours of the state dataset `source` around (lon, lat). */
export async function vectorContours(source: VectorContourSource, lon: number, lat: number, options: ContourRequestOptions = {}): Promise<PackedContoursLayer> {
  const requested = validateInterval(options.interval);
  const window = createWindow(lon, lat, options.halfWidth);
  const limits = resolveLimits(options.limits);
  const property = source.elevation_property ?? 'elevation';
  const dataset = await lineDataset(source.path, source.crs, property);
  // A 1 % margin on the lon/lat box: the window square's edges are curves in lon/lat.
  const box = windowLonLatBBox(window);
  const mx = (box[2] - box[0]) * 0.01, my = (box[3] - box[1]) * 0.01;
  const search: typeof box = [box[0] - mx, box[1] - my, box[2] + mx, box[3] + my];

  const pieces = new LineBuffer();
  const projected = projectedParts(dataset, window.crs);
  for (const i of partsIn(dataset, search)) {
    const xy = projected[i];
    const n = xy.length / 2;
    const closed = n >= 4 && xy[0] === xy[2 * n - 2] && xy[1] === xy[2 * n - 1];
    clipLineToRect(xy, 0, n, closed, window.bbox, pieces, dataset.parts[i].elevation, dataset.parts[i].feature);
  }
  if (pieces.length === 0) {
    return unavailable(source, 'no_lines_in_window', `${source.name} has no contour lines in the window around this location. Contours here come only from this dataset; the national DEM is not substituted.`);
  }
  const all = pieces.pack();
  const elevations = [...new Set(all.elevation)];
  const choice = chooseInterval(
    requested,
    { floorM: source.floor_m ?? source.native_interval_m, multipleOfM: source.native_interval_m, maxLevels: limits.maxLevels, autoMaxLevels: limits.autoMaxLevels },
    (interval) => elevations.filter((e) => isMultipleOf(e, interval)).length,
  );
  const keep: number[] = [];
  for (let i = 0; i < all.elevation.length; i++) if (isMultipleOf(all.elevation[i], choice.interval_m)) keep.push(i);
  const lines = selectLines(all, keep);
  return assembleContours({
    window,
    lines,
    order: Array.from({ length: keep.length }, (_, i) => i),
    source,
    native_interval_m: source.native_interval_m,
    choice,
    limits,
  });
}
