/**
 * `surfaces.noise` (spec section 2.7): a grid of modelled Lden and 0-100 score on 5, 7 (default) or 9 nodes
 * per side at 500, 375 or 300 m spacing (spec section 4, `noise_cells`), centred on the subject: row 0 is
 * the northern edge, column 0 the western edge, and the subject is the centre node. Node (row, col) lies at
 * x = x0 + (col - k) * spacing, y = y0 + (k - row) * spacing in the network's MGA CRS, k = (cells - 1) / 2.
 *
 * The heavy part (every road and rail segment against every node) is {@link gridLdenEnergy}: per-segment
 * work is shared across nodes, so 9x9 costs about 81/49 = 1.65x of 7x7, not the 2.6x the spec's service
 * quotes. It runs in-process ({@link noiseSurface}) or as the `noise-grid` worker task
 * ({@link noiseSurfaceOnPool}), both assembled by {@link assembleNoiseSurface}.
 *
 * `model_path` says which path produced the nodes: each node takes the transfer path when a matched counter
 * lies within the counter range of the node (with the relation calibrated for the subject), else physics;
 * `node_paths` lists them and `model_path` is `transfer`, `physics` or `mixed`, so the two are never
 * blended silently.
 */
import { invalidArgument } from '../errors.js';
import type { GeoTransform } from '../geo/geo-transform.js';
import { createWindow, windowToLonLat } from '../geo/window.js';
import type { TaskRunner } from '../pool/worker-pool.js';
import type { NoiseGridInput, NoiseGridOutput, NoiseMethod } from './noise-grid-task.js';
import { cnossosGridEnergy, sceneCnossosTable } from './cnossos-grid.js';
import { aircraftNoiseAt } from './point-evaluation.js';
import { dbToEnergy, reportDb } from './decibels.js';
import type { NoiseModelPath } from './model-path.js';
import { countersNear, type NoiseNetwork } from './noise-network.js';
import { noiseScoreFromLden } from './noise-score-scale.js';
import type { NoiseScene } from './noise-scene.js';
import { gridLdenEnergy } from './propagation.js';
import { calibrateTransferAt, resolveTransferOptions, transferredLden, type TransferOptions, type TransferRelation } from './transfer-calibration.js';

/** Node spacing in metres for each accepted `noise_cells` value (spec section 4). */
export const NOISE_GRID_SPACING_M: Readonly<Record<5 | 7 | 9, number>> = Object.freeze({ 5: 500, 7: 375, 9: 300 });

/** The default number of nodes per side. */
export const DEFAULT_NOISE_CELLS = 7;

/** Nodes per side and their spacing. */
export interface NoiseGridSpec {
  cells: 5 | 7 | 9;
  spacingM: number;
}

/** Validates `noise_cells`: 5, 7 or 9, else INVALID_ARGUMENT naming the parameter. */
export function noiseGridSpec(cells: unknown = DEFAULT_NOISE_CELLS): NoiseGridSpec {
  if (cells !== 5 && cells !== 7 && cells !== 9) {
    throw invalidArgument('noise_cells', `noise_cells must be 5, 7 or 9, got ${JSON.stringify(cells)}`, { value: cells });
  }
  return { cells, spacingM: NOISE_GRID_SPACING_M[cells] };
}

/** Node positions of a grid around a subject. */
export interface NoiseGridNodes extends NoiseGridSpec {
  crs: string;
  /** Subject position in `crs`, metres. */
  x0: number;
  y0: number;
  /** Row-major node coordinates in `crs`, row 0 north, column 0 west. */
  x: Float64Array;
  y: Float64Array;
  lon: Float64Array;
  lat: Float64Array;
}

/** The nodes of a `cells` x `cells` grid centred on (lon, lat), in the network's CRS and in lon/lat. */
export function noiseGridNodes(network: NoiseNetwork, lon: number, lat: number, cells: unknown = DEFAULT_NOISE_CELLS): NoiseGridNodes {
  const spec = noiseGridSpec(cells);
  // The analysis window in the network's metric CRS (the MGA zone the segments were projected into once).
  const w = createWindow(lon, lat, undefined, network.crs);
  const n = spec.cells;
  const k = (n - 1) / 2;
  const x = new Float64Array(n * n), y = new Float64Array(n * n), lo = new Float64Array(n * n), la = new Float64Array(n * n);
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const j = row * n + col;
      x[j] = w.x + (col - k) * spec.spacingM;
      y[j] = w.y + (k - row) * spec.spacingM;
      if (row === k && col === k) {
        lo[j] = lon; // the subject node is the subject, exactly
        la[j] = lat;
      } else {
        [lo[j], la[j]] = windowToLonLat(w, x[j], y[j]);
      }
    }
  }
  return { ...spec, crs: network.crs, x0: w.x, y0: w.y, x, y, lon: lo, lat: la };
}

/** Physics-path Lden energies per node, row-major: road apart from rail and tram. */
export interface NoiseGridEnergy {
  road: Float64Array;
  other: Float64Array;
  /**
   * With the cnossos method: CoRTN's road and other energy, which the transfer relation (calibrated on CoRTN
   * levels at the loggers) and the nodes that take the transfer path use; the method changes the physics path only.
   */
  transfer?: { road: Float64Array; other: Float64Array };
  /** Segments examined (the work done). */
  segments?: number;
}

/** The physics path's road and rail + tram Lden energy at each node (the part the worker task computes). */
export function noiseGridEnergy(scene: NoiseScene, nodesX: Float64Array, nodesY: Float64Array, method: NoiseMethod = 'cortn', withTransfer = true): NoiseGridEnergy {
  const road = new Float64Array(nodesX.length);
  const other = new Float64Array(nodesX.length);
  if (method === 'cnossos') {
    const { segments } = cnossosGridEnergy(scene, nodesX, nodesY, road, other, sceneCnossosTable(scene));
    // CoRTN's energies too only when a node takes the transfer path (calibrated on CoRTN).
    if (!withTransfer) return { road, other, segments };
    const t = { road: new Float64Array(nodesX.length), other: new Float64Array(nodesX.length) };
    gridLdenEnergy(scene, nodesX, nodesY, t.road, t.other);
    return { road, other, transfer: t, segments };
  }
  return { road, other, segments: gridLdenEnergy(scene, nodesX, nodesY, road, other).segments };
}

/** The transfer relation at the grid's subject, and whether any node takes the transfer path (a counter in range). */
function gridTransfer(network: NoiseNetwork, nodes: NoiseGridNodes, options: NoiseSurfaceOptions): { relation: TransferRelation | null; anyNode: boolean } {
  const t = resolveTransferOptions(options);
  const k = (nodes.cells - 1) / 2;
  const relation = calibrateTransferAt(network, nodes.lon[k * nodes.cells + k], nodes.lat[k * nodes.cells + k], t);
  let anyNode = false;
  for (let j = 0; j < nodes.lon.length && relation && !anyNode; j++) anyNode = countersNear(network, nodes.lon[j], nodes.lat[j], t.counterRangeM).length > 0;
  return { relation, anyNode };
}

/** The `surfaces.noise` object. */
export interface NoiseSurface {
  cells: number;
  spacing_m: number;
  width: number;
  height: number;
  /** CRS of `transform`. */
  crs: string;
  /** GDAL-order transform whose cell centres are the nodes (row 0 north). */
  transform: [number, number, number, number, number, number];
  /** The subject's node. */
  subject: { row: number; col: number };
  /** Modelled Lden per node, row-major, dB (null where nothing is modelled in range). */
  lden_db: (number | null)[];
  /** 0-100 score per node (100 = loudest). */
  score: (number | null)[];
  /** Path of each node. */
  node_paths: NoiseModelPath[];
  /**
   * `transfer` or `physics` when every node took that path, else `mixed`. Spec section 2.7 says only that
   * `model_path` "states which model path produced nodes (transfer and physics are not blended silently)"; it
   * names no closed set of values. A grid whose nodes took different paths has no single path to state, and
   * naming the majority would hide the others, so `mixed` says so and `node_paths` gives each node's path
   * (no node value is itself a blend of the two). `scores.noise.lden_source` stays `transfer` | `physics`.
   */
  model_path: NoiseModelPath | 'mixed';
  model_path_note: string;
  /** Node positions, row-major. */
  nodes: { lng: number[]; lat: number[] };
  /** The physics path's propagation method, and what it is. */
  physics_method: NoiseMethod;
  physics_method_note: string;
}

/** Options of the surface. */
export interface NoiseSurfaceOptions extends TransferOptions {
  /** Nodes per side: 5, 7 (default) or 9. */
  cells?: unknown;
  /** The physics path's propagation: `cortn` (default, Australian practice) or `cnossos` (CNOSSOS-EU per octave band). */
  method?: NoiseMethod;
}

/** What each physics method is, for the surface's `physics_method_note`. */
export const NOISE_METHOD_NOTES: Record<NoiseMethod, string> = {
  cortn: 'CoRTN (UK DoT 1988) broadband propagation: line sources, distance, angle of view, ground cover and barrier charts.',
  cnossos: 'CNOSSOS-EU propagation per octave band (Directive 2002/49/EC Annex II, checked on ISO/TR 17534-4): point sources along the roads, ground over its mean plane in homogeneous and favourable conditions (p = 0.5), air absorption, noise walls as thin screens; flat ground (no terrain, buildings or lateral paths), and the emission is CoRTN\'s broadband level spread over EN 1793-3\'s traffic spectrum, not CNOSSOS-EU\'s own road emission.',
};

/**
 * Applies the per-node path (the relation to road energy only, then rail, tram and aircraft added unscaled:
 * {@link transferredLden}, the formula the single-point score uses) and the score mapping.
 */
export function assembleNoiseSurface(network: NoiseNetwork, nodes: NoiseGridNodes, physicsEnergy: NoiseGridEnergy, options: NoiseSurfaceOptions = {}, relation?: TransferRelation | null): NoiseSurface {
  const t = resolveTransferOptions(options);
  const n = nodes.cells;
  const k = (n - 1) / 2;
  const rel = relation !== undefined ? relation : calibrateTransferAt(network, nodes.lon[k * n + k], nodes.lat[k * n + k], t);
  const { lden, paths } = nodeLevels(network, nodes.lon, nodes.lat, physicsEnergy, rel, options);
  const score = lden.map((v) => noiseScoreFromLden(v));
  const transfer = paths.filter((p) => p === 'transfer').length;
  const modelPath: NoiseModelPath | 'mixed' = transfer === 0 ? 'physics' : transfer === n * n ? 'transfer' : 'mixed';
  const physics = options.method === 'cnossos' ? 'CNOSSOS-EU' : 'CoRTN';
  const note =
    modelPath === 'physics'
      ? rel
        ? `no node has a monitored counter within ${t.counterRangeM} m: ${physics} physics path at every node`
        : `${physics} physics path at every node (no transfer relation: fewer than ${t.minPairs} logger-counter pairs within ${t.calibrationRadiusM / 1000} km)`
      : modelPath === 'transfer'
        ? `transfer path at every node (relation: ${rel!.fit}, ${rel!.n} pairs)`
        : `${transfer} of ${n * n} nodes have a monitored counter within ${t.counterRangeM} m and use the transfer path (relation: ${rel!.fit}, ${rel!.n} pairs); the rest use the ${physics} physics path; see node_paths`;
  const s = nodes.spacingM;
  return {
    cells: n,
    spacing_m: s,
    width: n,
    height: n,
    crs: nodes.crs,
    transform: [nodes.x0 - (k + 0.5) * s, s, 0, nodes.y0 + (k + 0.5) * s, 0, -s],
    subject: { row: k, col: k },
    lden_db: lden,
    score,
    node_paths: paths,
    model_path: modelPath,
    model_path_note: note,
    nodes: { lng: Array.from(nodes.lon, (v) => Math.round(v * 1e6) / 1e6), lat: Array.from(nodes.lat, (v) => Math.round(v * 1e6) / 1e6) },
    physics_method: options.method ?? 'cortn',
    physics_method_note: NOISE_METHOD_NOTES[options.method ?? 'cortn'],
  };
}

/**
 * Modelled Lden (dB as reported) at each node from its physics-path energies: aircraft added, and the transfer
 * relation `rel` applied to the road part where a monitored counter is near (the surface's per-node rule; the
 * noise tiles use it on their own lattice).
 */
export function nodeLevels(network: NoiseNetwork, lon: ArrayLike<number>, lat: ArrayLike<number>, physicsEnergy: NoiseGridEnergy, rel: TransferRelation | null, options: TransferOptions = {}): { lden: (number | null)[]; paths: NoiseModelPath[] } {
  const t = resolveTransferOptions(options);
  const lden: (number | null)[] = [];
  const paths: NoiseModelPath[] = [];
  for (let j = 0; j < lon.length; j++) {
    const air = aircraftNoiseAt(network, lon[j], lat[j]);
    const counted = rel !== null && countersNear(network, lon[j], lat[j], t.counterRangeM).length > 0;
    // A transfer node applies the relation to CoRTN's levels, which it was calibrated on, whatever the physics method.
    const e = counted && physicsEnergy.transfer ? physicsEnergy.transfer : physicsEnergy;
    const other = e.other[j] + (air ? dbToEnergy(air.ldenDb) : 0);
    const level = transferredLden(counted ? rel : null, e.road[j], other).totalDb;
    paths.push(counted ? 'transfer' : 'physics');
    lden.push(reportDb(level));
  }
  return { lden, paths };
}

/** `surfaces.noise` computed in this thread. */
export function noiseSurface(network: NoiseNetwork, lon: number, lat: number, options: NoiseSurfaceOptions = {}): NoiseSurface {
  const nodes = noiseGridNodes(network, lon, lat, options.cells ?? DEFAULT_NOISE_CELLS);
  const { relation, anyNode } = gridTransfer(network, nodes, options);
  return assembleNoiseSurface(network, nodes, noiseGridEnergy(network.scene, nodes.x, nodes.y, options.method, anyNode), options, relation);
}

/**
 * `surfaces.noise` with the segment-by-node work on a worker (task `noise-grid`): the scene travels as
 * shared buffers (no copy), node coordinates are transferred, the energies come back transferred.
 */
export async function noiseSurfaceOnPool(pool: TaskRunner<{ 'noise-grid': [NoiseGridInput, NoiseGridOutput] }>, network: NoiseNetwork, lon: number, lat: number, options: NoiseSurfaceOptions & { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<NoiseSurface> {
  const nodes = noiseGridNodes(network, lon, lat, options.cells ?? DEFAULT_NOISE_CELLS);
  const nodesX = nodes.x.slice();
  const nodesY = nodes.y.slice();
  const { relation, anyNode } = gridTransfer(network, nodes, options);
  const out = await pool.run(
    'noise-grid',
    { scene: network.scene.toShared(), nodesX, nodesY, method: options.method, transfer: anyNode },
    { signal: options.signal, timeoutMs: options.timeoutMs, transfer: [nodesX.buffer, nodesY.buffer] },
  );
  return assembleNoiseSurface(network, nodes, { road: out.road, other: out.other, transfer: out.transfer }, options, relation);
}
