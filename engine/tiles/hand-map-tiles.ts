/**
 * HAND tiles (issue 20): height above nearest drainage from the engine's HAND tiles (engine/hydro/, each
 * computed with its margin, so values agree across map-tile edges: a map tile only reads cells), as nested
 * polygons of the ground at most 1, 3, 5, 10 and 20 m above its drainage. A lattice of
 * {@link HAND_TILE_NODES} x {@link HAND_TILE_NODES} points, regular in lon/lat over the tile and a margin,
 * reads the cells; d3-contour traces `-HAND` at the class edges, so each polygon holds the ground with HAND at
 * or below its `hand_max_m` (`class`, "HAND <= 3 m"). Lower ground nearer a channel is more exposed to
 * riverine flooding: a screening layer, as the flood score's terrain part is.
 */
import { contours } from 'd3-contour';
import type { Feature, MultiPolygon } from 'geojson';
import { growBox, tileBounds, type TileId } from './tile-math.js';
import type { TileLayerSpec } from './vector-tiles.js';

/** Lattice points per side of a HAND tile. */
export const HAND_TILE_NODES = 64;
/** Class edges, metres of HAND. */
export const HAND_CLASSES = [1, 3, 5, 10, 20];

export const HAND_LAYER: TileLayerSpec = {
  id: 'hand',
  description: `Height above nearest drainage (HAND) from the DEM: nested polygons of the ground at most ${HAND_CLASSES.join(', ')} m above its drainage (hand_max_m; class, e.g. "HAND <= 3 m"), read from the HAND tiles the flood score uses. A terrain screening layer, not a flood map.`,
  minzoom: 14,
  maxzoom: 17,
  fields: { hand_max_m: 'Number', class: 'String' },
  paths: ['scores.flood.terrain'],
};

/** The lattice of tile `t`: the tile and a tenth more each side, N x N points (row 0 north). */
export function handTileLattice(t: TileId): { box: [number, number, number, number]; nodes: number; lon: Float64Array; lat: Float64Array } {
  const box = growBox(tileBounds(t), 0.1);
  const [w, s, e, n] = box;
  const N = HAND_TILE_NODES;
  const lon = new Float64Array(N * N), lat = new Float64Array(N * N);
  for (let row = 0; row < N; row++) {
    for (let col = 0; col < N; col++) {
      lon[row * N + col] = w + ((e - w) * col) / (N - 1);
      lat[row * N + col] = n - ((n - s) * row) / (N - 1);
    }
  }
  return { box, nodes: N, lon, lat };
}

/** The class polygons of tile `t` from the HAND values of its lattice (NaN off the DEM); empty when none. */
export function handTileFeatures(t: TileId, values: Float32Array): Feature<MultiPolygon>[] {
  const { box: [w, s, e, n], nodes: N } = handTileLattice(t);
  if (!values.some((v) => Number.isFinite(v) && v <= HAND_CLASSES[HAND_CLASSES.length - 1])) return [];
  const neg = Array.from(values, (v) => (Number.isFinite(v) ? -v : -Infinity));
  const toLonLat = (gx: number, gy: number): [number, number] => [w + ((e - w) * (gx - 0.5)) / (N - 1), n - ((n - s) * (gy - 0.5)) / (N - 1)];
  return contours()
    .size([N, N])
    .thresholds(HAND_CLASSES.map((h) => -h).reverse())(neg)
    .filter((b) => b.coordinates.length)
    .map((b, i) => ({
      type: 'Feature' as const,
      id: i + 1,
      geometry: { type: 'MultiPolygon' as const, coordinates: b.coordinates.map((poly) => poly.map((ring) => ring.map(([gx, gy]) => toLonLat(gx, gy)))) },
      properties: { hand_max_m: -b.value, class: `HAND <= ${-b.value} m` },
    }));
}
