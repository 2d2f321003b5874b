/**
 * ANEF (Australian Noise Exposure Forecast) contours as the aircraft-noise score reads them: GeoJSON
 * polygons with `anef_min`, `anef_max` (band edges; null for an open band such as "40+" or a band the
 * publisher did not give), `airport` and `source`, and per-state coverage of the airports' published ANEFs.
 */
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import { parseAnefFeatures } from '../../noise/noise-inputs.js';
import { PolygonIndex } from '../../vector/polygon-index.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import { isMissing } from '../../score-kit/layer-input.js';

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

/**
 * Contours from GeoJSON features, validated by the one ANEF parser (engine/noise/noise-inputs.ts, which the
 * noise model reads the same layer with); `file` names the layer in errors.
 */
export function anefContoursFromFeatures(features: readonly Feature<Geometry>[], file: string): { contours: AnefContour[]; geometries: (Polygon | MultiPolygon)[] } {
  const bands = parseAnefFeatures(features, file);
  return {
    contours: bands.map((b) => ({ anef_min: b.anefMin, anef_max: b.anefMax, airport: b.airport, source: b.source })),
    geometries: bands.map((b) => b.geometry),
  };
}

/** Indexes contours with the per-state coverage (keys upper-cased). */
export function buildAnefLayer(input: { features: Feature<Geometry>[]; file: string } | MissingLayer, coverage: Record<string, AnefCoverage>): AnefLayer {
  const cov = Object.fromEntries(Object.entries(coverage).map(([k, v]) => [k.toUpperCase(), v]));
  if (isMissing(input)) return { index: null, contours: [], coverage: cov, unavailableReason: input?.reason ?? 'ANEF contours unavailable' };
  const { contours, geometries } = anefContoursFromFeatures(input.features, input.file);
  return { index: PolygonIndex.build(geometries), contours, coverage: cov, unavailableReason: null };
}
