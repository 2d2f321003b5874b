/**
 * The noise model's hot-path data: every road and rail segment projected once into one metric CRS (the MGA
 * zone of the network), a flatbush index over the segments' boxes, and per-feature emission energies and
 * geometry, all in flat typed arrays over SharedArrayBuffers. A worker attaches to the same memory with
 * {@link NoiseScene.fromShared} (`Flatbush.from`, no copy), so the grid task never rebuilds or reprojects.
 *
 * Layouts (strided records use the OFFSET_* constants):
 * - segments, Float64 x {@link SEGMENT_STRIDE}: start x, start y (metres), unit direction ux, uy, length.
 * - segmentFeature, Uint32: the feature each segment belongs to.
 * - featureEnergy, Float64 x {@link ENERGY_STRIDE}: line-source strength per period, `10^(Lref/10) * dref`
 *   (relative energy times metres) for Lden, Ld, Le, Ln, where Lref is the emission at distance dref from a
 *   long straight source seen over 180 degrees. A receiver at slant distance ds from such a source gets
 *   energy strength / ds (3 dB per doubling), or strength * theta / (pi ds) for a segment subtending theta.
 * - featureGeometry, Float64 x {@link GEOMETRY_STRIDE}: source-line offset from the centreline toward the
 *   receiver, minimum horizontal distance to the source line, receiver height above the source, the
 *   centreline-to-nearside-edge half-width used by the ground term (NaN: no ground term), noise wall height
 *   above the road and its offset from the centreline (NaN: no wall).
 */
import Flatbush from 'flatbush';
import { invalidArgument } from '../errors.js';
import { cortnGroundCorrection, CORTN_SOURCE_HEIGHT_M } from './cortn.js';

/** Doubles per segment record. */
export const SEGMENT_STRIDE = 5;
/** Segment record: start x, metres. */
export const OFFSET_X = 0;
/** Segment record: start y, metres. */
export const OFFSET_Y = 1;
/** Segment record: unit direction, x. */
export const OFFSET_UX = 2;
/** Segment record: unit direction, y. */
export const OFFSET_UY = 3;
/** Segment record: length, metres. */
export const OFFSET_LENGTH = 4;

/** Doubles per feature energy record. */
export const ENERGY_STRIDE = 4;
/** Energy record: Lden line-source strength. */
export const OFFSET_DEN = 0;
/** Energy record: day (07-19) strength. */
export const OFFSET_DAY = 1;
/** Energy record: evening (19-23) strength. */
export const OFFSET_EVENING = 2;
/** Energy record: night (23-07) strength. */
export const OFFSET_NIGHT = 3;

/** Doubles per feature geometry record. */
export const GEOMETRY_STRIDE = 6;
/** Geometry record: source-line offset from the centreline toward the receiver, metres. */
export const OFFSET_SOURCE_OFFSET = 0;
/** Geometry record: minimum horizontal distance to the source line, metres. */
export const OFFSET_MIN_DISTANCE = 1;
/** Geometry record: receiver height above the source, metres. */
export const OFFSET_DZ = 2;
/** Geometry record: centreline to nearside edge for the ground term, metres (NaN: no ground term). */
export const OFFSET_GROUND_HALF_WIDTH = 3;
/** Geometry record: noise wall top above the road, metres (NaN: no wall). */
export const OFFSET_BARRIER_HEIGHT = 4;
/** Geometry record: noise wall distance from the centreline, metres (NaN: no wall). */
export const OFFSET_BARRIER_OFFSET = 5;

/** Feature kinds, as stored in `featureKind`. */
/** Feature kind code: road. */
export const KIND_ROAD = 0;
/** Feature kind code: train line. */
export const KIND_RAIL = 1;
/** Feature kind code: tram line. */
export const KIND_TRAM = 2;

/** Receiver-side settings of a scene. */
export interface ReceiverSettings {
  /** Receiver height above ground, metres (default 4, the Directive 2002/49/EC assessment height). */
  heightM: number;
  /** CoRTN's proportion of absorbent ground I between road and receiver, 0-1 (default 0.5). */
  groundCover: number;
  /** Segments farther than this from a receiver are ignored, metres (default 2,000). */
  maxDistanceM: number;
}

/** The cloneable form of a {@link NoiseScene}: plain data around shared buffers. */
export interface SharedNoiseScene {
  kind: 'noise-scene';
  crs: string;
  segmentCount: number;
  featureCount: number;
  tree: ArrayBufferLike;
  segments: ArrayBufferLike;
  segmentFeature: ArrayBufferLike;
  featureEnergy: ArrayBufferLike;
  featureGeometry: ArrayBufferLike;
  featureKind: ArrayBufferLike;
  receiver: ReceiverSettings;
}

/** What a scene is built from: projected segments and per-feature records. */
export interface SceneBuildInput {
  crs: string;
  /** Interleaved projected segments [x1, y1, x2, y2, ...], metres. */
  segmentsXY: ArrayLike<number>;
  /** Feature of each segment. */
  segmentFeature: ArrayLike<number>;
  /** Per feature, {@link ENERGY_STRIDE} values. */
  featureEnergy: ArrayLike<number>;
  /** Per feature, {@link GEOMETRY_STRIDE} values. */
  featureGeometry: ArrayLike<number>;
  /** Per feature, a KIND_* code. */
  featureKind: ArrayLike<number>;
  receiver: ReceiverSettings;
}

/** Resolution of the ground-correction table, metres per entry. */
const GROUND_STEP_M = 1;

function sharedArray<T extends Float64Array | Uint32Array | Uint8Array>(Ctor: { new (b: ArrayBufferLike, o?: number, n?: number): T; BYTES_PER_ELEMENT: number }, n: number): T {
  return new Ctor(new SharedArrayBuffer(Math.max(1, n) * Ctor.BYTES_PER_ELEMENT), 0, n);
}

/** The projected, indexed segments of a noise network in one CRS. */
export class NoiseScene {
  /** Energy factor 10^(ground correction / 10) by horizontal distance from the nearside edge, 1 m steps. */
  readonly groundFactor: Float64Array;

  private constructor(
    readonly crs: string,
    readonly tree: Flatbush,
    readonly segments: Float64Array,
    readonly segmentFeature: Uint32Array,
    readonly featureEnergy: Float64Array,
    readonly featureGeometry: Float64Array,
    readonly featureKind: Uint8Array,
    readonly receiver: ReceiverSettings,
  ) {
    this.groundFactor = groundTable(receiver);
  }

  /** Number of segments. */
  get segmentCount(): number {
    return this.segmentFeature.length;
  }

  /** Number of features. */
  get featureCount(): number {
    return this.featureKind.length;
  }

  /** Builds a scene in shared memory; zero-length segments are dropped (they subtend no angle). */
  static build(input: SceneBuildInput): NoiseScene {
    const r = input.receiver;
    if (!(r.heightM >= 0 && r.heightM <= 100)) throw invalidArgument('receiver_height_m', `receiver height must be 0-100 m, got ${r.heightM}`);
    if (!(r.groundCover >= 0 && r.groundCover <= 1)) throw invalidArgument('ground_cover', `ground cover must be a share from 0 to 1, got ${r.groundCover}`);
    if (!(r.maxDistanceM > 0 && r.maxDistanceM <= 20_000)) throw invalidArgument('max_distance_m', `max distance must be 1-20,000 m, got ${r.maxDistanceM}`);
    const nf = input.featureKind.length;
    if (input.featureEnergy.length !== nf * ENERGY_STRIDE || input.featureGeometry.length !== nf * GEOMETRY_STRIDE) {
      throw invalidArgument('features', `feature arrays disagree: ${nf} kinds, ${input.featureEnergy.length} energies, ${input.featureGeometry.length} geometry values`);
    }
    const xy = input.segmentsXY;
    const raw = input.segmentFeature.length;
    let n = 0;
    for (let i = 0; i < raw; i++) if (xy[4 * i] !== xy[4 * i + 2] || xy[4 * i + 1] !== xy[4 * i + 3]) n++;
    const segments = sharedArray(Float64Array, n * SEGMENT_STRIDE);
    const segmentFeature = sharedArray(Uint32Array, n);
    const tree = new Flatbush(Math.max(1, n), 16, Float64Array, SharedArrayBuffer);
    let k = 0;
    for (let i = 0; i < raw; i++) {
      const x1 = xy[4 * i], y1 = xy[4 * i + 1], x2 = xy[4 * i + 2], y2 = xy[4 * i + 3];
      if (![x1, y1, x2, y2].every(Number.isFinite)) throw invalidArgument('segments', `segment ${i} has a non-finite coordinate`);
      const len = Math.hypot(x2 - x1, y2 - y1);
      if (len === 0) continue;
      const o = k * SEGMENT_STRIDE;
      segments[o + OFFSET_X] = x1;
      segments[o + OFFSET_Y] = y1;
      segments[o + OFFSET_UX] = (x2 - x1) / len;
      segments[o + OFFSET_UY] = (y2 - y1) / len;
      segments[o + OFFSET_LENGTH] = len;
      segmentFeature[k] = input.segmentFeature[i];
      tree.add(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
      k++;
    }
    if (n === 0) tree.add(1e12, 1e12, 1e12, 1e12); // flatbush needs one item; no query reaches this one
    tree.finish();
    const featureEnergy = sharedArray(Float64Array, nf * ENERGY_STRIDE);
    featureEnergy.set(input.featureEnergy);
    const featureGeometry = sharedArray(Float64Array, nf * GEOMETRY_STRIDE);
    featureGeometry.set(input.featureGeometry);
    const featureKind = sharedArray(Uint8Array, nf);
    featureKind.set(input.featureKind);
    return new NoiseScene(input.crs, tree, segments, segmentFeature, featureEnergy, featureGeometry, featureKind, { ...r });
  }

  /** Reattaches to a scene built in another thread, sharing its memory. */
  static fromShared(s: SharedNoiseScene): NoiseScene {
    return new NoiseScene(
      s.crs,
      Flatbush.from(s.tree as ArrayBuffer),
      new Float64Array(s.segments, 0, s.segmentCount * SEGMENT_STRIDE),
      new Uint32Array(s.segmentFeature, 0, s.segmentCount),
      new Float64Array(s.featureEnergy, 0, s.featureCount * ENERGY_STRIDE),
      new Float64Array(s.featureGeometry, 0, s.featureCount * GEOMETRY_STRIDE),
      new Uint8Array(s.featureKind, 0, s.featureCount),
      s.receiver,
    );
  }

  /** The cloneable, shared form of this scene. */
  toShared(): SharedNoiseScene {
    return {
      kind: 'noise-scene',
      crs: this.crs,
      segmentCount: this.segmentCount,
      featureCount: this.featureCount,
      tree: this.tree.data,
      segments: this.segments.buffer,
      segmentFeature: this.segmentFeature.buffer,
      featureEnergy: this.featureEnergy.buffer,
      featureGeometry: this.featureGeometry.buffer,
      featureKind: this.featureKind.buffer,
      receiver: this.receiver,
    };
  }

  /** Ids of the segments whose boxes meet the box [minX, minY, maxX, maxY] (metres). */
  segmentsInBox(minX: number, minY: number, maxX: number, maxY: number): number[] {
    const n = this.segmentCount;
    return n === 0 ? [] : this.tree.search(minX, minY, maxX, maxY, (id) => id < n);
  }
}

/**
 * CoRTN's ground correction (Chart 8) as an energy factor by horizontal distance from the nearside
 * carriageway edge, tabulated once per scene (the term depends only on that distance for a given receiver
 * height and ground cover). Mean propagation height H = (source height 0.5 m + receiver height) / 2 over
 * flat ground.
 */
function groundTable(r: ReceiverSettings): Float64Array {
  const n = Math.ceil(r.maxDistanceM / GROUND_STEP_M) + 2;
  const t = new Float64Array(n);
  const meanHeight = (CORTN_SOURCE_HEIGHT_M + r.heightM) / 2;
  for (let i = 0; i < n; i++) t[i] = Math.pow(10, cortnGroundCorrection(i * GROUND_STEP_M, meanHeight, r.groundCover) / 10);
  return t;
}
