/**
 * Contour tiles (issue 20): the contours engine run for a tile's box on the worker pool, at an interval
 * chosen per zoom, as the `contours` layer with `ele` (metres) and `level` (1 major, 0 minor) as
 * maplibre-contour names them. Each tile asks for a window centred on the tile and wide enough to hold it and
 * its buffer; the isolines are traced on the DEM's own cells, so neighbouring tiles draw the same lines
 * along their shared edge. Below {@link CONTOUR_MIN_ZOOM} a tile is refused as too coarse, never computed.
 */
import type { Feature } from 'geojson';
import { metresPerDegree } from '../geo/distance.js';
import type { PackedContoursLayer } from '../surfaces/contours/contours-layer.js';
import { unpackContours } from '../surfaces/contours/contours-layer.js';
import { NO_LIMITS } from '../surfaces/contours/request.js';
import type { ContoursRequest } from '../surfaces/contours/contours-surface.js';
import { BUFFER, EXTENT, type TileLayerSpec } from './vector-tiles.js';
import { growBox, tileBounds, type TileId } from './tile-math.js';

/** The lowest zoom contour tiles are made for (a z12 tile is about 8 km across at Australian latitudes). */
export const CONTOUR_MIN_ZOOM = 12;
export const CONTOUR_MAX_ZOOM = 17;

/** Minor and major intervals (metres) per zoom, the maplibre-contour way: `level` 1 on multiples of major. */
export const CONTOUR_THRESHOLDS: Record<number, [number, number]> = { 12: [20, 100], 13: [10, 50], 14: [5, 25], 15: [2, 10], 16: [1, 5], 17: [1, 5] };

export const CONTOUR_LAYER: TileLayerSpec = {
  id: 'contours',
  description: `Contour lines made on request from the DEM (or the state's contour lines) with the contours engine: ele (metres), level (1 major, 0 minor); minor/major intervals by zoom ${Object.entries(CONTOUR_THRESHOLDS).map(([z, [a, b]]) => `z${z} ${a}/${b} m`).join(', ')}.`,
  minzoom: CONTOUR_MIN_ZOOM,
  maxzoom: CONTOUR_MAX_ZOOM,
  fields: { ele: 'Number', level: 'Number' },
  paths: ['surfaces.contours'],
};

/** The contours request of tile `t`: centred on it, half-width covering the tile and its buffer, every line. */
export function contourTileRequest(t: TileId, base: Omit<ContoursRequest, 'lon' | 'lat' | 'interval' | 'halfWidth' | 'limits'>): ContoursRequest {
  const [w, s, e, n] = growBox(tileBounds(t), BUFFER / EXTENT);
  const lon = (w + e) / 2, lat = (s + n) / 2;
  const { kx, ky } = metresPerDegree(lat);
  const halfWidth = Math.ceil(Math.max(((e - w) * kx) / 2, ((n - s) * ky) / 2)) + 10;
  const [minor] = CONTOUR_THRESHOLDS[Math.min(CONTOUR_MAX_ZOOM, t.z)];
  return { ...base, lon, lat, interval: minor, halfWidth, limits: NO_LIMITS };
}

/** The layer's lines as tile features: `ele` and `level`; empty when the source has nothing here. */
export function contourTileFeatures(packed: PackedContoursLayer, t: TileId): Feature[] {
  const layer = unpackContours(packed);
  if (!layer.available) return [];
  const [, major] = CONTOUR_THRESHOLDS[Math.min(CONTOUR_MAX_ZOOM, t.z)];
  return layer.features.features.map((f, i) => {
    const ele = f.properties.elevation;
    return { type: 'Feature', id: i + 1, geometry: f.geometry, properties: { ele, level: Math.abs(ele / major - Math.round(ele / major)) < 1e-9 ? 1 : 0 } };
  });
}
