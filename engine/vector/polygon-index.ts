/**
 * A static index of polygon features (zones, overlays, catchments, parcels) answering "which polygons
 * contain this point" and "which are within r metres". Rings are stored flat in shared buffers (the layout
 * below), so workers can run the same queries on the same memory.
 *
 * Layout: `coords` holds every ring's vertices as lon, lat pairs; ring r spans vertices
 * `ringStart[r] .. ringStart[r + 1]`; polygon part p spans rings `partStart[p] .. partStart[p + 1]` (outer
 * ring first); feature f spans parts `featureStart[f] .. featureStart[f + 1]`.
 */
import Flatbush from 'flatbush';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { invalidArgument } from '../errors.js';
import { distanceMetres, metresPerDegree } from '../geo/distance.js';
import { checkMaxResults, closestOnSegment, nearestByGrowingRadius, radiusBox, searchBox, sortNeighbours, type Neighbour } from './metric-search.js';
import type { BuildIndexOptions } from './point-index.js';
import { pointInFlatPolygon } from './point-in-polygon.js';

/** The cloneable form of a {@link PolygonIndex}. */
export interface SharedPolygonIndex {
  kind: 'polygon-index';
  count: number;
  index: ArrayBufferLike;
  coords: ArrayBufferLike;
  ringStart: ArrayBufferLike;
  partStart: ArrayBufferLike;
  featureStart: ArrayBufferLike;
  lengths: { coords: number; rings: number; parts: number };
}

/** A polygon within a radius: distance 0 when the point is inside it. */
export interface PolygonHit extends Neighbour {
  inside: boolean;
}

/** A static polygon index. Feature ids are positions in the input array. */
export class PolygonIndex {
  private constructor(
    private readonly tree: Flatbush,
    readonly coords: Float64Array,
    readonly ringStart: Uint32Array,
    readonly partStart: Uint32Array,
    readonly featureStart: Uint32Array,
    private readonly lengths: SharedPolygonIndex['lengths'],
  ) {}

  /** Number of features. */
  get count(): number {
    return this.featureStart.length - 1;
  }

  /** Builds an index over Polygon / MultiPolygon geometries (lon/lat). */
  static build(geometries: readonly (Polygon | MultiPolygon)[], options: BuildIndexOptions = {}): PolygonIndex {
    const Buf = (options.shared ?? true) ? SharedArrayBuffer : ArrayBuffer;
    const n = geometries.length;
    // Two passes: count the vertices, rings and parts, then write them straight into their typed arrays (a
    // window of the layer file builds thousands of these a second: growing plain arrays and copying them was
    // most of the cost).
    let nc = 0, nr = 0, np = 0;
    const partsOf: Position[][][][] = new Array(n);
    for (let f = 0; f < n; f++) {
      const g = geometries[f];
      const type = (g as { type?: string } | null)?.type;
      if (type !== 'Polygon' && type !== 'MultiPolygon') {
        throw invalidArgument('geometries', `feature ${f} is a ${type ?? 'null'}, not a Polygon or MultiPolygon`);
      }
      const parts: Position[][][] = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
      partsOf[f] = parts;
      np += parts.length;
      for (let p = 0; p < parts.length; p++) {
        const rings = parts[p];
        nr += rings.length;
        for (let r = 0; r < rings.length; r++) nc += rings[r].length;
      }
    }
    const coords = new Float64Array(new Buf(Math.max(1, 2 * nc) * 8));
    const ringStart = new Uint32Array(new Buf((nr + 1) * 4));
    const partStart = new Uint32Array(new Buf((np + 1) * 4));
    const featureStart = new Uint32Array(new Buf((n + 1) * 4));
    const tree = new Flatbush(Math.max(1, n), options.nodeSize ?? 16, Float64Array, Buf);
    let c = 0, ri = 0, pi = 0;
    for (let f = 0; f < n; f++) {
      const parts = partsOf[f];
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let p = 0; p < parts.length; p++) {
        const rings = parts[p];
        for (let r = 0; r < rings.length; r++) {
          const ring = rings[r];
          for (let v = 0; v < ring.length; v++) {
            const x = ring[v][0], y = ring[v][1];
            coords[c++] = x;
            coords[c++] = y;
            if (x < x0) x0 = x;
            if (y < y0) y0 = y;
            if (x > x1) x1 = x;
            if (y > y1) y1 = y;
          }
          ringStart[++ri] = c / 2;
        }
        partStart[++pi] = ri;
      }
      featureStart[f + 1] = pi;
      if (x0 > x1) x0 = y0 = x1 = y1 = 1e9; // a feature with no rings matches nothing
      tree.add(x0, y0, x1, y1);
    }
    if (n === 0) tree.add(1e9, 1e9, 1e9, 1e9);
    tree.finish();
    return new PolygonIndex(tree, coords, ringStart, partStart, featureStart, { coords: 2 * nc, rings: nr + 1, parts: np + 1 });
  }

  /** Reattaches to shared buffers built elsewhere. */
  static fromShared(s: SharedPolygonIndex): PolygonIndex {
    return new PolygonIndex(
      Flatbush.from(s.index),
      new Float64Array(s.coords, 0, s.lengths.coords),
      new Uint32Array(s.ringStart, 0, s.lengths.rings),
      new Uint32Array(s.partStart, 0, s.lengths.parts),
      new Uint32Array(s.featureStart, 0, s.count + 1),
      s.lengths,
    );
  }

  /** The cloneable, shared form of this index. */
  toShared(): SharedPolygonIndex {
    return {
      kind: 'polygon-index',
      count: this.count,
      index: this.tree.data,
      coords: this.coords.buffer,
      ringStart: this.ringStart.buffer,
      partStart: this.partStart.buffer,
      featureStart: this.featureStart.buffer,
      lengths: this.lengths,
    };
  }

  /** True when feature `id` contains (lon, lat). */
  contains(id: number, lon: number, lat: number): boolean {
    for (let p = this.featureStart[id]; p < this.featureStart[id + 1]; p++) {
      if (pointInFlatPolygon(lon, lat, this.coords, this.ringStart, this.partStart[p], this.partStart[p + 1])) return true;
    }
    return false;
  }

  /** Ids of every feature containing (lon, lat), ascending. */
  containing(lon: number, lat: number): number[] {
    const n = this.count;
    return this.tree.search(lon, lat, lon, lat, (id) => id < n && this.contains(id, lon, lat)).sort((a, b) => a - b);
  }

  /** Distance in metres from (lon, lat) to the nearest edge of feature `id`. */
  edgeDistance(id: number, lon: number, lat: number): number {
    return this.closestEdgePoint(id, lon, lat).distance;
  }

  /** The closest point on the edges of feature `id` to (lon, lat), and its distance in metres. */
  closestEdgePoint(id: number, lon: number, lat: number): { lon: number; lat: number; distance: number } {
    const { kx, ky } = metresPerDegree(lat);
    const c = this.coords;
    let best = Infinity;
    let bx = lon, by = lat;
    for (let p = this.featureStart[id]; p < this.featureStart[id + 1]; p++) {
      for (let r = this.partStart[p]; r < this.partStart[p + 1]; r++) {
        for (let v = this.ringStart[r]; v + 1 < this.ringStart[r + 1]; v++) {
          const h = closestOnSegment(0, 0, (c[2 * v] - lon) * kx, (c[2 * v + 1] - lat) * ky, (c[2 * v + 2] - lon) * kx, (c[2 * v + 3] - lat) * ky);
          if (h.d2 < best) {
            best = h.d2;
            bx = lon + h.x / kx;
            by = lat + h.y / ky;
          }
        }
      }
    }
    return { lon: bx, lat: by, distance: best === Infinity ? Infinity : distanceMetres(lon, lat, bx, by) };
  }

  /**
   * flatbush's `search`: the ids of the features whose boxes meet the lon/lat box `minLon, minLat, maxLon,
   * maxLat` and for which `filter` (when given) returns true, in tree order.
   */
  search(minLon: number, minLat: number, maxLon: number, maxLat: number, filter?: (id: number) => boolean): number[] {
    return searchBox(this.tree, this.count, [minLon, minLat, maxLon, maxLat], filter);
  }

  /**
   * flatbush's `neighbors`, in metres: the ids of up to `maxResults` features nearest to (lon, lat) (those
   * containing it first, then by edge distance, ties by id), no farther than `maxDistance` metres, for which
   * `filter` (when given) returns true.
   */
  neighbors(lon: number, lat: number, maxResults = Infinity, maxDistance = Infinity, filter?: (id: number) => boolean): number[] {
    checkMaxResults(maxResults);
    if (!(maxDistance >= 0)) throw invalidArgument('maxDistance', `maxDistance must be a non-negative number of metres, got ${maxDistance}`);
    if (this.count === 0) return [];
    const { minX, minY, maxX, maxY } = this.tree;
    return nearestByGrowingRadius(lon, lat, maxResults, maxDistance, [minX, minY, maxX, maxY], (r) => this.within(lon, lat, r, filter)).map((h) => h.id);
  }

  /**
   * Every feature within `radius` metres of (lon, lat) for which `filter` (when given) is true: distance 0
   * and `inside` for those containing it.
   */
  within(lon: number, lat: number, radius: number, filter?: (id: number) => boolean): PolygonHit[] {
    if (!(radius >= 0)) throw invalidArgument('radius', `radius must be a non-negative number of metres, got ${radius}`);
    const n = this.count;
    const [x0, y0, x1, y1] = radiusBox(lon, lat, radius);
    const hits: PolygonHit[] = [];
    this.tree.search(x0, y0, x1, y1, (id) => {
      if (id >= n || (filter && !filter(id))) return false;
      if (this.contains(id, lon, lat)) hits.push({ id, distance: 0, inside: true });
      else {
        const d = this.edgeDistance(id, lon, lat);
        if (d <= radius) hits.push({ id, distance: d, inside: false });
      }
      return false;
    });
    return sortNeighbours(hits);
  }

  /**
   * The `k` features nearest to (lon, lat), no farther than `maxDistance` metres: those containing the point
   * first (distance 0), then by distance to their nearest edge, ties by id (exact: see
   * {@link nearestByGrowingRadius}).
   */
  nearest(lon: number, lat: number, k = 1, maxDistance = Infinity): PolygonHit[] {
    if (!Number.isInteger(k) || k < 1) throw invalidArgument('k', `k must be a positive integer, got ${k}`);
    if (!(maxDistance >= 0)) throw invalidArgument('maxDistance', `maxDistance must be a non-negative number of metres, got ${maxDistance}`);
    if (this.count === 0) return [];
    const { minX, minY, maxX, maxY } = this.tree;
    return nearestByGrowingRadius(lon, lat, k, maxDistance, [minX, minY, maxX, maxY], (r) => this.within(lon, lat, r));
  }

  /** Feature `id` as a GeoJSON geometry (Polygon for one part, else MultiPolygon). */
  geometry(id: number): Polygon | MultiPolygon {
    const parts: Position[][][] = [];
    for (let p = this.featureStart[id]; p < this.featureStart[id + 1]; p++) {
      const rings: Position[][] = [];
      for (let r = this.partStart[p]; r < this.partStart[p + 1]; r++) {
        const ring: Position[] = [];
        for (let v = this.ringStart[r]; v < this.ringStart[r + 1]; v++) ring.push([this.coords[2 * v], this.coords[2 * v + 1]]);
        rings.push(ring);
      }
      parts.push(rings);
    }
    return parts.length === 1 ? { type: 'Polygon', coordinates: parts[0] } : { type: 'MultiPolygon', coordinates: parts };
  }
}
