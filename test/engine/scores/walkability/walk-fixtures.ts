/** Builders for walkability tests: amenities placed at known distances and bearings from a subject. */
import type { Geometry } from 'geojson';
import { destination } from '../../../../engine/geo/distance.js';
import type { WalkCategory } from '../../../../engine/scores/walkability/categories.js';
import { AMENITY_CSV_CATEGORIES, buildWalkabilityIndexes, type AmenityPoint, type WalkabilityInput } from '../../../../engine/scores/walkability/walkability-layers.js';

export const LON = 144.98;
export const LAT = -37.8;

let next = 0;

/** An amenity of `category` at `distance` metres on `bearing` degrees from the subject. */
export function at(category: WalkCategory, distance: number, bearing = 90, options: { crowd?: boolean; source?: string; name?: string } = {}): AmenityPoint {
  const [lon, lat] = destination(LON, LAT, distance, bearing);
  const id = `a${next++}`;
  return { id, name: options.name ?? `${category} ${distance} m`, lon, lat, category, crowdSourced: options.crowd ?? false, source: options.source ?? 'sample_amenities' };
}

/** The lon/lat `east`, `north` metres from the subject. */
export function xy(east: number, north: number): [number, number] {
  return destination(LON, LAT, Math.hypot(east, north), (Math.atan2(east, north) * 180) / Math.PI);
}

/** A LineString through the given (east, north) metre offsets from the subject. */
export function line(...pts: [number, number][]): Geometry {
  return { type: 'LineString', coordinates: pts.map(([e, n]) => xy(e, n)) };
}

/** A Polygon through the given (east, north) metre offsets (closed for you). */
export function polygon(...pts: [number, number][]): Geometry {
  const ring = pts.map(([e, n]) => xy(e, n));
  return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
}

/** The standard three sets (amenities, stops, schools) over the given points, plus barrier layers. */
export function input(points: AmenityPoint[], extra: Partial<WalkabilityInput> = {}): WalkabilityInput {
  return {
    amenitySets: [
      { name: 'amenities', categories: AMENITY_CSV_CATEGORIES, points: points.filter((p) => AMENITY_CSV_CATEGORIES.includes(p.category)) },
      { name: 'stops', categories: ['public_transport'], points: points.filter((p) => p.category === 'public_transport') },
      { name: 'schools', categories: ['school'], points: points.filter((p) => p.category === 'school') },
    ],
    motorways: { geometries: [], source: 'sample_roads' },
    majorWater: { geometries: [], source: 'sample_water' },
    crossings: { points: [], source: 'sample_crossings' },
    ...extra,
  };
}

/** Indexes over {@link input}. */
export function indexes(points: AmenityPoint[], extra: Partial<WalkabilityInput> = {}) {
  return buildWalkabilityIndexes(input(points, extra));
}
