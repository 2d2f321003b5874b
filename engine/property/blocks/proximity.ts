/**
 * The transport and utilities blocks (spec 2.1): the nearest rail station and line, public-transport stop
 * and airport; the nearest power, gas and oil infrastructure and water and sewer mains; each as a list of at
 * most one layer item with `distance_km` and the closest point. Nothing within the search distance is an
 * empty list: checked, none found.
 */
import type { PayloadPath } from '../../catalogue/payload-paths.js';
import { nearestHit } from '../kit/layer-query.js';
import { layerItemOf, lookup, type BlockContext } from './context.js';

/** Search distance per key, metres. */
export const PROXIMITY_LOOKUPS: Record<'transport' | 'utilities', Record<string, number>> = {
  transport: { rail_station: 50_000, rail_line: 50_000, pt_stop: 5_000, airport: 1_000_000 },
  utilities: { power: 20_000, gas: 20_000, oil: 50_000, water_main: 2_000, sewer_main: 2_000 },
};

/** Builds the transport or utilities block. */
export function proximityBlock(ctx: BlockContext, block: 'transport' | 'utilities', wanted: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const point = { ...ctx.subject, parcel: null };
  for (const [name, maxM] of Object.entries(PROXIMITY_LOOKUPS[block])) {
    if (!wanted(name)) continue;
    const path = `${block}.${name}` as PayloadPath;
    const items = lookup(ctx, path, () => {
      const hit = nearestHit(ctx.store, path, point, maxM);
      return hit ? { items: [layerItemOf(ctx, hit, { distance: true })], sources: [hit.layer.source.id] } : { items: [], sources: [] };
    });
    if (items) out[name] = items;
  }
  return out;
}
