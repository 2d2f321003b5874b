/**
 * The walkability inputs and their indexes.
 *
 * Inputs (the sample world's schema, also what real importers produce):
 * - amenities CSV `amenity_id,lon,lat,name,amenity,shop,leisure,healthcare,crowd_sourced,source`: OSM-style
 *   tags feed grocery, cafe_restaurant, pharmacy, health, park and library_community;
 * - public-transport stops CSV `stop_id,lon,lat,name,mode,source` (state open data) feed public_transport;
 * - schools CSV `school_id,name,lon,lat,school_type,school_sector,year_levels,source` feed school;
 * - roads GeoJSON with `road_class`, of which the `motorway` lines are barriers;
 * - major water GeoJSON (polygons and lines) with `major` true;
 * - crossing points CSV `crossing_id,lon,lat,kind,source` (bridges, overpasses, underpasses).
 * Schools and stops come only from state open data: amenity rows tagged as schools or bus stations are not
 * counted, so those two categories never draw on the crowd-sourced dataset.
 *
 * Every point goes in one flatbush {@link PointIndex} with a category code, a crowd-sourced flag and a
 * source code per point, all in SharedArrayBuffers, so the worker task attaches the same memory.
 */
import type { Feature, Geometry } from 'geojson';
import { invalidData } from '../../errors.js';
import { PointIndex, type SharedPointIndex } from '../../vector/point-index.js';
import { SegmentIndex, type SharedSegmentIndex } from '../../vector/segment-index.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import { isMissing } from '../../score-kit/layer-input.js';
import { CATEGORY_CODE, categoriseAmenity, NO_CATEGORY, WALK_CATEGORIES, type WalkCategory } from './categories.js';

/** One amenity point with its category and provenance. */
export interface AmenityPoint {
  id: string;
  name: string;
  lon: number;
  lat: number;
  category: WalkCategory;
  /** True for rows from the crowd-sourced (OSM-like) dataset. */
  crowdSourced: boolean;
  /** Source id from the dataset catalogue. */
  source: string;
}

/** One input set of amenity points (a file), and the categories it feeds. */
export interface AmenitySet {
  /** e.g. `amenities`, `stops`, `schools`. */
  name: string;
  /** The categories this set feeds; when the set is missing, these categories are degraded. */
  categories: readonly WalkCategory[];
  points: AmenityPoint[] | MissingLayer;
}

/** A line or polygon barrier layer (motorways, major water). */
export interface BarrierInput {
  /** Line or polygon geometries in lon/lat. */
  geometries: Geometry[];
  source: string;
}

/** Pedestrian crossing points of motorways and water. */
export interface CrossingInput {
  points: { lon: number; lat: number }[];
  source: string;
}

/** Everything the walkability screening reads; null or undefined means not integrated. */
export interface WalkabilityInput {
  amenitySets: AmenitySet[];
  motorways?: BarrierInput | MissingLayer | null;
  majorWater?: BarrierInput | MissingLayer | null;
  crossings?: CrossingInput | MissingLayer | null;
}

/** A layer in index form, or why it is missing. */
export type IndexedLayer<I> = { status: 'available'; index: I; source: string } | MissingLayer;

/** The indexes the screening queries. `labels` stays on the thread that built them (strings are not shared). */
export interface WalkabilityIndexes {
  amenities: PointIndex;
  /** Category code per point ({@link CATEGORY_CODE}). */
  category: Uint8Array;
  /** 1 for crowd-sourced points. */
  crowd: Uint8Array;
  /** Index into `sourceIds` per point. */
  sourceCode: Uint16Array;
  sourceIds: string[];
  /** Status of each amenity set, with the categories it feeds. */
  sets: { name: string; categories: readonly WalkCategory[]; status: 'available' | MissingLayer['status']; reason: string | null; sources: string[] }[];
  motorways: IndexedLayer<SegmentIndex>;
  majorWater: IndexedLayer<SegmentIndex>;
  crossings: IndexedLayer<PointIndex>;
  /** Ids and names by point, for describing results on the main thread. */
  labels?: { ids: string[]; names: string[] };
}

/** The cloneable form of {@link WalkabilityIndexes} (shared buffers, no labels). */
export interface SharedWalkabilityIndexes {
  amenities: SharedPointIndex;
  category: ArrayBufferLike;
  crowd: ArrayBufferLike;
  sourceCode: ArrayBufferLike;
  sourceIds: string[];
  sets: WalkabilityIndexes['sets'];
  motorways: { status: 'available'; index: SharedSegmentIndex; source: string } | MissingLayer;
  majorWater: { status: 'available'; index: SharedSegmentIndex; source: string } | MissingLayer;
  crossings: { status: 'available'; index: SharedPointIndex; source: string } | MissingLayer;
}

const NOT_INTEGRATED: MissingLayer = { status: 'not_integrated', reason: 'no dataset held for this input' };

function sharedBytes(n: number): SharedArrayBuffer {
  return new SharedArrayBuffer(Math.max(1, n));
}

/** Builds the indexes over every input (shared memory by default). */
export function buildWalkabilityIndexes(input: WalkabilityInput, options: { shared?: boolean } = {}): WalkabilityIndexes {
  const shared = options.shared ?? true;
  const points: AmenityPoint[] = [];
  const sets: WalkabilityIndexes['sets'] = [];
  for (const s of input.amenitySets) {
    if (isMissing(s.points)) {
      sets.push({ name: s.name, categories: s.categories, status: s.points?.status ?? 'not_integrated', reason: s.points?.reason ?? null, sources: [] });
      continue;
    }
    const allowed = new Set(s.categories);
    const kept = s.points.filter((p) => allowed.has(p.category));
    points.push(...kept);
    sets.push({ name: s.name, categories: s.categories, status: 'available', reason: null, sources: [...new Set(kept.map((p) => p.source))].sort() });
  }
  const n = points.length;
  const coords = new Float64Array(2 * n);
  const Buf = shared ? sharedBytes : (k: number) => new ArrayBuffer(Math.max(1, k));
  const category = new Uint8Array(Buf(n), 0, n);
  const crowd = new Uint8Array(Buf(n), 0, n);
  const sourceCode = new Uint16Array(Buf(2 * n), 0, n);
  const sourceIds: string[] = [];
  const sourceIndex = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const p = points[i];
    coords[2 * i] = p.lon;
    coords[2 * i + 1] = p.lat;
    category[i] = CATEGORY_CODE[p.category] ?? NO_CATEGORY;
    crowd[i] = p.crowdSourced ? 1 : 0;
    let code = sourceIndex.get(p.source);
    if (code === undefined) {
      code = sourceIds.length;
      sourceIds.push(p.source);
      sourceIndex.set(p.source, code);
    }
    sourceCode[i] = code;
  }
  const segLayer = (b: BarrierInput | MissingLayer | null | undefined): IndexedLayer<SegmentIndex> =>
    isMissing(b) ? (b ?? NOT_INTEGRATED) : { status: 'available', index: SegmentIndex.fromGeometries(b.geometries, { shared }), source: b.source };
  const crossings: IndexedLayer<PointIndex> = isMissing(input.crossings)
    ? (input.crossings ?? NOT_INTEGRATED)
    : { status: 'available', index: PointIndex.build(input.crossings.points.flatMap((p) => [p.lon, p.lat]), { shared }), source: input.crossings.source };
  return {
    amenities: PointIndex.build(coords, { shared }),
    category,
    crowd,
    sourceCode,
    sourceIds,
    sets,
    motorways: segLayer(input.motorways),
    majorWater: segLayer(input.majorWater),
    crossings,
    labels: { ids: points.map((p) => p.id), names: points.map((p) => p.name) },
  };
}

/** The cloneable form: shared buffers and small plain data (labels are left behind). */
export function shareWalkabilityIndexes(ix: WalkabilityIndexes): SharedWalkabilityIndexes {
  const seg = (l: IndexedLayer<SegmentIndex>) => (l.status === 'available' ? { status: l.status, index: l.index.toShared(), source: l.source } : l);
  return {
    amenities: ix.amenities.toShared(),
    category: ix.category.buffer,
    crowd: ix.crowd.buffer,
    sourceCode: ix.sourceCode.buffer,
    sourceIds: ix.sourceIds,
    sets: ix.sets,
    motorways: seg(ix.motorways),
    majorWater: seg(ix.majorWater),
    crossings: ix.crossings.status === 'available' ? { status: 'available', index: ix.crossings.index.toShared(), source: ix.crossings.source } : ix.crossings,
  };
}

/** Reattaches indexes shared by another thread (no copy). */
export function attachWalkabilityIndexes(s: SharedWalkabilityIndexes): WalkabilityIndexes {
  const n = s.amenities.count;
  const seg = (l: SharedWalkabilityIndexes['motorways']): IndexedLayer<SegmentIndex> =>
    l.status === 'available' ? { status: 'available', index: SegmentIndex.fromShared(l.index), source: l.source } : l;
  return {
    amenities: PointIndex.fromShared(s.amenities),
    category: new Uint8Array(s.category, 0, n),
    crowd: new Uint8Array(s.crowd, 0, n),
    sourceCode: new Uint16Array(s.sourceCode, 0, n),
    sourceIds: s.sourceIds,
    sets: s.sets,
    motorways: seg(s.motorways),
    majorWater: seg(s.majorWater),
    crossings: s.crossings.status === 'available' ? { status: 'available', index: PointIndex.fromShared(s.crossings.index), source: s.crossings.source } : s.crossings,
  };
}

// ---- Records -> inputs -------------------------------------------------------------------------------

function coordOf(row: Record<string, string>, file: string, line: number): [number, number] {
  const lon = Number(row.lon);
  const lat = Number(row.lat);
  if (row.lon?.trim() === '' || row.lat?.trim() === '' || !Number.isFinite(lon) || !Number.isFinite(lat) || lon < -180 || lon > 180 || lat < -90 || lat > 90) {
    throw invalidData(file, `line ${line}: lon/lat must be numbers in range, got ${JSON.stringify(row.lon)}, ${JSON.stringify(row.lat)}`, { line });
  }
  return [lon, lat];
}

function truthy(s: string | undefined): boolean {
  return /^(true|t|1|yes|y)$/i.test((s ?? '').trim());
}

function sourceOf(row: Record<string, string>, file: string, line: number): string {
  const s = (row.source ?? '').trim();
  if (!s) throw invalidData(file, `line ${line}: empty source id`, { line });
  return s;
}

/** Categories the amenities CSV feeds (schools and stops come from state open data). */
export const AMENITY_CSV_CATEGORIES: readonly WalkCategory[] = WALK_CATEGORIES.filter((c) => c !== 'school' && c !== 'public_transport');

/**
 * Amenity points from amenities CSV rows (`amenity_id,lon,lat,name,amenity,shop,leisure,healthcare,
 * crowd_sourced,source`). Rows with no category are skipped; rows tagged school or bus station are skipped
 * too (see the file comment). Line numbers in errors assume one line per row after the header.
 */
export function amenityPointsFromRows(rows: readonly Record<string, string>[], file: string): AmenityPoint[] {
  const out: AmenityPoint[] = [];
  rows.forEach((row, i) => {
    const line = i + 2;
    const category = categoriseAmenity(row);
    if (!category || !AMENITY_CSV_CATEGORIES.includes(category)) return;
    const [lon, lat] = coordOf(row, file, line);
    out.push({ id: row.amenity_id ?? String(i), name: row.name ?? '', lon, lat, category, crowdSourced: truthy(row.crowd_sourced), source: sourceOf(row, file, line) });
  });
  return out;
}

/** Public-transport points from stops CSV rows (`stop_id,lon,lat,name,mode,source`). */
export function stopPointsFromRows(rows: readonly Record<string, string>[], file: string): AmenityPoint[] {
  return rows.map((row, i) => {
    const [lon, lat] = coordOf(row, file, i + 2);
    return { id: row.stop_id ?? String(i), name: row.name ?? '', lon, lat, category: 'public_transport' as const, crowdSourced: false, source: sourceOf(row, file, i + 2) };
  });
}

/** School points from schools CSV rows (`school_id,name,lon,lat,school_type,school_sector,year_levels,source`). */
export function schoolPointsFromRows(rows: readonly Record<string, string>[], file: string): AmenityPoint[] {
  return rows.map((row, i) => {
    const [lon, lat] = coordOf(row, file, i + 2);
    return { id: row.school_id ?? String(i), name: row.name ?? '', lon, lat, category: 'school' as const, crowdSourced: false, source: sourceOf(row, file, i + 2) };
  });
}

/** Crossing points from crossings CSV rows (`crossing_id,lon,lat,kind,source`). */
export function crossingPointsFromRows(rows: readonly Record<string, string>[], file: string): { lon: number; lat: number }[] {
  return rows.map((row, i) => {
    const [lon, lat] = coordOf(row, file, i + 2);
    return { lon, lat };
  });
}

/** The motorway geometries of a roads layer (`road_class` = `motorway`). */
export function motorwayGeometries(features: readonly Feature<Geometry>[]): Geometry[] {
  return features.filter((f) => String(f.properties?.road_class ?? '').toLowerCase() === 'motorway').map((f) => f.geometry);
}

/** The major water geometries of a water layer (`major` true, also "true" or 1 as some publishers write it). */
export function majorWaterGeometries(features: readonly Feature<Geometry>[]): Geometry[] {
  return features.filter((f) => {
    const m = f.properties?.major;
    return m === true || m === 1 || (typeof m === 'string' && truthy(m));
  }).map((f) => f.geometry);
}

/** The single source id of a layer's features (`source` property), or `fallback` when they carry none. */
export function layerSource(features: readonly Feature[], fallback: string): string {
  const ids = [...new Set(features.map((f) => f.properties?.source).filter((s): s is string => typeof s === 'string' && s !== ''))].sort();
  return ids.length ? ids.join(',') : fallback;
}
