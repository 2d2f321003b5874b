/**
 * An index of points that change (DA records arrive daily): rbush, with insert, remove and metre queries.
 * rbush lives in the thread that owns it; workers get snapshots, not this object.
 */
import RBush from 'rbush';
import { invalidArgument } from '../errors.js';
import { distanceMetres } from '../geo/distance.js';
import { radiusBox, sortNeighbours, type Neighbour } from './metric-search.js';

interface Item {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: number;
}

/** A mutable point index keyed by integer ids. */
export class MutablePointIndex {
  private readonly tree = new RBush<Item>(9);
  private readonly items = new Map<number, Item>();

  /** Number of points. */
  get size(): number {
    return this.items.size;
  }

  /** Adds or moves point `id`. */
  set(id: number, lon: number, lat: number): void {
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) throw invalidArgument('coords', `point ${id} has a non-finite coordinate (${lon}, ${lat})`);
    this.delete(id);
    const item = { minX: lon, minY: lat, maxX: lon, maxY: lat, id };
    this.items.set(id, item);
    this.tree.insert(item);
  }

  /** Adds many points at once (bulk-loaded, faster than repeated `set`). */
  load(points: Iterable<{ id: number; lon: number; lat: number }>): void {
    // Keyed by id so an id given twice in one batch keeps only its last position (no ghost in the tree).
    const batch = new Map<number, Item>();
    for (const p of points) {
      if (!Number.isFinite(p.lon) || !Number.isFinite(p.lat)) throw invalidArgument('coords', `point ${p.id} has a non-finite coordinate`);
      this.delete(p.id);
      batch.set(p.id, { minX: p.lon, minY: p.lat, maxX: p.lon, maxY: p.lat, id: p.id });
    }
    for (const [id, item] of batch) this.items.set(id, item);
    this.tree.load([...batch.values()]);
  }

  /** Removes point `id`; returns whether it was present. */
  delete(id: number): boolean {
    const item = this.items.get(id);
    if (!item) return false;
    this.tree.remove(item);
    this.items.delete(id);
    return true;
  }

  /** True when `id` is indexed. */
  has(id: number): boolean {
    return this.items.has(id);
  }

  /** Every point within `radius` metres, nearest first. */
  within(lon: number, lat: number, radius: number): Neighbour[] {
    if (!(radius >= 0)) throw invalidArgument('radius', `radius must be a non-negative number of metres, got ${radius}`);
    const [minX, minY, maxX, maxY] = radiusBox(lon, lat, radius);
    const hits: Neighbour[] = [];
    for (const it of this.tree.search({ minX, minY, maxX, maxY })) {
      const d = distanceMetres(lon, lat, it.minX, it.minY);
      if (d <= radius) hits.push({ id: it.id, distance: d });
    }
    return sortNeighbours(hits);
  }
}
