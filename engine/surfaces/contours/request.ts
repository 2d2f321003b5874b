/** The options of one contours request, shared by the DEM and contour-line paths. */
import { AUTO_MAX_LEVELS, MAX_LEVELS } from './interval.js';
import { CONTOUR_LINE_CAP, MAX_FEATURE_BYTES, MAX_LAYER_BYTES, type ContourLimits } from './limits.js';

/** Options of a contours request. */
export interface ContourRequestOptions {
  /**
   * The caller's `contour_interval_m`, metres: above 0, at most 200 (spec §4). Omitted: the default 5 m,
   * widened automatically over steep relief.
   */
  interval?: number;
  /** Half the side of the window square, metres; default 1,500 (the spec's "about 1.5 km window"). */
  halfWidth?: number;
  /** Overrides of the size limits (tests; the CLI's `--unlimited`); default the spec's. */
  limits?: Partial<ContourLimits>;
  /** Cancels the file reads. */
  signal?: AbortSignal;
}

/** The limits of the spec (and this engine's documented choices where the spec gives no number). */
export const SPEC_LIMITS: ContourLimits = {
  maxLines: CONTOUR_LINE_CAP,
  maxFeatureBytes: MAX_FEATURE_BYTES,
  maxLayerBytes: MAX_LAYER_BYTES,
  maxLevels: MAX_LEVELS,
  autoMaxLevels: AUTO_MAX_LEVELS,
};

/** No limits at all: every line, at exactly the interval asked for (the CLI's `--unlimited`, like gdal_contour). */
export const NO_LIMITS: ContourLimits = {
  maxLines: Infinity,
  maxFeatureBytes: Infinity,
  maxLayerBytes: Infinity,
  maxLevels: Infinity,
  autoMaxLevels: Infinity,
};

/** The limits in force: the spec's, with any overrides. */
export function resolveLimits(overrides: Partial<ContourLimits> = {}): ContourLimits {
  return { ...SPEC_LIMITS, ...overrides };
}
