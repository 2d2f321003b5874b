/**
 * The development_applications block (spec 2.3): applications on the parcel (distance 0.0) and within
 * 300 m, most recently lodged first, from the one DA store the listing API serves. This block is never
 * silently degraded: a failing DA lookup is `UNAVAILABLE` with component `development_applications`, which the
 * server answers with 503 `core_component_unavailable` (no payload, nothing charged).
 */
import { booleanPointInPolygon } from '@turf/turf';
import type { DaRecord, DaReader } from '../../da/index.js';
import { daItem } from '../../da/index.js';
import { EngineError } from '../../errors.js';
import { ON_SITE_TOLERANCE_M } from '../kit/layer-query.js';
import { LIMITS } from '../kit/options.js';
import type { BlockContext } from './context.js';

/** Builds the DA block; throws UNAVAILABLE (component development_applications) when the store fails. */
export function dasBlock(ctx: BlockContext, das: () => DaReader, wanted: (key: string) => boolean): Record<string, unknown> {
  const { lon, lat, parcel } = ctx.subject;
  let onParcel: { record: DaRecord; distanceM: number }[];
  let nearby: { record: DaRecord; distanceM: number }[];
  try {
    const store = das();
    const around = store.nearby(lon, lat, LIMITS.daRadiusM, { orderBy: 'lodged_desc' });
    const isOn = (r: DaRecord, d: number) => (parcel ? booleanPointInPolygon([r.lng!, r.lat!], parcel) : d <= ON_SITE_TOLERANCE_M);
    onParcel = around.filter((h) => isOn(h.record, h.distanceM));
    const on = new Set(onParcel.map((h) => h.record.id));
    nearby = around.filter((h) => !on.has(h.record.id));
  } catch (err) {
    if (ctx.options.signal?.aborted) throw err;
    throw new EngineError('UNAVAILABLE', `the development-applications lookup could not answer: ${(err as Error).message}`, { component: 'development_applications' });
  }
  const out: Record<string, unknown> = {};
  const sources: string[] = [];
  if (wanted('on_parcel')) {
    out.on_parcel = onParcel.map((h) => daItem(h.record, 0));
    sources.push(...onParcel.map((h) => h.record.source));
  }
  if (wanted('nearby_300m')) {
    out.nearby_300m = nearby.map((h) => daItem(h.record, h.distanceM));
    sources.push(...nearby.map((h) => h.record.source));
  }
  // Empty DA results stay not_assessed (spec 3): DA coverage is partial by nature.
  ctx.log.record('development_applications', sources, { emptyIsNotAssessed: true });
  return out;
}
