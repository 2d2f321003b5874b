/**
 * The analysis window: the square of +-1,500 m around a subject, in a local metric projection.
 *
 * The projection is GDA2020 / MGA for the zone containing the subject (EPSG:78zz), the grid the national
 * 5 m DEM and most state layers are published on, so a DEM tile in that zone is read at its native cells with
 * no resampling. MGA metres are grid metres: the MGA scale factor (0.9996 on the central meridian, about
 * 1.0004 at the zone edge) makes the window up to 0.04 % larger or smaller on the ground, under 1.2 m.
 * A window is plain data (no functions), so it crosses the worker boundary unchanged.
 */
import { invalidArgument } from '../errors.js';
import type { BBox } from './bbox.js';
import { getTransformer, LONLAT, mgaCrsForLon, transformBBox } from './crs.js';
import { northUpTransform, type GeoTransform } from './geo-transform.js';

/** Half-width of the standard analysis window, metres (the spec's "about 1.5 km window"). */
export const WINDOW_HALF_WIDTH_M = 1500;

/** A square window around a subject point. */
export interface Window {
  /** Subject longitude, degrees. */
  lon: number;
  /** Subject latitude, degrees. */
  lat: number;
  /** The metric CRS of `x`, `y` and `bbox` (GDA2020 / MGA zone of the subject by default). */
  crs: string;
  /** Subject easting in `crs`, metres. */
  x: number;
  /** Subject northing in `crs`, metres. */
  y: number;
  /** Half the side of the square, metres (default 1,500). */
  halfWidth: number;
  /** `[x - halfWidth, y - halfWidth, x + halfWidth, y + halfWidth]` in `crs`. */
  bbox: BBox;
}

/** The shape and georeferencing of a grid, without its values. */
export interface GridSpec {
  width: number;
  height: number;
  transform: GeoTransform;
  crs: string;
}

/** Throws `INVALID_ARGUMENT` unless lon and lat are finite and in range. */
export function assertLonLat(lon: number, lat: number, names: [string, string] = ['lng', 'lat']): void {
  if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180) {
    throw invalidArgument(names[0], `${names[0]} must be a number from -180 to 180, got ${String(lon)}`);
  }
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw invalidArgument(names[1], `${names[1]} must be a number from -90 to 90, got ${String(lat)}`);
  }
}

/**
 * The window of `halfWidth` metres (default 1,500) around (lon, lat), in `crs` (default: the MGA zone of
 * the subject).
 */
export function createWindow(lon: number, lat: number, halfWidth = WINDOW_HALF_WIDTH_M, crs = mgaCrsForLon(lon)): Window {
  assertLonLat(lon, lat);
  if (!(halfWidth > 0) || !Number.isFinite(halfWidth)) {
    throw invalidArgument('half_width', `window half-width must be a positive number of metres, got ${halfWidth}`);
  }
  const [x, y] = getTransformer(LONLAT, crs).forward(lon, lat);
  return { lon, lat, crs, x, y, halfWidth, bbox: [x - halfWidth, y - halfWidth, x + halfWidth, y + halfWidth] };
}

/** The window's extent in lon/lat (the box around its projected square). */
export function windowLonLatBBox(w: Window): BBox {
  return transformBBox(w.bbox, w.crs, LONLAT);
}

/** Projects a window coordinate to lon/lat. */
export function windowToLonLat(w: Window, x: number, y: number): [number, number] {
  return getTransformer(w.crs, LONLAT).forward(x, y);
}

/** Projects lon/lat into the window's CRS. */
export function lonLatToWindow(w: Window, lon: number, lat: number): [number, number] {
  return getTransformer(LONLAT, w.crs).forward(lon, lat);
}

/**
 * A north-up grid covering the window with square cells of `cellSize` metres. The side is rounded to a whole
 * number of cells, so the subject sits at the centre of the grid (between cells for an even count).
 */
export function windowGridSpec(w: Window, cellSize: number): GridSpec {
  if (!(cellSize > 0)) throw invalidArgument('cell_size', `cell size must be positive, got ${cellSize}`);
  const n = Math.max(1, Math.round((2 * w.halfWidth) / cellSize));
  const half = (n * cellSize) / 2;
  return { width: n, height: n, transform: northUpTransform(w.x - half, w.y + half, cellSize), crs: w.crs };
}
