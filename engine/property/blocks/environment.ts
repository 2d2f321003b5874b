/**
 * The environment block (spec 2.1): every key the spec lists. Keys without `_nearby` are what covers the
 * parcel (or, for point records such as licensed activities, what sits on it); `_nearby` keys and species
 * records are what lies within a documented radius of the subject, nearest first, with `distance_km`.
 */
import type { PayloadPath } from '../../catalogue/payload-paths.js';
import { coveringHits, pointsOnSite, withinHits, type LayerHit } from '../kit/layer-query.js';
import { layerItemOf, lookup, withGeometry, type BlockContext } from './context.js';

/** How each environment key is looked up; radii in metres. */
export const ENVIRONMENT_LOOKUPS: Record<string, { kind: 'covering' } | { kind: 'on_site' } | { kind: 'within'; radiusM: number; excludeOnSite?: boolean }> = {
  protected_areas: { kind: 'covering' },
  epbc_mnes: { kind: 'covering' },
  aboriginal_heritage: { kind: 'covering' },
  soils: { kind: 'covering' },
  bioregions: { kind: 'covering' },
  /** Register sites within 500 m (sites on the parcel are hazards.contamination). */
  contaminated_nearby: { kind: 'within', radiusM: 500, excludeOnSite: true },
  /** Historical business listings (service stations, dry cleaners...) within 200 m. */
  historical_business_nearby: { kind: 'within', radiusM: 200 },
  soil_regional: { kind: 'covering' },
  /** Species records within 1 km. */
  threatened_species: { kind: 'within', radiusM: 1000 },
  landfill: { kind: 'covering' },
  /** Landfills within 1 km that are not on the parcel. */
  landfill_nearby: { kind: 'within', radiusM: 1000, excludeOnSite: true },
  groundwater_restricted: { kind: 'covering' },
  groundwater_vulnerability: { kind: 'covering' },
  licensed_activity: { kind: 'on_site' },
  /** Licensed activities within 500 m that are not on the parcel. */
  licensed_activity_nearby: { kind: 'within', radiusM: 500, excludeOnSite: true },
};

/** The environment keys, in spec order. */
export const ENVIRONMENT_KEYS = Object.keys(ENVIRONMENT_LOOKUPS);

const key = (h: LayerHit) => `${h.layer.file.path}#${h.index}`;

/** Builds the environment block. */
export function environmentBlock(ctx: BlockContext, wanted: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, how] of Object.entries(ENVIRONMENT_LOOKUPS)) {
    if (!wanted(name)) continue;
    const path = `environment.${name}` as PayloadPath;
    const items = lookup(ctx, path, () => {
      let hits: LayerHit[];
      if (how.kind === 'covering') hits = coveringHits(ctx.store, path, ctx.subject);
      else if (how.kind === 'on_site') hits = pointsOnSite(ctx.store, path, ctx.subject);
      else {
        hits = withinHits(ctx.store, path, ctx.subject, how.radiusM);
        if (how.excludeOnSite) {
          const onSite = new Set([...coveringHits(ctx.store, path, ctx.subject), ...pointsOnSite(ctx.store, path, ctx.subject)].map(key));
          hits = hits.filter((h) => !onSite.has(key(h)));
        }
      }
      const nearby = how.kind === 'within';
      return { items: hits.map((h) => withGeometry(ctx, layerItemOf(ctx, h, { distance: nearby }), h, 'environment')), sources: hits.map((h) => h.layer.source.id) };
    });
    if (items) out[name] = items;
  }
  return out;
}
