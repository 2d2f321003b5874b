/**
 * ANEF (Australian Noise Exposure Forecast) contours as the aircraft-noise score reads them: GeoJSON
 * polygons with `anef_min`, `anef_max` (band edges; null for an open band such as "40+" or a band the
 * publisher did not give), `airport` and `source`, and per-state coverage of the airports' published ANEFs.
 */
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import { invalidData } from '../../errors.js';
import { PolygonIndex } from '../../vector/polygon-index.js';
import type { MissingLayer } from '../layer-input.js';
import { isMissing } from '../layer-input.js';

/** One ANEF band polygon. */
export interface AnefContour {
  anef_min: number;
  anef_max: number | null;
  airport: string;
  source: string;
}

/** Coverage of a state's published ANEFs. */
export type AnefCoverage = 'complete' | 'partial' | 'not_integrated';

/** The indexed contours. */
export interface AnefLayer {
  /** Null when the contour layer could not be loaded. */
  index: PolygonIndex | null;
  contours: AnefContour[];
  coverage: Record<string, AnefCoverage>;
  unavailableReason: string | null;
}

function numOrNull(v: unknown, file: string, i: number, key: string): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw invalidData(file, `feature ${i}: ${key} must be a number or null, got ${JSON.stringify(v)}`, { feature: i });
  return n;
}

/** Contours from GeoJSON features; `file` names the layer in errors. */
export function anefContoursFromFeatures(features: readonly Feature<Geometry>[], file: string): { contours: AnefContour[]; geometries: (Polygon | MultiPolygon)[] } {
  const contours: AnefContour[] = [];
  const geometries: (Polygon | MultiPolygon)[] = [];
  features.forEach((f, i) => {
    if (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon') throw invalidData(file, `feature ${i} is a ${f.geometry.type}, expected a Polygon or MultiPolygon`, { feature: i });
    const p = f.properties ?? {};
    const min = numOrNull(p.anef_min, file, i, 'anef_min');
    if (min === null) throw invalidData(file, `feature ${i} has no anef_min`, { feature: i });
    contours.push({ anef_min: min, anef_max: numOrNull(p.anef_max, file, i, 'anef_max'), airport: String(p.airport ?? ''), source: String(p.source ?? '') });
    geometries.push(f.geometry);
  });
  return { contours, geometries };
}

/** Indexes contours with the per-state coverage (keys upper-cased). */
export function buildAnefLayer(input: { features: Feature<Geometry>[]; file: string } | MissingLayer, coverage: Record<string, AnefCoverage>): AnefLayer {
  const cov = Object.fromEntries(Object.entries(coverage).map(([k, v]) => [k.toUpperCase(), v]));
  if (isMissing(input)) return { index: null, contours: [], coverage: cov, unavailableReason: input?.reason ?? 'ANEF contours unavailable' };
  const { contours, geometries } = anefContoursFromFeatures(input.features, input.file);
  return { index: PolygonIndex.build(geometries), contours, coverage: cov, unavailableReason: null };
}
