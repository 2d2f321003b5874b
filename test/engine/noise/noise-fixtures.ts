/**
 * Synthetic noise worlds for the tests: roads and lines laid out in metres around an origin in Melbourne
 * (GDA2020 / MGA zone 55, the CRS the network picks there), converted to lon/lat so they go through the
 * same loaders and projection as real data.
 */
import type { LineString } from 'geojson';
import { getTransformer, LONLAT } from '../../../engine/geo/crs.js';
import type { AnefContour, NoiseLoggerRecord, RailInput, RoadInput, TrafficCounter } from '../../../engine/noise/noise-inputs.js';
import type { RoadClass } from '../../../engine/noise/road-classes.js';

/** The origin of every fixture: central Melbourne. */
export const ORIGIN = { lon: 145.0, lat: -37.8 } as const;
/** The CRS the fixtures are laid out in. */
export const FIXTURE_CRS = 'EPSG:7855';

const [OX, OY] = getTransformer(LONLAT, FIXTURE_CRS).forward(ORIGIN.lon, ORIGIN.lat);
const back = getTransformer(FIXTURE_CRS, LONLAT);

/** lon/lat of the point `dx` metres east and `dy` metres north of the origin (MGA grid metres). */
export function at(dx: number, dy: number): [number, number] {
  return back.forward(OX + dx, OY + dy);
}

/** A LineString through the given metre offsets. */
export function line(points: [number, number][]): LineString {
  return { type: 'LineString', coordinates: points.map(([x, y]) => at(x, y)) };
}

/** A road through metre offsets; unspecified traffic fields are null (class defaults apply). */
export function road(id: string, points: [number, number][], p: Partial<Omit<RoadInput, 'geometry' | 'id'>> = {}): RoadInput {
  return {
    id,
    name: p.name ?? id,
    roadClass: ('roadClass' in p ? p.roadClass : 'arterial') as RoadClass | null,
    aadt: p.aadt ?? null,
    heavyShare: p.heavyShare ?? null,
    speedKmh: p.speedKmh ?? null,
    gradientPct: p.gradientPct ?? null,
    crowdSourced: p.crowdSourced ?? false,
    source: p.source ?? 'test_roads',
    barrierHeightM: p.barrierHeightM ?? null,
    barrierOffsetM: p.barrierOffsetM ?? null,
    geometry: line(points),
  };
}

/** A rail or tram line through metre offsets. */
export function railLine(id: string, mode: 'rail' | 'tram', points: [number, number][], p: Partial<Omit<RailInput, 'geometry' | 'id' | 'mode'>> = {}): RailInput {
  return { id, name: p.name ?? id, mode, servicesPerDay: p.servicesPerDay ?? null, speedKmh: p.speedKmh ?? null, source: p.source ?? 'test_rail', geometry: line(points) };
}

/** A traffic counter at a metre offset. */
export function counter(id: string, dx: number, dy: number, roadId: string | null, aadt: number, p: Partial<TrafficCounter> = {}): TrafficCounter {
  const [lon, lat] = at(dx, dy);
  return { id, lon, lat, roadId, roadName: p.roadName ?? '', aadt, heavyShare: p.heavyShare ?? null, speedKmh: p.speedKmh ?? null, year: p.year ?? 2024, source: p.source ?? 'test_counters' };
}

/** A noise logger at a metre offset. */
export function logger(id: string, dx: number, dy: number, ldenDb: number, state = 'VIC'): NoiseLoggerRecord {
  const [lon, lat] = at(dx, dy);
  return { id, lon, lat, state, ldenDb, laeqDayDb: null, laeqNightDb: null, year: 2024, source: 'test_loggers' };
}

/** An axis-aligned ANEF band polygon between metre offsets. */
export function anefBand(x0: number, y0: number, x1: number, y1: number, anefMin: number, anefMax: number | null): AnefContour {
  const ring = [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1), at(x0, y0)];
  return { anefMin, anefMax, airport: 'Test Airport', source: 'test_anef', geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** A straight north-south road of length 2 * halfLength metres through x = `x`. */
export function northSouth(id: string, x: number, halfLength: number, p: Partial<Omit<RoadInput, 'geometry' | 'id'>> = {}): RoadInput {
  return road(id, [[x, -halfLength], [x, halfLength]], p);
}
