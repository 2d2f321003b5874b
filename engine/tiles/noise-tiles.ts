/**
 * Noise tiles (issue 20): the modelled Lden of the noise engine as polygons by 5 dB band. For a tile, a
 * lattice of {@link NOISE_TILE_NODES} x {@link NOISE_TILE_NODES} nodes, regular in lon/lat, spans the tile and
 * a margin; the segment-by-node energies run on the worker pool (task `noise-grid`, the surface's own), each
 * node then takes the surface's per-node rule (nodeLevels: aircraft added, the transfer relation where a
 * monitored counter is near), and d3-contour traces the polygons on the lattice, mapped back to lon/lat.
 * The polygons nest, as d3-contour's do: each holds all the ground at or above its level (`lden_db`, the level;
 * `band`, "55+ dB"), so drawing them in order of level paints the 5 dB bands. It is a screening model at the
 * lattice's spacing (about 60 m at z15), as the surface is.
 */
import { contours } from 'd3-contour';
import type { Feature, MultiPolygon } from 'geojson';
import { createWindow, lonLatToWindow } from '../geo/window.js';
import { nodeLevels } from '../noise/noise-grid.js';
import type { NoiseGridInput, NoiseGridOutput } from '../noise/noise-grid-task.js';
import type { NoiseNetwork } from '../noise/noise-network.js';
import { calibrateTransferAt, resolveTransferOptions } from '../noise/transfer-calibration.js';
import type { TaskRunner } from '../pool/worker-pool.js';
import { growBox, tileBounds, type TileId } from './tile-math.js';
import type { TileLayerSpec } from './vector-tiles.js';

/** Lattice nodes per side of a noise tile. */
export const NOISE_TILE_NODES = 21;
/** Band edges, dB Lden (the WHO 2018 road guideline is 53 dB; bands are the usual 5 dB classes). */
export const NOISE_BANDS = [45, 50, 55, 60, 65, 70, 75];

export const NOISE_LAYER: TileLayerSpec = {
  id: 'noise',
  description: `Modelled road, rail and aircraft noise (Lden): nested polygons of the ground at or above each 5 dB level from ${NOISE_BANDS[0]} dB (lden_db, the level; band, e.g. "55+ dB"); drawn in order of level they paint the bands. The noise surface's model on a ${NOISE_TILE_NODES} x ${NOISE_TILE_NODES} lattice per tile: a screening model, not a measurement.`,
  minzoom: 14,
  maxzoom: 16,
  fields: { lden_db: 'Number', band: 'String' },
  paths: ['scores.noise.roads', 'scores.noise.rail', 'scores.noise.sources'],
};

/** The band polygons of tile `t` from `network` (lon/lat GeoJSON), empty where nothing reaches the lowest band. */
/** The lattice of tile `t`: the tile and a tenth more each side (so the bands run past the tile's buffer), N x N nodes. */
export function noiseTileLattice(t: TileId): { box: [number, number, number, number]; nodes: number } {
  return { box: growBox(tileBounds(t), 0.1), nodes: NOISE_TILE_NODES };
}

export async function noiseTileFeatures(network: NoiseNetwork, pool: TaskRunner<{ 'noise-grid': [NoiseGridInput, NoiseGridOutput] }>, t: TileId): Promise<Feature<MultiPolygon>[]> {
  const { box: [w, s, e, n], nodes: N } = noiseTileLattice(t);
  const lon = new Float64Array(N * N), lat = new Float64Array(N * N), x = new Float64Array(N * N), y = new Float64Array(N * N);
  const win = createWindow((w + e) / 2, (s + n) / 2, undefined, network.crs);
  for (let row = 0; row < N; row++) {
    for (let col = 0; col < N; col++) {
      const j = row * N + col;
      lon[j] = w + ((e - w) * col) / (N - 1);
      lat[j] = n - ((n - s) * row) / (N - 1);
      [x[j], y[j]] = lonLatToWindow(win, lon[j], lat[j]);
    }
  }
  const energy = await pool.run('noise-grid', { scene: network.scene.toShared(), nodesX: x, nodesY: y }, { transfer: [x.buffer, y.buffer] });
  const rel = calibrateTransferAt(network, (w + e) / 2, (s + n) / 2, resolveTransferOptions({}));
  const { lden } = nodeLevels(network, lon, lat, { road: energy.road, other: energy.other }, rel);
  const values = lden.map((v) => (v === null ? -Infinity : v));
  if (!values.some((v) => v >= NOISE_BANDS[0])) return [];
  // d3-contour puts value i at the centre of cell i: grid coordinate (c + 0.5, r + 0.5) is node (c, r).
  const toLonLat = (gx: number, gy: number): [number, number] => [w + ((e - w) * (gx - 0.5)) / (N - 1), n - ((n - s) * (gy - 0.5)) / (N - 1)];
  const bands = contours().size([N, N]).thresholds(NOISE_BANDS)(values);
  return bands
    .filter((b) => b.coordinates.length)
    .map((b, i) => ({
      type: 'Feature' as const,
      id: i + 1,
      geometry: { type: 'MultiPolygon' as const, coordinates: b.coordinates.map((poly) => poly.map((ring) => ring.map(([gx, gy]) => toLonLat(gx, gy)))) },
      properties: { lden_db: b.value, band: `${b.value}+ dB` },
    }));
}

