/**
 * The `cnossos` method of the noise model's physics path (issue 49): road and rail segments as point sources
 * and CNOSSOS-EU propagation per octave band to each grid node, over flat ground.
 *
 * - **Emission**: the model's CoRTN broadband line-source strength (featureEnergy: `10^(Lref/10) x dref`, the
 *   energy at slant distance ds from a long straight source being strength / ds over hard ground) spread over
 *   a stated A-weighted spectrum ({@link ROAD_SPECTRUM_A}) and given to point sources along the source line,
 *   each of power strength x length x 10^1.1 / (2 pi): the power for which a long line of such points over
 *   hard ground (A_ground,H = -3 dB) near the road gives exactly CoRTN's strength / ds. So the two methods agree
 *   where CoRTN is calibrated (close, hard ground) and differ by what CNOSSOS adds: the ground's effect per
 *   band over its mean plane, favourable conditions (p), and the air's absorption. It is not CNOSSOS-EU's own
 *   road emission (its per-vehicle-category coefficients); the payload's caveats say so.
 * - **Sources**: each segment is cut, as seen from the node, into pieces of equal angle (1/16 of a half-turn at
 *   most), a point source at each piece's middle, 0.05 m above the road (CNOSSOS's road source height), on
 *   CoRTN's source line (3.5 m inside the nearside edge): the line's spreading is integrated exactly whatever
 *   its length, the ground and air sampled along it.
 * - **Paths**: flat ground, source 0.05 m and receiver at the scene's receiver height; the ground factor G of
 *   a path is the scene's ground cover beyond the road's nearside edge and 0 (hard) over the road; G_s = 0.
 *   The long-term level takes favourable conditions with probability `p` (default 0.5). A noise wall on a
 *   feature is a thin screen in the path's cut profile (pathLevels: diffraction with the ground each side).
 * - **Cost**: per scene, a table of each band's A_atm + A_ground, homogeneous and favourable, combined into one
 *   broadband long-term factor, for every metre of distance and every tenth of G_path (ground-table.ts does the
 *   same for CoRTN); a path is then A_div and one bilinear lookup, no allocation.
 *
 * Not here: terrain (profiles cut from the DEM), buildings (diffraction and reflections) and lateral paths.
 */
import { BAND_COUNT, OCTAVE_BANDS, airAbsorption } from './cnossos/bands.js';
import { groundF, groundH, groundSegment } from './cnossos/ground.js';
import { longTermLevel, pathLevels } from './cnossos/path.js';
import type { CutProfile } from './cnossos/profile.js';
import {
  ENERGY_STRIDE,
  GEOMETRY_STRIDE,
  KIND_ROAD,
  OFFSET_BARRIER_HEIGHT,
  OFFSET_BARRIER_OFFSET,
  OFFSET_DEN,
  OFFSET_GROUND_HALF_WIDTH,
  OFFSET_LENGTH,
  OFFSET_SOURCE_OFFSET,
  OFFSET_UX,
  OFFSET_UY,
  OFFSET_X,
  OFFSET_Y,
  SEGMENT_STRIDE,
  type NoiseScene,
} from './noise-scene.js';

/**
 * The A-weighted spectrum the broadband emission is spread over, dB per octave band 63 Hz-8 kHz, summing to
 * 0 dB: EN 1793-3's normalized traffic noise spectrum (one-third octaves 100 Hz-5 kHz) summed to octaves
 * (-14.5, -10.2, -7.2, -3.9, -6.4, -11.4), with 63 Hz and 8 kHz, which it does not cover, set 6 dB below their
 * neighbours, and the whole shifted to sum to 0 dB.
 */
export const ROAD_SPECTRUM_A: readonly number[] = (() => {
  const raw = [-20.5, -14.5, -10.2, -7.2, -3.9, -6.4, -11.4, -17.4];
  const total = 10 * Math.log10(raw.reduce((s, v) => s + 10 ** (v / 10), 0));
  return raw.map((v) => v - total);
})();

/** CNOSSOS-EU's road source height above the road, metres. */
export const CNOSSOS_SOURCE_HEIGHT_M = 0.05;
/** Point-source power per unit of line strength and metre: 10^1.1 / (2 pi) (see the file's comment). */
const POWER_PER_STRENGTH = 10 ** 1.1 / (2 * Math.PI);
/** 10^(-A_div / 10) r^2: A_div = 20 lg r + 11 (2.5.12). */
const DIVERGENCE = 10 ** -1.1;
const G_STEPS = 10;

/** What a CNOSSOS grid needs beyond the scene. */
export interface CnossosGridOptions {
  /** Probability of favourable conditions (default 0.5). */
  p?: number;
  /** Air temperature, degrees C (default 15), and relative humidity, % (default 70). */
  temperature?: number;
  humidity?: number;
}

/** The broadband long-term factor table of one receiver height and set of conditions. */
export interface CnossosTable {
  receiverHeightM: number;
  maxDistanceM: number;
  /** factor[d * (G_STEPS + 1) + g]: sum over bands of the spectrum's share x 10^(-(A_atm + A_ground)/10), long-term. */
  factor: Float64Array;
  options: Required<CnossosGridOptions>;
}

/** The table for receivers `receiverHeightM` up, out to `maxDistanceM`. */
export function cnossosTable(receiverHeightM: number, maxDistanceM: number, options: CnossosGridOptions = {}): CnossosTable {
  const o = { p: options.p ?? 0.5, temperature: options.temperature ?? 15, humidity: options.humidity ?? 70 };
  const alpha = airAbsorption(o.temperature, o.humidity);
  const share = ROAD_SPECTRUM_A.map((v) => 10 ** (v / 10));
  const D = Math.ceil(maxDistanceM) + 2;
  const factor = new Float64Array(D * (G_STEPS + 1));
  for (let d = 0; d < D; d++) {
    const dh = Math.max(d, 1);
    for (let g = 0; g <= G_STEPS; g++) {
      const seg = groundSegment([0, CNOSSOS_SOURCE_HEIGHT_M], [dh, receiverHeightM], { a: 0, b: 0 }, g / G_STEPS, 0);
      let sum = 0;
      for (let b = 0; b < BAND_COUNT; b++) {
        const atm = (alpha[b] * seg.d) / 1000;
        const h = 10 ** (-(atm + groundH(seg, OCTAVE_BANDS[b])) / 10);
        const f = 10 ** (-(atm + groundF(seg, OCTAVE_BANDS[b])) / 10);
        sum += share[b] * (o.p * f + (1 - o.p) * h);
      }
      factor[d * (G_STEPS + 1) + g] = sum;
    }
  }
  return { receiverHeightM, maxDistanceM, factor, options: o };
}

const tables = new Map<string, CnossosTable>();

/** The table for a scene's receiver (height and distance), built once per thread (about 0.1 s). */
export function sceneCnossosTable(scene: NoiseScene, options: CnossosGridOptions = {}): CnossosTable {
  const r = scene.receiver;
  const key = `${r.heightM}|${r.maxDistanceM}|${options.p ?? ''}|${options.temperature ?? ''}|${options.humidity ?? ''}`;
  let t = tables.get(key);
  if (!t) {
    if (tables.size > 16) tables.clear();
    tables.set(key, (t = cnossosTable(r.heightM, r.maxDistanceM, options)));
  }
  return t;
}

/** The table's factor at horizontal distance d and ground factor g (bilinear). */
function tableFactor(t: CnossosTable, d: number, g: number): number {
  const D = t.factor.length / (G_STEPS + 1) - 2;
  const x = d < 0 ? 0 : d > D ? D : d;
  const i = Math.floor(x), fx = x - i;
  const y = g * G_STEPS, j = Math.min(G_STEPS - 1, Math.floor(y)), fy = y - j;
  const f = t.factor, w = G_STEPS + 1;
  const a = f[i * w + j] + (f[i * w + j + 1] - f[i * w + j]) * fy;
  const b = f[(i + 1) * w + j] + (f[(i + 1) * w + j + 1] - f[(i + 1) * w + j]) * fy;
  return a + (b - a) * fx;
}

/** A segment as the CNOSSOS kernel takes it (metres, in the scene's CRS). */
export interface CnossosSegment {
  /** Start of the centreline, unit direction, length. */
  x: number;
  y: number;
  ux: number;
  uy: number;
  len: number;
  /** Line-source strength (CoRTN's featureEnergy for the period). */
  strength: number;
  /** Source line's offset from the centreline toward the receiver; centreline to the nearside edge (NaN: no ground term, G = cover everywhere). */
  sourceOffset: number;
  halfWidth: number;
  /** A noise wall: its top above the road and its offset from the centreline (NaN: none). */
  wallHeight: number;
  wallOffset: number;
}

/**
 * The long-term A-weighted energy (`10^(L/10)`, relative as the strength) at receiver (px, py) from segment
 * `s`, for ground cover `cover` beyond the road; 0 beyond the table's distance.
 */
export function cnossosSegmentEnergy(t: CnossosTable, s: CnossosSegment, px: number, py: number, cover: number): number {
  const ax = s.x - px, ay = s.y - py;
  const t1 = ax * s.ux + ay * s.uy;
  const perp = Math.abs(ax * s.uy - ay * s.ux);
  const along = t1 > 0 ? t1 : t1 + s.len < 0 ? t1 + s.len : 0;
  if (perp * perp + along * along > t.maxDistanceM * t.maxDistanceM) return 0;
  // The source line lies `sourceOffset` toward the receiver from the centreline (at least 0.5 m from it).
  const off = s.sourceOffset === s.sourceOffset ? s.sourceOffset : 0;
  const dp = Math.max(0.5, perp - off);
  const hard = s.halfWidth === s.halfWidth ? Math.max(0, s.halfWidth - off) : 0;
  const g = cover * (1 - Math.min(1, hard / dp));
  const dz = t.receiverHeightM - CNOSSOS_SOURCE_HEIGHT_M, dz2 = dz * dz;
  // As CoRTN: a wall screens only between the source line and the receiver (not a median barrier behind it).
  const walled = s.wallHeight === s.wallHeight && s.wallOffset === s.wallOffset && perp > s.wallOffset && s.wallOffset > off;
  // Point sources at equal angles seen from the receiver: a piece from angle phi to phi + dphi covers
  // dx = dp sec^2(phi) dphi of the line, so the line's 1/r^2 spreading is integrated exactly whatever its
  // length, and the ground and air (slow in r) are sampled every 1/16 of a half-turn.
  const pa = Math.atan(t1 / dp), pb = Math.atan((t1 + s.len) / dp);
  const pieces = Math.max(1, Math.ceil((pb - pa) / (Math.PI / 16)));
  const dphi = (pb - pa) / pieces;
  const power = s.strength * POWER_PER_STRENGTH;
  let sum = 0;
  for (let k = 0; k < pieces; k++) {
    const phi = pa + (k + 0.5) * dphi;
    const c = Math.cos(phi);
    const dh = dp / c;
    if (dh > t.maxDistanceM) continue;
    // Line length of the piece, per metre of strength, and its geometric divergence 10^-1.1 / r^2.
    const dx = (dp / (c * c)) * dphi;
    const div = DIVERGENCE / (dh * dh + dz2);
    const factor = walled ? wallPathEnergy(t, dh, dp, s.wallOffset - off, s.wallHeight, hard, cover) / div : tableFactor(t, dh, g);
    sum += power * dx * div * factor;
  }
  return sum;
}

/** A path over a thin noise wall: the full CNOSSOS-EU calculation on its cut profile (rare: allocates). */
function wallPathEnergy(t: CnossosTable, dh: number, perp: number, wallFromSource: number, wallHeight: number, hard: number, cover: number): number {
  const k = dh / perp; // the path's length per metre of perpendicular distance
  const xw = Math.min(dh - 0.1, Math.max(0.1, wallFromSource * k));
  const xe = Math.min(dh, hard * k);
  const pt = (type: CutProfile['cutPoints'][number]['type'], x: number, z: number, g: number, extra: object = {}) => ({ type, coordinate: { x, y: 0, z }, zGround: 0, groundCoefficient: g, ...extra });
  const points = [pt('Source', 0, CNOSSOS_SOURCE_HEIGHT_M, 0)];
  const events: [number, ReturnType<typeof pt>][] = [[xw, pt('Wall', xw, wallHeight, xw < xe ? 0 : cover, { intersectionType: 'THIN_WALL_ENTER_EXIT' })]];
  if (xe > 0 && xe < dh) events.push([xe, pt('GroundEffect', xe, 0, cover)]);
  events.sort((a, b) => a[0] - b[0]);
  for (const [, p] of events) points.push(p);
  points.push(pt('Receiver', dh, t.receiverHeightM, cover));
  if (xe <= 0) points[0].groundCoefficient = cover;
  const profile = { cutPoints: points, profileType: 'DIRECT' } as CutProfile;
  const lv = pathLevels(profile, { lw: 0, temperature: t.options.temperature, humidity: t.options.humidity });
  // Back to a broadband factor: each band's attenuation weighted by the spectrum; A_div is in lv.
  const lt = longTermLevel(lv, t.options.p);
  let sum = 0;
  for (let b = 0; b < BAND_COUNT; b++) sum += 10 ** ((ROAD_SPECTRUM_A[b] + lt[b]) / 10);
  return sum;
}

/**
 * Lden energy (`10^(Lden/10)`) at each node by the `cnossos` method: road segments into `road`, rail and tram
 * into `other`, as gridLdenEnergy (CoRTN) writes them. `table` is the scene's (cnossosTable at the scene's
 * receiver height and distance).
 */
export function cnossosGridEnergy(scene: NoiseScene, nodesX: ArrayLike<number>, nodesY: ArrayLike<number>, road: Float64Array, other: Float64Array, table: CnossosTable): { segments: number } {
  const n = nodesX.length;
  const r = scene.receiver.maxDistanceM;
  road.fill(0, 0, n);
  other.fill(0, 0, n);
  if (n === 0) return { segments: 0 };
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let j = 0; j < n; j++) {
    x0 = Math.min(x0, nodesX[j]);
    x1 = Math.max(x1, nodesX[j]);
    y0 = Math.min(y0, nodesY[j]);
    y1 = Math.max(y1, nodesY[j]);
  }
  const ids = scene.segmentsInBox(x0 - r, y0 - r, x1 + r, y1 + r);
  const seg = scene.segments, feat = scene.segmentFeature, geo = scene.featureGeometry, energy = scene.featureEnergy, kinds = scene.featureKind;
  const cover = scene.receiver.groundCover;
  // One record, reused: no allocation per segment or path.
  const rec: CnossosSegment = { x: 0, y: 0, ux: 0, uy: 0, len: 0, strength: 0, sourceOffset: 0, halfWidth: NaN, wallHeight: NaN, wallOffset: NaN };
  for (const s of ids) {
    const f = feat[s];
    const e = energy[f * ENERGY_STRIDE + OFFSET_DEN];
    if (!(e > 0)) continue;
    const o = s * SEGMENT_STRIDE, g = f * GEOMETRY_STRIDE;
    rec.x = seg[o + OFFSET_X];
    rec.y = seg[o + OFFSET_Y];
    rec.ux = seg[o + OFFSET_UX];
    rec.uy = seg[o + OFFSET_UY];
    rec.len = seg[o + OFFSET_LENGTH];
    rec.strength = e;
    rec.sourceOffset = geo[g + OFFSET_SOURCE_OFFSET];
    rec.halfWidth = geo[g + OFFSET_GROUND_HALF_WIDTH];
    rec.wallHeight = geo[g + OFFSET_BARRIER_HEIGHT];
    rec.wallOffset = geo[g + OFFSET_BARRIER_OFFSET];
    const out = kinds[f] === KIND_ROAD ? road : other;
    for (let j = 0; j < n; j++) out[j] += cnossosSegmentEnergy(table, rec, nodesX[j], nodesY[j], cover);
  }
  return { segments: ids.length };
}

/**
 * The cnossos factor of segment `s` at (px, py): the energy a unit strength of its feature gives there, to
 * multiply by the feature's period strengths (the point evaluation's per-feature factors, as segmentFactor
 * gives them for CoRTN).
 */
export function cnossosSegmentFactor(scene: NoiseScene, table: CnossosTable, s: number, px: number, py: number): number {
  const seg = scene.segments, geo = scene.featureGeometry;
  const o = s * SEGMENT_STRIDE, g = scene.segmentFeature[s] * GEOMETRY_STRIDE;
  factorRecord.x = seg[o + OFFSET_X];
  factorRecord.y = seg[o + OFFSET_Y];
  factorRecord.ux = seg[o + OFFSET_UX];
  factorRecord.uy = seg[o + OFFSET_UY];
  factorRecord.len = seg[o + OFFSET_LENGTH];
  factorRecord.sourceOffset = geo[g + OFFSET_SOURCE_OFFSET];
  factorRecord.halfWidth = geo[g + OFFSET_GROUND_HALF_WIDTH];
  factorRecord.wallHeight = geo[g + OFFSET_BARRIER_HEIGHT];
  factorRecord.wallOffset = geo[g + OFFSET_BARRIER_OFFSET];
  return cnossosSegmentEnergy(table, factorRecord, px, py, scene.receiver.groundCover);
}
const factorRecord: CnossosSegment = { x: 0, y: 0, ux: 0, uy: 0, len: 0, strength: 1, sourceOffset: 0, halfWidth: NaN, wallHeight: NaN, wallOffset: NaN };

