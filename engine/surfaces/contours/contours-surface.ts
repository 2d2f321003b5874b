/**
 * `surfaces.contours` for one address: choose the one source that applies (spec §2.7), then trace (DEM) or
 * select (state contour lines) the lines in the window around it.
 */
import { assertLonLat } from '../../geo/window.js';
import { unavailable, unpackContours, type ContoursLayer, type PackedContoursLayer } from './contours-layer.js';
import { demContours } from './dem-contours.js';
import { validateInterval } from './interval.js';
import type { ContourRequestOptions } from './request.js';
import { chooseContourSource, type ContourSources } from './sources.js';
import { vectorContours } from './vector-contours.js';

/** One contours request: plain data, so it crosses the worker boundary as is. */
export interface ContoursRequest extends Omit<ContourRequestOptions, 'signal'> {
  /** Subject longitude, degrees. */
  lon: number;
  /** Subject latitude, degrees. */
  lat: number;
  /** The subject's state (VIC, NSW, ... or the full name); null or omitted when undetermined. */
  state?: string | null;
  /** The sources the catalogue provides. */
  sources: ContourSources;
}

/**
 * The contours layer with its lines packed in typed arrays (what the `contours` worker task returns).
 * Throws `INVALID_ARGUMENT` naming `contour_interval_m`, `lng` or `lat` for bad input, and the raster or
 * GeoJSON reader's errors (NOT_FOUND, INVALID_DATA, UNSUPPORTED naming the file) for bad data.
 */
export async function computeContours(request: ContoursRequest, signal?: AbortSignal): Promise<PackedContoursLayer> {
  validateInterval(request.interval);
  assertLonLat(request.lon, request.lat);
  const choice = chooseContourSource(request.lon, request.lat, request.state, request.sources);
  const options: ContourRequestOptions = { interval: request.interval, halfWidth: request.halfWidth, limits: request.limits, signal };
  if (choice.kind === 'dem') return demContours(choice.source, request.lon, request.lat, options);
  if (choice.kind === 'vector') return vectorContours(choice.source, request.lon, request.lat, options);
  return unavailable(null, 'source_not_configured', choice.note);
}

/** The contours layer of spec §2.7 with its lines as a GeoJSON FeatureCollection (in-process). */
export async function contoursSurface(request: ContoursRequest, signal?: AbortSignal): Promise<ContoursLayer> {
  return unpackContours(await computeContours(request, signal));
}
