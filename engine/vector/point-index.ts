/**
 * A static index of lon/lat points (flatbush) with radius and k-nearest queries in metres.
 *
 * The flatbush tree and the coordinates live in SharedArrayBuffers: build once on the main thread, pass
 * {@link PointIndex.toShared} to workers, and rebuild there with {@link PointIndex.fromShared} (which wraps
 * the same memory: `Flatbush.from`, no copy). Ids are the points' positions in the input.
 */
import Flatbush from 'flatbush';
import { invalidArgument } from '../errors.js';
import { distanceMetres } from '../geo/distance.js';
import { checkMaxResults, nearestByGrowingRadius, radiusBox, searchBox, sortNeighbours, type Neighbour } from './metric-search.js';

/** The cloneable form of a {@link PointIndex}: plain data around shared buffers. */
export interface SharedPointIndex {
  kind: 'point-index';
  count: number;
  /** The flatbush buffer. */
  index: ArrayBufferLike;
  /** Float64 lon, lat pairs by id. */
  coords: ArrayBufferLike;
  /** Extent of the points, lon/lat. */
  extent: [number, number, number, number];
}

/** Options for building an index. */
export interface BuildIndexOptions {
  /** Put the buffers in SharedArrayBuffers (default true) so workers can attach without copying. */
  shared?: boolean;
  /** flatbush node size, default 16. */
  nodeSize?: number;
}

/** A static point index with metre queries. */
export class PointIndex {
  private constructor(
    private readonly tree: Flatbush,
    /** lon, lat pairs by id. */
    readonly coords: Float64Array,
    readonly extent: [number, number, number, number],
  ) {}

  /** Number of points. */
  get count(): number {
    return this.coords.length / 2;
  }

  /** Builds an index over interleaved `[lon0, lat0, lon1, lat1, ...]` coordinates. */
  static build(lonLat: ArrayLike<number>, options: BuildIndexOptions = {}): PointIndex {
    if (lonLat.length % 2 !== 0) throw invalidArgument('coords', `coordinate array length must be even, got ${lonLat.length}`);
    const n = lonLat.length / 2;
    const shared = options.shared ?? true;
    const Buf = shared ? SharedArrayBuffer : ArrayBuffer;
    const coords = new Float64Array(new Buf(Math.max(1, n) * 16)).subarray(0, n * 2);
    coords.set(lonLat);
    // flatbush needs at least one item; an empty layer gets a single placeholder that no query returns.
    const tree = new Flatbush(Math.max(1, n), options.nodeSize ?? 16, Float64Array, Buf);
    const extent: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < n; i++) {
      const x = coords[2 * i];
      const y = coords[2 * i + 1];
      if (!Number.isFinite(x) || !Number.isFinite(y)) throw invalidArgument('coords', `point ${i} has a non-finite coordinate (${x}, ${y})`);
      tree.add(x, y, x, y);
      if (x < extent[0]) extent[0] = x;
      if (y < extent[1]) extent[1] = y;
      if (x > extent[2]) extent[2] = x;
      if (y > extent[3]) extent[3] = y;
    }
    if (n === 0) tree.add(1e9, 1e9, 1e9, 1e9);
    tree.finish();
    return new PointIndex(tree, coords, extent);
  }

  /** Reattaches to an index built elsewhere (another thread), sharing its memory. */
  static fromShared(s: SharedPointIndex): PointIndex {
    return new PointIndex(Flatbush.from(s.index), new Float64Array(s.coords, 0, s.count * 2), s.extent);
  }

  /** The cloneable, shared form of this index. */
  toShared(): SharedPointIndex {
    return { kind: 'point-index', count: this.count, index: this.tree.data, coords: this.coords.buffer, extent: this.extent };
  }

  /** Longitude of point `id`. */
  lon(id: number): number {
    return this.coords[2 * id];
  }

  /** Latitude of point `id`. */
  lat(id: number): number {
    return this.coords[2 * id + 1];
  }

  /** Every point within `radius` metres of (lon, lat) for which `filter` (when given) is true, nearest first. */
  within(lon: number, lat: number, radius: number, filter?: (id: number) => boolean): Neighbour[] {
    const hits: Neighbour[] = [];
    this.forEachWithin(lon, lat, radius, (id, distance) => void ((!filter || filter(id)) && hits.push({ id, distance })));
    return sortNeighbours(hits);
  }

  /**
   * flatbush's `search`: the ids of the points inside the lon/lat box `minLon, minLat, maxLon, maxLat` for
   * which `filter` (when given) returns true, in tree order. A filter that returns false visits each hit
   * without building an array.
   */
  search(minLon: number, minLat: number, maxLon: number, maxLat: number, filter?: (id: number) => boolean): number[] {
    return searchBox(this.tree, this.count, [minLon, minLat, maxLon, maxLat], filter);
  }

  /**
   * flatbush's `neighbors`, in metres: the ids of up to `maxResults` points nearest to (lon, lat), nearest
   * first (ties by id), no farther than `maxDistance` metres, for which `filter` (when given) returns true.
   */
  neighbors(lon: number, lat: number, maxResults = Infinity, maxDistance = Infinity, filter?: (id: number) => boolean): number[] {
    checkMaxResults(maxResults);
    if (this.count === 0) return [];
    return nearestByGrowingRadius(lon, lat, maxResults, maxDistance, this.extent, (r) => this.within(lon, lat, r, filter), this.startRadius(maxResults)).map((h) => h.id);
  }

  /**
   * Calls `visit(id, distance)` for every point within `radius` metres of (lon, lat), in no particular order
   * and without allocating per point: for callers that filter, count or keep only the nearest few of many.
   */
  forEachWithin(lon: number, lat: number, radius: number, visit: (id: number, distance: number) => void): void {
    if (!(radius >= 0)) throw invalidArgument('radius', `radius must be a non-negative number of metres, got ${radius}`);
    const n = this.count;
    const [x0, y0, x1, y1] = radiusBox(lon, lat, radius);
    const c = this.coords;
    this.tree.search(x0, y0, x1, y1, (id) => {
      if (id >= n) return false;
      const d = distanceMetres(lon, lat, c[2 * id], c[2 * id + 1]);
      if (d <= radius) visit(id, d);
      return false;
    });
  }

  /**
   * The `k` points nearest to (lon, lat), nearest first, no farther than `maxDistance` metres.
   *
   * flatbush's own `neighbors` orders by planar degree distance, which is not metric order away from the
   * equator, so this searches metric circles of growing radius instead: once a circle holds k points, those
   * k are exactly the k nearest.
   */
  nearest(lon: number, lat: number, k = 1, maxDistance = Infinity): Neighbour[] {
    if (!Number.isInteger(k) || k < 1) throw invalidArgument('k', `k must be a positive integer, got ${k}`);
    if (this.count === 0) return [];
    return nearestByGrowingRadius(lon, lat, k, maxDistance, this.extent, (r) => this.within(lon, lat, r), this.startRadius(k));
  }

  /** The radius expected to hold about k points at the layer's mean density (where a kNN search starts). */
  private startRadius(k: number): number {
    const [ex0, ey0, ex1, ey1] = this.extent;
    const area = Math.max(1, distanceMetres(ex0, ey0, ex1, ey0) * distanceMetres(ex0, ey0, ex0, ey1));
    return Math.max(10, Math.sqrt((area * k) / (Math.PI * this.count)) * 1.5);
  }
}
