/**
 * The `surfaces.contours` object of spec §2.7, and the last steps every source shares: lines in the window's
 * CRS -> lon/lat rounded to 6 decimals -> the limits -> the layer.
 *
 * Inside the engine (and across the worker boundary) the features travel packed in typed arrays
 * ({@link PackedContoursLayer}); {@link unpackContours} turns them into the GeoJSON FeatureCollection.
 */
import type { FeatureCollection } from 'geojson';
import { LONLAT } from '../../geo/crs.js';
import type { Window } from '../../geo/window.js';
import { contourFeature, featureJsonLength, roundCoordinate, type ContourFeature } from './feature-size.js';
import type { IntervalChoice, IntervalSource } from './interval.js';
import { latticeTransform } from '../../geo/lattice-transform.js';
import { LineBuffer, selectLines, type PackedLines } from './line-buffer.js';
import { applyLimits, truncatedNote, type ContourLimits } from './limits.js';

/** Why a layer is unavailable (a closed set). */
export const CONTOURS_UNAVAILABLE_REASONS = ['outside_coverage', 'no_lines_in_window', 'source_not_configured'] as const;
/** One of {@link CONTOURS_UNAVAILABLE_REASONS}. */
export type ContoursUnavailableReason = (typeof CONTOURS_UNAVAILABLE_REASONS)[number];

/** The contours layer when it could not be produced (echoed in `meta.surfaces.unavailable.contours`). */
export interface ContoursUnavailable {
  available: false;
  /** The source that applies to this address (null when none is configured). */
  source: string | null;
  source_name: string | null;
  /** `outside_coverage` (the DEM has no data in the window), `no_lines_in_window` (the state dataset has no
   * lines there) or `source_not_configured` (the applicable source is missing). */
  reason: ContoursUnavailableReason;
  /** Plain-English explanation. */
  note: string;
  /** Source ids consulted (one at most: sources are never substituted). */
  services_tried: string[];
}

/** The contours layer (spec §2.7), with its lines as a GeoJSON FeatureCollection. */
export interface ContoursAvailable {
  available: true;
  /** Catalogue id of the one source used. */
  source: string;
  source_name: string;
  /** What the dataset holds, metres. */
  native_interval_m: number;
  /** Spacing used, metres. */
  interval_m: number;
  /**
   * Why `interval_m` is what it is: `requested`, `auto`, `raised_to_floor` or `widened_to_fit` (see
   * `INTERVAL_SOURCES` in interval.ts). `widened_to_fit` also covers a request rounded up to a multiple of a
   * contour-line dataset's spacing (15 m on 10 m lines gives 20 m), besides one with too many levels.
   */
  interval_source: IntervalSource;
  /** `partial` when the window is only partly inside the source's footprint (lines stop at its boundary). */
  coverage?: 'partial';
  /** Share of the window with data, 0-1 (3 decimals), with `coverage`. */
  covered_fraction?: number;
  /** Elevations of the bands actually delivered, metres, ascending. */
  levels: number[];
  /** True when lines were left out for size. */
  truncated: boolean;
  /** Only when truncated: lines dropped for the per-feature limit or the byte budget (not the line cap). */
  segments_dropped?: number;
  /** Only when truncated: the drops, whether the full elevation range is still spanned, the remedy. */
  truncated_note?: string;
  /** The lines, lon/lat (RFC 7946), each with its `elevation` in metres; high ground on the right. */
  features: FeatureCollection<ContourFeature['geometry'], ContourFeature['properties']>;
}

/** Either form of the layer. */
export type ContoursLayer = ContoursAvailable | ContoursUnavailable;

/** {@link ContoursAvailable} with its features packed in typed arrays (lon/lat, rounded). */
export type PackedContoursAvailable = Omit<ContoursAvailable, 'features'> & { lines: PackedLines };
/** What the engine computes and the `contours` worker task returns. */
export type PackedContoursLayer = PackedContoursAvailable | ContoursUnavailable;

/** The GeoJSON form of a packed layer (cheap: builds the coordinate arrays, nothing else). */
export function unpackContours(layer: PackedContoursLayer): ContoursLayer {
  if (!layer.available) return layer;
  const { lines, ...fields } = layer;
  const features: ContourFeature[] = new Array(lines.elevation.length);
  for (let i = 0; i < features.length; i++) features[i] = contourFeature(lines.elevation[i], lines.xy, lines.offsets[i], lines.offsets[i + 1]);
  return { ...fields, features: { type: 'FeatureCollection', features } };
}

/** Builds the unavailable layer. */
export function unavailable(source: { id: string; name: string } | null, reason: ContoursUnavailableReason, note: string): ContoursUnavailable {
  return { available: false, source: source?.id ?? null, source_name: source?.name ?? null, reason, note, services_tried: source ? [source.id] : [] };
}

/** Everything the final step needs. */
export interface AssembleInput {
  /** The analysis window (its CRS, square and subject). */
  window: Window;
  /** Lines in the window's CRS, already clipped to it. */
  lines: PackedLines;
  /** Source order: indices into `lines`, first returned first (the line cap keeps the head of this list). */
  order: ArrayLike<number>;
  /** The source's catalogue id and name, reported as `source` and `source_name`. */
  source: { id: string; name: string };
  /** Reported as `native_interval_m`, metres. */
  native_interval_m: number;
  /** The interval used and its `interval_source`. */
  choice: IntervalChoice;
  /** Share of the window with data, when known (DEM sources). */
  coveredFraction?: number;
  /** The size limits in force. */
  limits: ContourLimits;
}

/** Coverage below this (after rounding to 3 decimals: under 0.9995) is reported as partial. */
const FULL_COVERAGE = 0.9995;

/** Lon/lat, rounding, limits and the layer object. */
export function assembleContours(input: AssembleInput): PackedContoursAvailable {
  const { window, limits } = input;
  const ordered = selectLines(input.lines, input.order);
  latticeTransform(window.crs, LONLAT, window.bbox).forwardArray(ordered.xy);

  // Round to the output precision; points that become equal merge, and lines that collapse are dropped.
  const rounded = new LineBuffer();
  for (let i = 0; i < ordered.elevation.length; i++) {
    for (let p = ordered.offsets[i]; p < ordered.offsets[i + 1]; p++) rounded.add(roundCoordinate(ordered.xy[2 * p]), roundCoordinate(ordered.xy[2 * p + 1]));
    rounded.end(ordered.elevation[i], ordered.closed[i] === 1, i);
  }
  const all = rounded.pack();
  const n = all.elevation.length;
  const bytes = new Float64Array(n);
  for (let i = 0; i < n; i++) bytes[i] = featureJsonLength(all.elevation[i], all.xy, all.offsets[i], all.offsets[i + 1]);
  const outcome = applyLimits(all.elevation, bytes, limits);
  const kept = selectLines(all, outcome.keep);

  const levels = [...new Set(kept.elevation)].sort((a, b) => a - b);
  let lo = Infinity, hi = -Infinity;
  for (const e of all.elevation) {
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  const sizeDropped = outcome.featureDropped + outcome.budgetDropped;
  const truncated = outcome.capDropped + sizeDropped > 0;
  const layer: PackedContoursAvailable = {
    available: true,
    source: input.source.id,
    source_name: input.source.name,
    native_interval_m: input.native_interval_m,
    interval_m: input.choice.interval_m,
    interval_source: input.choice.interval_source,
    ...(input.coveredFraction !== undefined && input.coveredFraction < FULL_COVERAGE
      ? { coverage: 'partial' as const, covered_fraction: Math.round(input.coveredFraction * 1000) / 1000 }
      : {}),
    levels,
    truncated,
    lines: kept,
  };
  if (truncated) {
    layer.segments_dropped = sizeDropped;
    layer.truncated_note = truncatedNote({
      lines: n,
      capDropped: outcome.capDropped,
      sizeDropped,
      fullRange: [lo, hi],
      deliveredRange: levels.length ? [levels[0], levels[levels.length - 1]] : null,
      interval: input.choice.interval_m,
      maxLines: limits.maxLines,
    });
  }
  return layer;
}
