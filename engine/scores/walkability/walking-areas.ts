/**
 * `walking_areas`: the 5/10/15-minute straight-line bands as GeoJSON polygons (circles of 400, 800 and
 * 1,200 m, 64 vertices, counter-clockwise as RFC 7946 asks of exterior rings). Distance bands, not road
 * isochrones.
 */
import type { FeatureCollection, Polygon } from 'geojson';
import { destination } from '../../geo/distance.js';
import { WALK_BAND_MINUTES, WALK_BANDS_M } from './distance-decay.js';

/** The note that travels with the polygons. */
export const WALKING_AREAS_METHOD_NOTE =
  'Straight-line distance bands of 400, 800 and 1,200 m (5, 10 and 15 minutes at 80 m/min) around the subject: not road-network isochrones. Barriers, crossings and routes are not drawn.';

/** The walking-area polygons, with their method note as a foreign member of the collection. */
export type WalkingAreas = FeatureCollection<Polygon, { band_m: number; minutes: number }> & { method_note: string };

/** Vertices per circle. */
const VERTICES = 64;

/** The three band polygons around (lon, lat). */
export function walkingAreas(lon: number, lat: number): WalkingAreas {
  return {
    type: 'FeatureCollection',
    method_note: WALKING_AREAS_METHOD_NOTE,
    features: WALK_BANDS_M.map((band, i) => {
      const ring: [number, number][] = [];
      // Bearings decreasing from north walk the ring anticlockwise (east of north is clockwise).
      for (let k = 0; k < VERTICES; k++) ring.push(round7(destination(lon, lat, band, 360 - (360 * k) / VERTICES)));
      ring.push(ring[0]);
      return { type: 'Feature' as const, properties: { band_m: band, minutes: WALK_BAND_MINUTES[i] }, geometry: { type: 'Polygon' as const, coordinates: [ring] } };
    }),
  };
}

function round7(p: [number, number]): [number, number] {
  return [Math.round(p[0] * 1e7) / 1e7, Math.round(p[1] * 1e7) / 1e7];
}
