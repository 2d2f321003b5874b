/**
 * The noise model's input schema and its validation. Inputs come as GeoJSON features (roads, rail, ANEF
 * contours, lon/lat) and records (traffic counters, noise loggers: CSV rows or JSON objects), in the schema
 * the dataset catalogue provides:
 *
 * - roads: LineString / MultiLineString; `road_id`, `name`, `road_class` (motorway | arterial | collector |
 *   local), `aadt` (vehicles/day or null), `heavy_share` (0-1 or null), `speed_kmh` (or null),
 *   `gradient_pct` (or null), `crowd_sourced` (boolean), `source`; optional `barrier_height_m` and
 *   `barrier_offset_m` (a noise wall on both sides, its top above the road and its distance from the
 *   centreline, metres).
 * - rail: LineString / MultiLineString; `line_id`, `name`, `mode` (rail | tram), `services_day`,
 *   `speed_kmh`, `source`.
 * - counters: `counter_id, lon, lat, road_id, road_name, aadt, heavy_share, speed_kmh, year, source`.
 * - loggers: `logger_id, lon, lat, state, lden_db, laeq_day_db, laeq_night_db, year, source`.
 * - ANEF: Polygon / MultiPolygon; `anef_min`, `anef_max` (null for the open outer band), `airport`, `source`.
 *
 * A missing optional value (null, empty string, absent) becomes null and is defaulted later, flagged. A
 * value that is present but wrong (text where a number belongs, a share above 1, an unknown class) is an
 * INVALID_DATA error naming the file, the feature or line, and the field: never NaN downstream.
 */
import type { Feature, Geometry, LineString, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import { invalidData } from '../errors.js';
import type { AnefBand } from './aircraft.js';
import { RAIL_MODES, type RailMode } from './rail-emission.js';
import { isRoadClass, ROAD_CLASSES, type RoadClass } from './road-classes.js';

/** A road of the network, validated. */
export interface RoadInput {
  id: string;
  name: string;
  /** Class from the data; null when the data gave none (then 'local' defaults apply, flagged). */
  roadClass: RoadClass | null;
  aadt: number | null;
  heavyShare: number | null;
  speedKmh: number | null;
  gradientPct: number | null;
  /** True for OpenStreetMap-like rows: never listed in `sources`, only as `dominant_road`. */
  crowdSourced: boolean;
  source: string;
  /** Noise wall top above the road surface, metres (null: no wall). */
  barrierHeightM: number | null;
  /** Noise wall distance from the centreline, metres (null: no wall). */
  barrierOffsetM: number | null;
  geometry: LineString | MultiLineString;
}

/** A rail or tram line, validated. */
export interface RailInput {
  id: string;
  name: string;
  mode: RailMode;
  servicesPerDay: number | null;
  speedKmh: number | null;
  source: string;
  geometry: LineString | MultiLineString;
}

/** A monitored traffic counter. */
export interface TrafficCounter {
  id: string;
  lon: number;
  lat: number;
  /** The counted road's `road_id` (null when the record has none; then it is matched by proximity). */
  roadId: string | null;
  roadName: string;
  aadt: number;
  heavyShare: number | null;
  speedKmh: number | null;
  year: number | null;
  source: string;
}

/** A noise logger (instrument) result. */
export interface NoiseLoggerRecord {
  id: string;
  lon: number;
  lat: number;
  /** State or territory code, e.g. "VIC". */
  state: string;
  ldenDb: number;
  laeqDayDb: number | null;
  laeqNightDb: number | null;
  year: number | null;
  source: string;
}

/** An ANEF contour band with its polygon (lon/lat). */
export interface AnefContour extends AnefBand {
  geometry: Polygon | MultiPolygon;
}

type Where = { file: string; at: string };

function fail(w: Where, message: string, details: Record<string, unknown> = {}): never {
  throw invalidData(w.file, `${w.at}: ${message}`, details);
}

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

function optionalNumber(v: unknown, field: string, w: Where, range: { min?: number; max?: number } = {}): number | null {
  if (isBlank(v)) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : NaN;
  if (!Number.isFinite(n)) fail(w, `${field} must be a number or empty, got ${JSON.stringify(v)}`, { field });
  if (range.min !== undefined && n < range.min) fail(w, `${field} must be at least ${range.min}, got ${n}`, { field });
  if (range.max !== undefined && n > range.max) fail(w, `${field} must be at most ${range.max}, got ${n}`, { field });
  return n;
}

function requiredNumber(v: unknown, field: string, w: Where, range?: { min?: number; max?: number }): number {
  const n = optionalNumber(v, field, w, range);
  if (n === null) fail(w, `${field} is required`, { field });
  return n;
}

function text(v: unknown, field: string, w: Where, required = false): string {
  if (isBlank(v)) {
    if (required) fail(w, `${field} is required`, { field });
    return '';
  }
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return fail(w, `${field} must be text, got ${JSON.stringify(v)}`, { field });
}

function bool(v: unknown, field: string, w: Where): boolean {
  if (isBlank(v)) return false;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  return fail(w, `${field} must be true or false, got ${JSON.stringify(v)}`, { field });
}

function lineGeometry(g: Geometry, w: Where): LineString | MultiLineString {
  if (g.type !== 'LineString' && g.type !== 'MultiLineString') fail(w, `geometry must be a LineString or MultiLineString, got ${g.type}`);
  return g;
}

function featureWhere(file: string, f: Feature, i: number, idField: string): Where {
  const id = (f.properties as Record<string, unknown> | null)?.[idField];
  return { file, at: `feature ${i}${isBlank(id) ? '' : ` (${idField} ${JSON.stringify(id)})`}` };
}

const LON = { min: -180, max: 180 };
const LAT = { min: -90, max: 90 };

/** Validates road features. */
export function parseRoadFeatures(features: readonly Feature<Geometry>[], file: string): RoadInput[] {
  return features.map((f, i) => {
    const w = featureWhere(file, f, i, 'road_id');
    const p = (f.properties ?? {}) as Record<string, unknown>;
    const cls = p.road_class;
    if (!isBlank(cls) && !isRoadClass(cls)) fail(w, `road_class must be one of ${ROAD_CLASSES.join(', ')}, got ${JSON.stringify(cls)}`, { field: 'road_class' });
    const barrierHeightM = optionalNumber(p.barrier_height_m, 'barrier_height_m', w, { min: 0, max: 30 });
    const barrierOffsetM = optionalNumber(p.barrier_offset_m, 'barrier_offset_m', w, { min: 0, max: 500 });
    if ((barrierHeightM === null) !== (barrierOffsetM === null)) fail(w, 'barrier_height_m and barrier_offset_m must be given together');
    return {
      id: text(p.road_id, 'road_id', w) || `road-${i}`,
      name: text(p.name, 'name', w),
      roadClass: isBlank(cls) ? null : (cls as RoadClass),
      aadt: optionalNumber(p.aadt, 'aadt', w, { min: 0 }),
      heavyShare: optionalNumber(p.heavy_share, 'heavy_share', w, { min: 0, max: 1 }),
      speedKmh: optionalNumber(p.speed_kmh, 'speed_kmh', w, { min: 5, max: 150 }),
      gradientPct: optionalNumber(p.gradient_pct, 'gradient_pct', w, { min: -30, max: 30 }),
      crowdSourced: bool(p.crowd_sourced, 'crowd_sourced', w),
      source: text(p.source, 'source', w),
      barrierHeightM,
      barrierOffsetM,
      geometry: lineGeometry(f.geometry, w),
    };
  });
}

/** Validates rail and tram features. */
export function parseRailFeatures(features: readonly Feature<Geometry>[], file: string): RailInput[] {
  return features.map((f, i) => {
    const w = featureWhere(file, f, i, 'line_id');
    const p = (f.properties ?? {}) as Record<string, unknown>;
    const mode = p.mode;
    if (typeof mode !== 'string' || !(RAIL_MODES as readonly string[]).includes(mode)) fail(w, `mode must be one of ${RAIL_MODES.join(', ')}, got ${JSON.stringify(mode)}`, { field: 'mode' });
    return {
      id: text(p.line_id, 'line_id', w) || `line-${i}`,
      name: text(p.name, 'name', w),
      mode: mode as RailMode,
      servicesPerDay: optionalNumber(p.services_day, 'services_day', w, { min: 0 }),
      speedKmh: optionalNumber(p.speed_kmh, 'speed_kmh', w, { min: 5, max: 350 }),
      source: text(p.source, 'source', w),
      geometry: lineGeometry(f.geometry, w),
    };
  });
}

export { COUNTER_COLUMNS, LOGGER_COLUMNS } from '../data/record-columns.js';

/** Validates traffic counter records (CSV rows or JSON objects). Line numbers assume a CSV header on line 1. */
export function parseCounterRecords(rows: readonly Record<string, unknown>[], file: string): TrafficCounter[] {
  return rows.map((r, i) => {
    const w = { file, at: `record ${i + 1} (line ${i + 2})` };
    return {
      id: text(r.counter_id, 'counter_id', w, true),
      lon: requiredNumber(r.lon, 'lon', w, LON),
      lat: requiredNumber(r.lat, 'lat', w, LAT),
      roadId: text(r.road_id, 'road_id', w) || null,
      roadName: text(r.road_name, 'road_name', w),
      aadt: requiredNumber(r.aadt, 'aadt', w, { min: 0 }),
      heavyShare: optionalNumber(r.heavy_share, 'heavy_share', w, { min: 0, max: 1 }),
      speedKmh: optionalNumber(r.speed_kmh, 'speed_kmh', w, { min: 5, max: 150 }),
      year: optionalNumber(r.year, 'year', w, { min: 1900, max: 2200 }),
      source: text(r.source, 'source', w),
    };
  });
}

/** Validates noise logger records. */
export function parseLoggerRecords(rows: readonly Record<string, unknown>[], file: string): NoiseLoggerRecord[] {
  return rows.map((r, i) => {
    const w = { file, at: `record ${i + 1} (line ${i + 2})` };
    return {
      id: text(r.logger_id, 'logger_id', w, true),
      lon: requiredNumber(r.lon, 'lon', w, LON),
      lat: requiredNumber(r.lat, 'lat', w, LAT),
      state: text(r.state, 'state', w, true).toUpperCase(),
      ldenDb: requiredNumber(r.lden_db, 'lden_db', w, { min: 0, max: 140 }),
      laeqDayDb: optionalNumber(r.laeq_day_db, 'laeq_day_db', w, { min: 0, max: 140 }),
      laeqNightDb: optionalNumber(r.laeq_night_db, 'laeq_night_db', w, { min: 0, max: 140 }),
      year: optionalNumber(r.year, 'year', w, { min: 1900, max: 2200 }),
      source: text(r.source, 'source', w),
    };
  });
}

/** Validates ANEF contour features. */
export function parseAnefFeatures(features: readonly Feature<Geometry>[], file: string): AnefContour[] {
  return features.map((f, i) => {
    const w = { file, at: `feature ${i}` };
    const p = (f.properties ?? {}) as Record<string, unknown>;
    if (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon') fail(w, `geometry must be a Polygon or MultiPolygon, got ${f.geometry.type}`);
    const anefMin = requiredNumber(p.anef_min, 'anef_min', w, { min: 0, max: 80 });
    const anefMax = optionalNumber(p.anef_max, 'anef_max', w, { min: 0, max: 80 });
    if (anefMax !== null && !(anefMax > anefMin)) fail(w, `anef_max (${anefMax}) must exceed anef_min (${anefMin})`, { field: 'anef_max' });
    return { anefMin, anefMax, airport: text(p.airport, 'airport', w), source: text(p.source, 'source', w), geometry: f.geometry };
  });
}
