/**
 * What every block builder is handed: the data, the subject (point, state, parcel), the resolved options, the
 * lookup log, and the geometry policy (clipped GeoJSON only with include_geometry on a geometry-licensed key,
 * and only for sources whose publisher allows redistribution).
 */
import type { Geometry } from 'geojson';
import type { DataStore } from '../../data/dataset-store.js';
import type { BBox } from '../../geo/bbox.js';
import { createWindow, windowLonLatBBox } from '../../geo/window.js';
import type { LayerHit, Subject } from '../kit/layer-query.js';
import { clippedGeometry, km, r7 } from '../kit/layer-item.js';
import type { LookupLog } from '../kit/lookup-log.js';
import type { ResolvedOptions } from '../kit/options.js';

/** The context of one lookup's block builders. */
export interface BlockContext {
  store: DataStore;
  subject: Subject;
  options: ResolvedOptions;
  log: LookupLog;
  /** True when geometry may be delivered at all (include_geometry and the geometry licence). */
  geometry: boolean;
  /** The about 1.5 km window around the subject, lon/lat (geometry clip, spec 8). */
  clipBox: BBox;
}

/** Builds the block context. */
export function blockContext(store: DataStore, subject: Subject, options: ResolvedOptions, log: LookupLog): BlockContext {
  return {
    store,
    subject,
    options,
    log,
    geometry: options.include_geometry && options.licence.geometry,
    clipBox: windowLonLatBBox(createWindow(subject.lon, subject.lat)),
  };
}

/** Why geometry is missing from an item although it was asked for and licensed. */
export const GEOMETRY_NOT_REDISTRIBUTABLE = 'The publisher does not license redistribution of this geometry; identifiers and properties only.';

/** Adds clipped geometry to `item` when the request, the licence and the publisher allow it. */
export function withGeometry<T extends Record<string, unknown>>(ctx: BlockContext, item: T, hit: LayerHit, credit: string, box: BBox = ctx.clipBox): T {
  if (!ctx.geometry || !hit.feature) return item;
  if (!hit.layer.source.geometry_redistribution) return { ...item, geometry_omitted: GEOMETRY_NOT_REDISTRIBUTABLE };
  const g: Geometry | null = clippedGeometry(hit.feature, box);
  if (!g) return item;
  ctx.log.geometryFrom(credit, hit.layer.source.id);
  return { ...item, geometry: g };
}

/** The layer item of spec 2.1 for a hit: source, state, optional distance_km and lat/lng, properties. */
export function layerItemOf(ctx: BlockContext, hit: LayerHit, opts: { distance?: boolean; point?: boolean } = {}): Record<string, unknown> {
  const item: Record<string, unknown> = { source: hit.layer.source.id, state: hit.layer.file.state ?? ctx.subject.state };
  if (opts.distance) item.distance_km = km(hit.distanceM);
  if (opts.point !== false && hit.lon !== undefined && hit.lat !== undefined) {
    item.lat = r7(hit.lat);
    item.lng = r7(hit.lon);
  }
  item.properties = cleanProperties(hit.properties);
  return item;
}

/** Publisher properties without the coordinate and source columns that record files carry. */
export function cleanProperties(p: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (!['lon', 'lat', 'lng', 'source'].includes(k)) out[k] = v;
  return out;
}

/**
 * Runs one lookup of a data path, logging its outcome; a lookup that throws is logged as failed and yields
 * null, so the caller leaves the key out rather than reporting an empty list.
 */
export function lookup<T>(ctx: BlockContext, path: string, run: () => { items: T[]; sources: string[] }, options: { emptyIsNotAssessed?: boolean; component?: string } = {}): T[] | null {
  try {
    const { items, sources } = run();
    ctx.log.record(path, sources, options);
    return items;
  } catch (err) {
    if (ctx.options.signal?.aborted) throw err;
    ctx.log.fail(path, options.component ?? path);
    return null;
  }
}
