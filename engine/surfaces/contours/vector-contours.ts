/**
 * Contours from a state's published contour lines (VIC, QLD, TAS): the lines are selected, never re-traced.
 * Features touching the window are projected to the window's CRS and clipped to its square (in file order:
 * the source order, which the 1,200-line cap keeps the head of); the interval is chosen from the elevations
 * present; the lines whose elevation is a multiple of it are kept; then the shared limits and output. A
 * dataset with no lines in the window gives `available: false` naming it, never a fallback to the DEM.
 */
import type { Position } from 'geojson';
import { invalidData } from '../../errors.js';
import { bboxIntersects, emptyBBox, extendBBox } from '../../geo/bbox.js';
import { getTransformer, LONLAT } from '../../geo/crs.js';
import { createWindow, windowLonLatBBox } from '../../geo/window.js';
import { readGeoJsonLayer } from '../../vector/geojson-reader.js';
import { clipLineToRect } from './clip.js';
import { assembleContours, unavailable, type PackedContoursLayer } from './contours-layer.js';
import { chooseInterval, isMultipleOf, validateInterval } from './interval.js';
import { LineBuffer, selectLines } from './line-buffer.js';
import { resolveLimits, type ContourRequestOptions } from './request.js';
import type { VectorContourSource } from './sources.js';

/** The line parts of a feature's geometry, or null when it is not a (Multi)LineString. */
function lineParts(geometry: { type: string; coordinates?: unknown }): Position[][] | null {
  if (geometry.type === 'LineString') return [geometry.coordinates as Position[]];
  if (geometry.type === 'MultiLineString') return geometry.coordinates as Position[][];
  return null;
}

/** Contours of the state dataset `source` around (lon, lat). */
export async function vectorContours(source: VectorContourSource, lon: number, lat: number, options: ContourRequestOptions = {}): Promise<PackedContoursLayer> {
  const requested = validateInterval(options.interval);
  const window = createWindow(lon, lat, options.halfWidth);
  const limits = resolveLimits(options.limits);
  const layer = await readGeoJsonLayer(source.path, { crs: source.crs });
  const property = source.elevation_property ?? 'elevation';
  // A 1 % margin on the lon/lat box: the window square's edges are curves in lon/lat.
  const box = windowLonLatBBox(window);
  const mx = (box[2] - box[0]) * 0.01, my = (box[3] - box[1]) * 0.01;
  const search: typeof box = [box[0] - mx, box[1] - my, box[2] + mx, box[3] + my];
  const toWindow = getTransformer(LONLAT, window.crs);

  const pieces = new LineBuffer();
  for (let f = 0; f < layer.features.length; f++) {
    const feature = layer.features[f];
    const parts = lineParts(feature.geometry);
    if (!parts) throw invalidData(source.path, `feature ${f} is a ${feature.geometry.type}; contour datasets hold LineString or MultiLineString features`, { feature: f });
    const elevation = feature.properties?.[property];
    if (typeof elevation !== 'number' || !Number.isFinite(elevation)) {
      throw invalidData(source.path, `feature ${f} has no numeric "${property}" property (got ${JSON.stringify(elevation)})`, { feature: f, property });
    }
    for (const part of parts) {
      const bb = emptyBBox();
      for (const p of part) extendBBox(bb, p[0], p[1]);
      if (!bboxIntersects(bb, search)) continue;
      const xy = new Float64Array(2 * part.length);
      for (let i = 0; i < part.length; i++) {
        xy[2 * i] = part[i][0];
        xy[2 * i + 1] = part[i][1];
      }
      toWindow.forwardArray(xy);
      const n = part.length;
      const closed = n >= 4 && xy[0] === xy[2 * n - 2] && xy[1] === xy[2 * n - 1];
      clipLineToRect(xy, 0, n, closed, window.bbox, pieces, elevation, f);
    }
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
