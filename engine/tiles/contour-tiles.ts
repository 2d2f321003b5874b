/**
 * Contour tiles (issue 20): the contours engine run for a tile's box on the worker pool, at an interval
 * chosen per zoom, as the `contours` layer with `ele` (metres) and `level` (1 major, 0 minor) as
 * maplibre-contour names them. Each tile asks for a window centred on the tile and wide enough to hold it and
 * its buffer; the isolines are traced on the DEM's own cells, so neighbouring tiles draw the same lines
 * along their shared edge. Below {@link CONTOUR_MIN_ZOOM} a tile is refused as too coarse, never computed.
 */
import type { Feature } from 'geojson';
import { metresPerDegree } from '../geo/distance.js';
import { sharedRaster } from '../raster/raster-pool.js';
import { gridStats } from '../raster/grid-stats.js';
import type { PackedContoursLayer } from '../surfaces/contours/contours-layer.js';
import { unpackContours } from '../surfaces/contours/contours-layer.js';
import { computeContours, type ContoursRequest } from '../surfaces/contours/contours-surface.js';
import { levelsInRange } from '../surfaces/contours/interval.js';
import { gridIsolines } from '../surfaces/contours/dem-contours.js';
import { NO_LIMITS } from '../surfaces/contours/request.js';
import { chooseContourSource } from '../surfaces/contours/sources.js';
import { BUFFER, encodeTile, EXTENT, type TileLayerSpec } from './vector-tiles.js';
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
    return { type: 'Feature', id: i + 1, geometry: f.geometry, properties: { ele, level: levelOf(ele, major) } };
  });
}

/** What the `contour-tile` task is given: the tile, and the state and sources at its centre. */
export interface ContourTileInput {
  tile: TileId;
  state: string | null;
  sources: ContoursRequest['sources'];
}

/** A finished contour tile: its MVT bytes (null when empty) and the source drawn (null when none applies). */
export interface ContourTile {
  bytes: Uint8Array | null;
  source: string | null;
}

/** `level` of an elevation: 1 on a multiple of the zoom's major interval. */
const levelOf = (ele: number, major: number) => (Math.abs(ele / major - Math.round(ele / major)) < 1e-9 ? 1 : 0);

/**
 * A contour tile, made whole in the worker that traces it (issue 36: the cold tile is what a map waits for).
 * From a DEM: the DEM's own cells under the tile and its buffer (plus a cell of margin), every level of the
 * zoom's minor interval traced in one pass (engine/surfaces/contours/isolines.ts), the vertices taken from
 * pixels to the DEM's CRS to lon/lat on a lattice transform, then clipped, simplified and encoded for the
 * tile as every layer is ({@link encodeTile}). None of the per-address layer's work (the window square, its
 * coverage, nearest-first order, limits, GeoJSON rounding) is needed for a tile. A state's contour lines
 * (VIC, QLD, TAS) are selected as the address layer selects them. Lines are traced on the DEM's cells, so
 * neighbouring tiles draw the same line along their shared edge.
 */
export async function contourTile(input: ContourTileInput): Promise<ContourTile> {
  const t = input.tile;
  const [minor, major] = CONTOUR_THRESHOLDS[Math.min(CONTOUR_MAX_ZOOM, t.z)];
  const request = contourTileRequest(t, { state: input.state, sources: input.sources });
  const choice = chooseContourSource(request.lon, request.lat, request.state, request.sources);
  if (choice.kind === 'vector') {
    const packed = await computeContours(request);
    return { bytes: encodeTile('contours', contourTileFeatures(packed, t), t), source: packed.available ? packed.source : null };
  }
  if (choice.kind !== 'dem') return { bytes: null, source: null };
  const src = choice.source;
  const raster = await sharedRaster(src.path, { crs: src.crs });
  let grid;
  try {
    grid = await raster.readBBox(growBox(tileBounds(t), BUFFER / EXTENT), { crs: 'EPSG:4326', margin: 1 });
  } finally {
    await raster.close();
  }
  if (!grid) return { bytes: null, source: null };
  const stats = gridStats(grid);
  if (stats.count === 0) return { bytes: null, source: null };
  const interval = Math.max(minor, src.floor_m ?? 1);
  const levels = levelsInRange(stats.min, stats.max, interval);
  const set = gridIsolines(grid, levels, 'EPSG:4326', interval);
  const xy = set.xy;
  const features: Feature[] = [];
  for (let i = 0; i < set.lineLevel.length; i++) {
    const coordinates: [number, number][] = [];
    for (let p = set.lineOffsets[i]; p < set.lineOffsets[i + 1]; p++) coordinates.push([xy[2 * p], xy[2 * p + 1]]);
    if (coordinates.length < 2) continue;
    const ele = levels[set.lineLevel[i]];
    features.push({ type: 'Feature', id: i + 1, geometry: { type: 'LineString', coordinates }, properties: { ele, level: levelOf(ele, major) } });
  }
  return { bytes: encodeTile('contours', features, t), source: src.id };
}
