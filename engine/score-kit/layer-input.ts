/**
 * How a score is handed one of its input layers: the loaded data with its source id, or a marker saying
 * why it is missing. The distinction matters downstream: a layer that failed to load (`unavailable`) makes
 * the result degraded and retryable, while a layer the catalogue does not hold for the state
 * (`not_integrated`) is a stable answer. Neither is ever read as "checked, nothing found".
 */
import type { AnyGrid } from '../raster/sample.js';

/** Whether an input answered. */
export type LayerStatus = 'available' | 'unavailable' | 'not_integrated';

/** A missing input and why. */
export interface MissingLayer {
  status: 'unavailable' | 'not_integrated';
  /** Plain-English reason, e.g. "lst.tif: file not found" or "no LST source held for WA". */
  reason?: string;
}

/** A loaded raster input. */
export interface RasterLayer {
  status?: 'available';
  /** The grid covering (at least) the neighbourhood the score reads. */
  grid: AnyGrid;
  /** Source id from the dataset catalogue. */
  source: string;
}

/** A raster input as a score receives it; null or undefined means not integrated. */
export type RasterInput = RasterLayer | MissingLayer | null | undefined;

/** The resolved state of an input: the layer when available, else its status and reason. */
export interface ResolvedLayer<L> {
  layer: L | null;
  status: LayerStatus;
  reason: string | null;
}

/** True when the input is a missing-layer marker (or absent). */
export function isMissing<L extends object>(input: L | MissingLayer | null | undefined): input is MissingLayer | null | undefined {
  return !input || ((input as MissingLayer).status === 'unavailable' || (input as MissingLayer).status === 'not_integrated');
}

/** Resolves an input to its layer or its missing status (absent means `not_integrated`). */
export function resolveLayer<L extends object>(input: L | MissingLayer | null | undefined): ResolvedLayer<L> {
  if (!input) return { layer: null, status: 'not_integrated', reason: 'no dataset held for this input' };
  if (isMissing(input)) return { layer: null, status: input.status, reason: input.reason ?? null };
  return { layer: input as L, status: 'available', reason: null };
}

/** The missing-layer marker for an error thrown while loading a layer (the lead's loaders use this). */
export function unavailableLayer(err: unknown): MissingLayer {
  return { status: 'unavailable', reason: err instanceof Error ? err.message : String(err) };
}
