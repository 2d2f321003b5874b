/**
 * Barrier checks for straight lines from the subject to amenities: does the line cross a motorway or major
 * water, and is there a pedestrian crossing point (bridge, overpass, underpass) near where it crosses?
 *
 * Built once per subject from the layers' R-tree indexes (engine/vector, flatbush underneath): the barrier segments within the search radius
 * and the crossing points near them are fetched once and put in a local metric frame (metres east/north of
 * the subject). Segments are bucketed by the arc of bearings they span as seen from the subject, so a line
 * to an amenity is tested only against the few segments in its bearing's bucket; crossing points go in a
 * uniform hash of `tolerance`-metre cells, so "a crossing point within tolerance of the intersection" looks
 * at nine cells. This is a straight-line check, not a route: it never finds a path through the crossing.
 */
import { metresPerDegree } from '../../geo/distance.js';
import { radiusBox } from '../../vector/metric-search.js';
import type { PointIndex } from '../../vector/point-index.js';
import type { SegmentIndex } from '../../vector/segment-index.js';

/** Bit of a barrier kind in a {@link BarrierField.check} result. */
export const BARRIER_MOTORWAY = 1;
/** Bit of major water in a {@link BarrierField.check} result. */
export const BARRIER_WATER = 2;

/** Bearing buckets around the subject (1.4 degrees each). */
const BUCKETS = 256;
const TWO_PI = 2 * Math.PI;

/** The layers a field is built from; null when a layer is not available (its kind is never flagged). */
export interface BarrierLayers {
  motorway: SegmentIndex | null;
  water: SegmentIndex | null;
  /** Pedestrian crossing points; when null, no crossing can relieve a barrier, so barriers are not checked. */
  crossings: PointIndex | null;
}

function bucketOf(angle: number): number {
  const a = angle < 0 ? angle + TWO_PI : angle;
  return Math.min(BUCKETS - 1, Math.floor((a / TWO_PI) * BUCKETS));
}

/** The barrier segments and crossing points around one subject, ready for line checks. */
export class BarrierField {
  private constructor(
    /** Local [x1, y1, x2, y2] per segment, metres east/north of the subject. */
    private readonly segs: Float64Array,
    /** Barrier bit per segment. */
    private readonly kinds: Uint8Array,
    private readonly bucketStart: Int32Array,
    private readonly bucketItems: Int32Array,
    /** Local x, y per crossing point. */
    private readonly crossXY: Float64Array,
    private readonly cellStart: Int32Array,
    private readonly cellItems: Int32Array,
    private readonly cellsPerSide: number,
    private readonly origin: number,
    private readonly tolerance: number,
    /** Scale from lon/lat offsets to local metres at the subject. */
    readonly kx: number,
    readonly ky: number,
  ) {}

  /** Number of barrier segments in the field. */
  get segmentCount(): number {
    return this.kinds.length;
  }

  /**
   * The field of barriers within `radius` metres of (lon, lat) (some just beyond may be included), with
   * crossing points relieving barriers within `tolerance` metres (default 200) of a crossing.
   */
  static around(lon: number, lat: number, radius: number, layers: BarrierLayers, tolerance = 200): BarrierField {
    const { kx, ky } = metresPerDegree(lat);
    const segList: number[] = [];
    const kindList: number[] = [];
    // Every segment whose box meets the disc's box: a superset of those within `radius`, which is harmless
    // (the line test is exact) and cheaper than measuring each segment's distance.
    const [bx0, by0, bx1, by1] = radiusBox(lon, lat, radius);
    const add = (index: SegmentIndex | null, bit: number) => {
      if (!index || index.count === 0) return;
      const s = index.segments;
      index.search(bx0, by0, bx1, by1, (id) => {
        const k = 4 * id;
        segList.push((s[k] - lon) * kx, (s[k + 1] - lat) * ky, (s[k + 2] - lon) * kx, (s[k + 3] - lat) * ky);
        kindList.push(bit);
        return false;
      });
    };
    add(layers.motorway, BARRIER_MOTORWAY);
    add(layers.water, BARRIER_WATER);
    const n = kindList.length;
    const segs = Float64Array.from(segList);
    const kinds = Uint8Array.from(kindList);
    // Each segment covers the shorter arc between its end bearings (a segment not through the subject spans
    // less than 180 degrees); count per bucket, then fill (compressed rows).
    const span = new Int32Array(2 * n);
    const counts = new Int32Array(BUCKETS + 1);
    for (let i = 0; i < n; i++) {
      let a1 = Math.atan2(segs[4 * i + 1], segs[4 * i]);
      let a2 = Math.atan2(segs[4 * i + 3], segs[4 * i + 2]);
      if (a1 < 0) a1 += TWO_PI;
      if (a2 < 0) a2 += TWO_PI;
      let lo = Math.min(a1, a2);
      let hi = Math.max(a1, a2);
      if (hi - lo > Math.PI) [lo, hi] = [hi, lo + TWO_PI]; // the short way round crosses north
      const b0 = bucketOf(lo);
      let b1 = Math.floor((hi / TWO_PI) * BUCKETS);
      if (b1 < b0) b1 = b0;
      span[2 * i] = b0;
      span[2 * i + 1] = b1;
      for (let b = b0; b <= b1; b++) counts[(b % BUCKETS) + 1]++;
    }
    for (let b = 0; b < BUCKETS; b++) counts[b + 1] += counts[b];
    const bucketStart = counts.slice();
    const fill = counts.slice(0, BUCKETS);
    const bucketItems = new Int32Array(bucketStart[BUCKETS]);
    for (let i = 0; i < n; i++) {
      for (let b = span[2 * i]; b <= span[2 * i + 1]; b++) bucketItems[fill[b % BUCKETS]++] = i;
    }
    // Crossing points within reach of any barrier segment in the field, hashed into tolerance-sized cells.
    const reach = radius + tolerance;
    const cellsPerSide = Math.max(1, Math.ceil((2 * reach) / tolerance));
    const crossList: number[] = [];
    if (layers.crossings && layers.crossings.count > 0 && n > 0) {
      const c = layers.crossings.coords;
      const [cx0, cy0, cx1, cy1] = radiusBox(lon, lat, reach);
      layers.crossings.search(cx0, cy0, cx1, cy1, (id) => {
        crossList.push((c[2 * id] - lon) * kx, (c[2 * id + 1] - lat) * ky);
        return false;
      });
    }
    const crossXY = Float64Array.from(crossList);
    const m = crossXY.length / 2;
    const cellOf = (x: number, y: number) => {
      const cx = Math.min(cellsPerSide - 1, Math.max(0, Math.floor((x + reach) / tolerance)));
      const cy = Math.min(cellsPerSide - 1, Math.max(0, Math.floor((y + reach) / tolerance)));
      return cy * cellsPerSide + cx;
    };
    const cellCounts = new Int32Array(cellsPerSide * cellsPerSide + 1);
    for (let i = 0; i < m; i++) cellCounts[cellOf(crossXY[2 * i], crossXY[2 * i + 1]) + 1]++;
    for (let i = 0; i < cellsPerSide * cellsPerSide; i++) cellCounts[i + 1] += cellCounts[i];
    const cellFill = cellCounts.slice(0, cellsPerSide * cellsPerSide);
    const cellItems = new Int32Array(m);
    for (let i = 0; i < m; i++) cellItems[cellFill[cellOf(crossXY[2 * i], crossXY[2 * i + 1])]++] = i;
    return new BarrierField(segs, kinds, bucketStart, bucketItems, crossXY, cellCounts, cellItems, cellsPerSide, reach, tolerance, kx, ky);
  }

  /** True when a crossing point lies within the tolerance of local point (x, y). */
  private crossingNear(x: number, y: number): boolean {
    const t = this.tolerance;
    const side = this.cellsPerSide;
    const cx = Math.floor((x + this.origin) / t);
    const cy = Math.floor((y + this.origin) / t);
    const t2 = t * t;
    for (let j = cy - 1; j <= cy + 1; j++) {
      if (j < 0 || j >= side) continue;
      for (let i = cx - 1; i <= cx + 1; i++) {
        if (i < 0 || i >= side) continue;
        const cell = j * side + i;
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const p = this.cellItems[k];
          const dx = this.crossXY[2 * p] - x;
          const dy = this.crossXY[2 * p + 1] - y;
          if (dx * dx + dy * dy <= t2) return true;
        }
      }
    }
    return false;
  }

  /**
   * The barrier kinds (bits {@link BARRIER_MOTORWAY}, {@link BARRIER_WATER}) that the straight line from
   * the subject to local point (ax, ay) crosses with no crossing point within the tolerance of where it
   * crosses. 0 when the line is clear or every crossing is relieved.
   */
  check(ax: number, ay: number): number {
    if (this.kinds.length === 0) return 0;
    const b = bucketOf(Math.atan2(ay, ax));
    let flagged = 0;
    const s = this.segs;
    for (let k = this.bucketStart[b]; k < this.bucketStart[b + 1]; k++) {
      const i = this.bucketItems[k];
      const bit = this.kinds[i];
      if (flagged & bit) continue;
      const x1 = s[4 * i], y1 = s[4 * i + 1];
      const sx = s[4 * i + 2] - x1, sy = s[4 * i + 3] - y1;
      // Line P(t) = t (ax, ay), segment Q(u) = (x1, y1) + u (sx, sy); solve P = Q (Cramer's rule).
      const den = ax * sy - ay * sx;
      if (den === 0) continue; // parallel: a line along a barrier does not cross it
      const t = (x1 * sy - y1 * sx) / den;
      if (t < 0 || t > 1) continue;
      const u = (x1 * ay - y1 * ax) / den;
      if (u < 0 || u > 1) continue;
      if (!this.crossingNear(t * ax, t * ay)) flagged |= bit;
    }
    return flagged;
  }

  /** {@link check} for an amenity at (lon, lat), given the subject's (lon0, lat0). */
  checkLonLat(lon0: number, lat0: number, lon: number, lat: number): number {
    return this.check((lon - lon0) * this.kx, (lat - lat0) * this.ky);
  }
}
