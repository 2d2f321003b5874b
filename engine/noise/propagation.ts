/**
 * Propagation from line-source segments to receivers: the hot path of the noise model.
 *
 * Each straight segment is an incoherent line source parallel to its centreline, offset toward the receiver
 * to CoRTN's source line (3.5 m inside the nearside edge; Chart 7). Integrating 1/r^2 along the source line
 * between the segment's ends gives the exact geometric energy factor
 *
 *   F = theta / (pi * ds),   theta = atan(t2 / ds) - atan(t1 / ds)
 *
 * where ds is the slant distance from the receiver to the (extended) source line, sqrt(dh^2 + dz^2), and
 * t1 < t2 are the segment ends' positions along it relative to the foot of the perpendicular. For an
 * infinite road theta = pi and F = 1/ds: CoRTN's distance correction -10 lg(d'/13.5) (3 dB per doubling).
 * For a finite segment theta / pi is CoRTN's angle-of-view correction 10 lg(theta/180) (Chart 10), measured
 * at the source line; far from a short segment theta ~ L ds / r^2 and F ~ L / (pi r^2): 6 dB per doubling,
 * a point source. The ground cover correction (Chart 8) multiplies F at the segment's closest horizontal
 * distance from the nearside edge; where a noise wall stands between road and receiver the barrier
 * correction (Charts 9/9a) is used instead of the ground term, never both.
 *
 * Everything runs in the scene's metric CRS (MGA metres); the emission of each feature is precomputed once
 * (featureEnergy), so a receiver costs one pass over the nearby segments, and a grid shares the per-segment
 * set-up across all its nodes.
 */
import { cortnBarrierCorrection, cortnPathDifference, cortnScreenedPathCorrection, CORTN_SOURCE_HEIGHT_M, CORTN_SOURCE_LINE_OFFSET_M, cortnGroundCorrection } from './cortn.js';
import {
  ENERGY_STRIDE,
  GEOMETRY_STRIDE,
  KIND_ROAD,
  NoiseScene,
  OFFSET_BARRIER_HEIGHT,
  OFFSET_BARRIER_OFFSET,
  OFFSET_DEN,
  OFFSET_DZ,
  OFFSET_GROUND_HALF_WIDTH,
  OFFSET_LENGTH,
  OFFSET_MIN_DISTANCE,
  OFFSET_SOURCE_OFFSET,
  OFFSET_UX,
  OFFSET_UY,
  OFFSET_X,
  OFFSET_Y,
  SEGMENT_STRIDE,
} from './noise-scene.js';

const INV_PI = 1 / Math.PI;
const HALF_PI = Math.PI / 2;

/**
 * atan2(y, x) for y >= 0 (the angle a segment subtends, in [0, pi]) by a 6-term odd minimax polynomial
 * for atan on [0, 1] (the form of Hastings, "Approximations for Digital Computers", 1955; cf. Abramowitz &
 * Stegun 4.4.47-49), folded to [0, pi] by symmetry. Measured error: under 2e-6 rad absolute and 2.3e-5
 * relative (0.0001 dB on any contribution). Cheaper than Math.atan2 in the grid's inner loop; every path
 * uses it, so the grid and the single-point evaluation agree exactly.
 */
export function subtendedAngle(y: number, x: number): number {
  const ax = x < 0 ? -x : x;
  const swap = y > ax;
  const z = swap ? ax / y : y === 0 ? 0 : y / ax;
  const z2 = z * z;
  let a = z * (0.99997726 + z2 * (-0.33262347 + z2 * (0.19354346 + z2 * (-0.11643287 + z2 * (0.05265332 + z2 * -0.0117212)))));
  if (swap) a = HALF_PI - a;
  return x < 0 ? Math.PI - a : a;
}

/** Linear interpolation in the scene's 1 m ground table. */
function groundAt(table: Float64Array, edgeDistance: number): number {
  const last = table.length - 2;
  const x = edgeDistance < 0 ? 0 : edgeDistance;
  const i = x >= last ? last : Math.floor(x);
  const f = x >= last ? 1 : x - i;
  return table[i] + (table[i + 1] - table[i]) * f;
}

/**
 * The energy factor of one segment at a receiver, without a noise wall: line-source spreading to the source
 * line, the subtended angle, and (when `halfWidth` >= 0) CoRTN's ground term at the closest horizontal
 * distance from the nearside edge. (ax, ay) is the segment start minus the receiver; 0 beyond `maxSq`.
 */
function openFactor(ax: number, ay: number, ux: number, uy: number, len: number, srcOffset: number, minD: number, dz2: number, halfWidth: number, table: Float64Array, maxSq: number): number {
  const t1 = ax * ux + ay * uy;
  const t2 = t1 + len;
  let perp = ax * uy - ay * ux;
  if (perp < 0) perp = -perp;
  const along = t1 > 0 ? t1 : t2 < 0 ? t2 : 0;
  const dc2 = perp * perp + along * along;
  if (dc2 > maxSq) return 0;
  let dh = perp - srcOffset;
  if (dh < minD) dh = minD;
  const ds = Math.sqrt(dh * dh + dz2);
  // theta = atan(t2/ds) - atan(t1/ds), folded into one atan2 (the difference lies in [0, pi)).
  const factor = (subtendedAngle(ds * len, ds * ds + t1 * t2) * INV_PI) / ds;
  return halfWidth >= 0 ? factor * groundAt(table, Math.sqrt(dc2) - halfWidth) : factor;
}

/**
 * The energy factor of segment `s` at receiver (px, py), metres^-1: multiply by the feature's line-source
 * strength (featureEnergy) for the receiver's relative energy. 0 beyond the scene's maximum distance.
 */
export function segmentFactor(scene: NoiseScene, s: number, px: number, py: number): number {
  const seg = scene.segments;
  const o = s * SEGMENT_STRIDE;
  const ax = seg[o + OFFSET_X] - px;
  const ay = seg[o + OFFSET_Y] - py;
  const ux = seg[o + OFFSET_UX];
  const uy = seg[o + OFFSET_UY];
  const len = seg[o + OFFSET_LENGTH];
  const g = scene.segmentFeature[s] * GEOMETRY_STRIDE;
  const geo = scene.featureGeometry;
  const srcOffset = geo[g + OFFSET_SOURCE_OFFSET];
  const dz = geo[g + OFFSET_DZ];
  const halfWidth = geo[g + OFFSET_GROUND_HALF_WIDTH];
  const wallHeight = geo[g + OFFSET_BARRIER_HEIGHT];
  const walled = wallHeight === wallHeight && halfWidth === halfWidth;
  const max = scene.receiver.maxDistanceM;
  const ground = walled || halfWidth !== halfWidth ? -1 : halfWidth;
  const factor = openFactor(ax, ay, ux, uy, len, srcOffset, geo[g + OFFSET_MIN_DISTANCE], dz * dz, ground, scene.groundFactor, max * max);
  if (!walled || factor === 0) return factor;
  // Behind the wall the barrier term replaces the ground term; in front of it the ground term applies.
  const t1 = ax * ux + ay * uy;
  const t2 = t1 + len;
  const perp = Math.abs(ax * uy - ay * ux);
  const along = t1 > 0 ? t1 : t2 < 0 ? t2 : 0;
  const edge = Math.sqrt(perp * perp + along * along) - halfWidth;
  const wallOffset = geo[g + OFFSET_BARRIER_OFFSET];
  if (perp > wallOffset && wallOffset > srcOffset) return factor * Math.pow(10, barrierPathCorrection(scene, perp, srcOffset, wallOffset, wallHeight, edge) / 10);
  return factor * groundAt(scene.groundFactor, edge);
}

/** The path correction (dB) behind a noise wall: the barrier or the ground term, whichever attenuates more. */
function barrierPathCorrection(scene: NoiseScene, perp: number, srcOffset: number, wallOffset: number, wallHeight: number, edge: number): number {
  const r = scene.receiver;
  const { delta, shadow } = cortnPathDifference({
    sourceToBarrier: wallOffset - srcOffset,
    barrierToReceiver: perp - wallOffset,
    barrierHeight: wallHeight - CORTN_SOURCE_HEIGHT_M,
    receiverHeight: r.heightM - CORTN_SOURCE_HEIGHT_M,
  });
  const ground = cortnGroundCorrection(edge, (CORTN_SOURCE_HEIGHT_M + r.heightM) / 2, r.groundCover);
  return cortnScreenedPathCorrection(cortnBarrierCorrection(delta, shadow), ground);
}

/**
 * Adds every segment's factor at (px, py) into `factors[feature]`, listing each feature touched for the
 * first time in `touched` (so the caller can read and reset only those). Returns the number of segments
 * examined.
 */
export function accumulateReceiverFactors(scene: NoiseScene, px: number, py: number, factors: Float64Array, touched: number[]): number {
  const r = scene.receiver.maxDistanceM;
  const ids = scene.segmentsInBox(px - r, py - r, px + r, py + r);
  const feat = scene.segmentFeature;
  for (let k = 0; k < ids.length; k++) {
    const s = ids[k];
    const v = segmentFactor(scene, s, px, py);
    if (v <= 0) continue;
    const f = feat[s];
    if (factors[f] === 0) touched.push(f);
    factors[f] += v;
  }
  return ids.length;
}

// Compact per-candidate record for the grid kernel.
const C_STRIDE = 10;
const C_X = 0, C_Y = 1, C_UX = 2, C_UY = 3, C_LEN = 4, C_E = 5, C_OFF = 6, C_MIN = 7, C_DZ2 = 8, C_HW = 9;

/**
 * Lden energy (relative, `10^(Lden/10)`) at each receiver node, road segments written to `road` and rail and
 * tram segments to `other` (kept apart because the transfer relation is calibrated on, and applied to, road
 * noise only). The segments near any node are gathered once into a compact record (position, direction,
 * length, Lden strength, source offset, heights, ground half-width), roads first, that every node then
 * reuses, so the per-node cost is one tight loop and a 9x9 grid costs about 81/49 of a 7x7 one, not more.
 * Segments of features with a noise wall go through the general {@link segmentFactor}.
 */
export function gridLdenEnergy(scene: NoiseScene, nodesX: ArrayLike<number>, nodesY: ArrayLike<number>, road: Float64Array, other: Float64Array): { segments: number } {
  const n = nodesX.length;
  const r = scene.receiver.maxDistanceM;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let j = 0; j < n; j++) {
    if (nodesX[j] < x0) x0 = nodesX[j];
    if (nodesX[j] > x1) x1 = nodesX[j];
    if (nodesY[j] < y0) y0 = nodesY[j];
    if (nodesY[j] > y1) y1 = nodesY[j];
  }
  road.fill(0, 0, n);
  other.fill(0, 0, n);
  if (n === 0) return { segments: 0 };
  const ids = scene.segmentsInBox(x0 - r, y0 - r, x1 + r, y1 + r);
  const seg = scene.segments;
  const feat = scene.segmentFeature;
  const geo = scene.featureGeometry;
  const energy = scene.featureEnergy;
  const kinds = scene.featureKind;
  const compact = new Float64Array(ids.length * C_STRIDE);
  const walled: number[] = [];
  let m = 0;
  let roadEnd = 0; // records [0, roadEnd) are road segments, the rest rail and tram
  const ordered: number[] = [];
  for (const s of ids) if (kinds[feat[s]] === KIND_ROAD) ordered.push(s);
  const roads = ordered.length;
  for (const s of ids) if (kinds[feat[s]] !== KIND_ROAD) ordered.push(s);
  for (let q = 0; q < ordered.length; q++) {
    const s = ordered[q];
    if (q === roads) roadEnd = m;
    const f = feat[s];
    const g = f * GEOMETRY_STRIDE;
    const e = energy[f * ENERGY_STRIDE + OFFSET_DEN];
    if (!(e > 0)) continue;
    if (geo[g + OFFSET_BARRIER_HEIGHT] === geo[g + OFFSET_BARRIER_HEIGHT]) {
      walled.push(s);
      continue;
    }
    const o = s * SEGMENT_STRIDE;
    const c = m * C_STRIDE;
    compact[c + C_X] = seg[o + OFFSET_X];
    compact[c + C_Y] = seg[o + OFFSET_Y];
    compact[c + C_UX] = seg[o + OFFSET_UX];
    compact[c + C_UY] = seg[o + OFFSET_UY];
    compact[c + C_LEN] = seg[o + OFFSET_LENGTH];
    compact[c + C_E] = e;
    compact[c + C_OFF] = geo[g + OFFSET_SOURCE_OFFSET];
    compact[c + C_MIN] = geo[g + OFFSET_MIN_DISTANCE];
    compact[c + C_DZ2] = geo[g + OFFSET_DZ] * geo[g + OFFSET_DZ];
    const hw = geo[g + OFFSET_GROUND_HALF_WIDTH];
    compact[c + C_HW] = hw === hw ? hw : -1;
    m++;
  }
  if (roads === ordered.length) roadEnd = m;
  const r2 = r * r;
  const table = scene.groundFactor;
  for (let j = 0; j < n; j++) {
    const px = nodesX[j];
    const py = nodesY[j];
    let sumRoad = 0;
    let sumOther = 0;
    const split = roadEnd * C_STRIDE;
    for (let c = 0; c < m * C_STRIDE; c += C_STRIDE) {
      const f = openFactor(compact[c + C_X] - px, compact[c + C_Y] - py, compact[c + C_UX], compact[c + C_UY], compact[c + C_LEN], compact[c + C_OFF], compact[c + C_MIN], compact[c + C_DZ2], compact[c + C_HW], table, r2);
      if (c < split) sumRoad += compact[c + C_E] * f;
      else sumOther += compact[c + C_E] * f;
    }
    for (const s of walled) {
      const e = energy[feat[s] * ENERGY_STRIDE + OFFSET_DEN] * segmentFactor(scene, s, px, py);
      if (kinds[feat[s]] === KIND_ROAD) sumRoad += e;
      else sumOther += e;
    }
    road[j] = sumRoad;
    other[j] = sumOther;
  }
  return { segments: ids.length };
}

/** The CoRTN source-line offset for a road of half-width `halfWidthM`: the line lies 3.5 m inside the nearside edge. */
export function roadSourceOffset(halfWidthM: number): number {
  return Math.max(0, halfWidthM - CORTN_SOURCE_LINE_OFFSET_M);
}
