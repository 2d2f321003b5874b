/**
 * A static index of line segments (roads, rail, water lines, polygon edges), each tagged with the feature it
 * belongs to, with metre-radius and nearest queries. Buffers are shared like {@link PointIndex}'s.
 */
import Flatbush from 'flatbush';
import type { Geometry, Position } from 'geojson';
import { invalidArgument } from '../errors.js';
import { distanceMetres, metresPerDegree } from '../geo/distance.js';
import { checkMaxResults, closestOnSegment, nearestByGrowingRadius, PLANAR_SLACK, radiusBox, searchBox, type Neighbour } from './metric-search.js';
import type { BuildIndexOptions } from './point-index.js';

/** The cloneable form of a {@link SegmentIndex}. */
export interface SharedSegmentIndex {
  kind: 'segment-index';
  count: number;
  index: ArrayBufferLike;
  /** Float64 [lon1, lat1, lon2, lat2] per segment. */
  segments: ArrayBufferLike;
  /** Uint32 feature id per segment. */
  features: ArrayBufferLike;
  extent: [number, number, number, number];
}

/** A segment found by a query: `id` is the segment, `feature` its feature, and the closest point on it. */
export interface SegmentHit extends Neighbour {
  feature: number;
  /** Closest point of the segment to the query point. */
  lon: number;
  lat: number;
  /** Position of that point along the segment, 0..1. */
  t: number;
}

/** Appends the segments of a line-like geometry (polygons contribute their ring edges). */
function pushSegments(g: Geometry, feature: number, segs: number[], feats: number[]): void {
  const line = (l: Position[]) => {
    for (let i = 0; i + 1 < l.length; i++) {
      segs.push(l[i][0], l[i][1], l[i + 1][0], l[i + 1][1]);
      feats.push(feature);
    }
  };
  switch (g.type) {
    case 'LineString':
      line(g.coordinates);
      break;
    case 'MultiLineString':
    case 'Polygon':
      g.coordinates.forEach(line);
      break;
    case 'MultiPolygon':
      for (const p of g.coordinates) p.forEach(line);
      break;
    case 'GeometryCollection':
      for (const x of g.geometries) pushSegments(x, feature, segs, feats);
      break;
    default:
      break; // points have no segments
  }
}

/** A static segment index with metre queries. */
export class SegmentIndex {
  private constructor(
    private readonly tree: Flatbush,
    /** [lon1, lat1, lon2, lat2] per segment id. */
    readonly segments: Float64Array,
    /** Feature id per segment id. */
    readonly features: Uint32Array,
    readonly extent: [number, number, number, number],
  ) {}

  /** Number of segments. */
  get count(): number {
    return this.features.length;
  }

  /** Builds an index from raw segments and their feature ids. */
  static build(segments: ArrayLike<number>, features: ArrayLike<number>, options: BuildIndexOptions = {}): SegmentIndex {
    const n = features.length;
    if (segments.length !== n * 4) throw invalidArgument('segments', `expected ${n * 4} segment coordinates for ${n} segments, got ${segments.length}`);
    const Buf = (options.shared ?? true) ? SharedArrayBuffer : ArrayBuffer;
    const segs = new Float64Array(new Buf(Math.max(1, n) * 32)).subarray(0, n * 4);
    segs.set(segments);
    const feats = new Uint32Array(new Buf(Math.max(1, n) * 4)).subarray(0, n);
    feats.set(features);
    const tree = new Flatbush(Math.max(1, n), options.nodeSize ?? 16, Float64Array, Buf);
    const extent: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < n; i++) {
      const x1 = segs[4 * i], y1 = segs[4 * i + 1], x2 = segs[4 * i + 2], y2 = segs[4 * i + 3];
      if (![x1, y1, x2, y2].every(Number.isFinite)) throw invalidArgument('segments', `segment ${i} has a non-finite coordinate`);
      const bx0 = Math.min(x1, x2), by0 = Math.min(y1, y2), bx1 = Math.max(x1, x2), by1 = Math.max(y1, y2);
      tree.add(bx0, by0, bx1, by1);
      if (bx0 < extent[0]) extent[0] = bx0;
      if (by0 < extent[1]) extent[1] = by0;
      if (bx1 > extent[2]) extent[2] = bx1;
      if (by1 > extent[3]) extent[3] = by1;
    }
    if (n === 0) tree.add(1e9, 1e9, 1e9, 1e9);
    tree.finish();
    return new SegmentIndex(tree, segs, feats, extent);
  }

  /** Builds an index over the segments of GeoJSON geometries; feature ids are positions in `geometries`. */
  static fromGeometries(geometries: readonly Geometry[], options?: BuildIndexOptions): SegmentIndex {
    const segs: number[] = [];
    const feats: number[] = [];
    geometries.forEach((g, i) => pushSegments(g, i, segs, feats));
    return SegmentIndex.build(segs, feats, options);
  }

  /** Reattaches to shared buffers built elsewhere. */
  static fromShared(s: SharedSegmentIndex): SegmentIndex {
    return new SegmentIndex(Flatbush.from(s.index), new Float64Array(s.segments, 0, s.count * 4), new Uint32Array(s.features, 0, s.count), s.extent);
  }

  /** The cloneable, shared form of this index. */
  toShared(): SharedSegmentIndex {
    return { kind: 'segment-index', count: this.count, index: this.tree.data, segments: this.segments.buffer, features: this.features.buffer, extent: this.extent };
  }

  /**
   * flatbush's `search`: the ids of the segments whose boxes meet the lon/lat box `minLon, minLat, maxLon,
   * maxLat` and for which `filter` (when given) returns true, in tree order.
   */
  search(minLon: number, minLat: number, maxLon: number, maxLat: number, filter?: (id: number) => boolean): number[] {
    return searchBox(this.tree, this.count, [minLon, minLat, maxLon, maxLat], filter);
  }

  /**
   * flatbush's `neighbors`, in metres: the ids of up to `maxResults` segments nearest to (lon, lat) (by their
   * closest point), nearest first, ties by id, no farther than `maxDistance` metres, for which `filter` (when
   * given) returns true.
   */
  neighbors(lon: number, lat: number, maxResults = Infinity, maxDistance = Infinity, filter?: (id: number) => boolean): number[] {
    checkMaxResults(maxResults);
    if (this.count === 0) return [];
    return nearestByGrowingRadius(lon, lat, maxResults, maxDistance, this.extent, (r) => this.segmentsWithin(lon, lat, r, filter)).map((h) => h.id);
  }

  /** Every segment within `radius` metres of (lon, lat) for which `filter` (when given) is true, nearest first. */
  segmentsWithin(lon: number, lat: number, radius: number, filter?: (id: number) => boolean): SegmentHit[] {
    if (!(radius >= 0)) throw invalidArgument('radius', `radius must be a non-negative number of metres, got ${radius}`);
    const n = this.count;
    const { kx, ky } = metresPerDegree(lat);
    const s = this.segments;
    const f = this.features;
    const pre2 = (radius * PLANAR_SLACK) ** 2;
    const hits: SegmentHit[] = [];
    const [x0, y0, x1, y1] = radiusBox(lon, lat, radius);
    this.tree.search(x0, y0, x1, y1, (id) => {
      if (id >= n || (filter && !filter(id))) return false;
      const c = closestOnSegment(0, 0, (s[4 * id] - lon) * kx, (s[4 * id + 1] - lat) * ky, (s[4 * id + 2] - lon) * kx, (s[4 * id + 3] - lat) * ky);
      if (c.d2 > pre2) return false;
      const plon = lon + c.x / kx;
      const plat = lat + c.y / ky;
      const d = distanceMetres(lon, lat, plon, plat);
      if (d <= radius) hits.push({ id, feature: f[id], distance: d, lon: plon, lat: plat, t: c.t });
      return false;
    });
    return hits.sort((a, b) => a.distance - b.distance || a.id - b.id);
  }

  /** For each feature with a segment within `radius` metres, its closest segment; nearest feature first. */
  featuresWithin(lon: number, lat: number, radius: number): SegmentHit[] {
    const seen = new Set<number>();
    const out: SegmentHit[] = [];
    for (const h of this.segmentsWithin(lon, lat, radius)) {
      if (seen.has(h.feature)) continue;
      seen.add(h.feature);
      out.push(h);
    }
    return out;
  }

  /** The `k` features nearest to (lon, lat) (by their closest segment), no farther than `maxDistance` metres. */
  nearestFeatures(lon: number, lat: number, k = 1, maxDistance = Infinity): SegmentHit[] {
    if (!Number.isInteger(k) || k < 1) throw invalidArgument('k', `k must be a positive integer, got ${k}`);
    if (this.count === 0) return [];
    return nearestByGrowingRadius(lon, lat, k, maxDistance, this.extent, (r) => this.featuresWithin(lon, lat, r));
  }
}
