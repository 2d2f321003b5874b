/**
 * The planning block (spec 2.4): every zone on the parcel with its share, overlays, heritage, easements and
 * growth areas, each with the five `core` keys beside the publisher's own properties; zones around the parcel
 * only with include_nearby_zones. Rows a publisher licenses only for non-commercial use are withheld by the
 * catalogue's row terms.
 */
import type { PayloadPath } from '../../catalogue/payload-paths.js';
import type { CatalogueSource } from '../../catalogue/catalogue.js';
import { bearingDegrees, compass8 } from '../../geo/distance.js';
import { discBox } from '../inputs/raster-cache.js';
import { coveringHits, withinHits, type LayerHit } from '../kit/layer-query.js';
import { planningCore } from '../kit/planning-core.js';
import { LIMITS } from '../kit/options.js';
import { cleanProperties, lookup, withGeometry, type BlockContext } from './context.js';

/** The catalogue's row terms: which rows of a mixed-licence source may be delivered. */
interface RowTerms {
  field: string;
  withheld?: string[];
  deliverable?: string[];
}

/**
 * Whether a row may be delivered under its source's row terms: only rows whose group is listed deliverable;
 * withheld groups and rows whose group cannot be established are not (spec 2.4).
 */
export function rowDeliverable(source: CatalogueSource, p: Record<string, unknown>): boolean {
  const terms = source.options?.row_terms as RowTerms | undefined;
  if (!terms) return source.obligation_status !== 'withheld';
  const group = p[terms.field];
  if (group === undefined || group === null || group === '') return false;
  return (terms.deliverable ?? []).includes(String(group)) && !(terms.withheld ?? []).includes(String(group));
}

function planningItem(ctx: BlockContext, hit: LayerHit, path: PayloadPath, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const item: Record<string, unknown> = {
    source: hit.layer.source.id,
    state: hit.layer.file.state ?? ctx.subject.state,
    core: planningCore(hit.layer.source, path, hit.properties),
    ...extra,
    properties: cleanProperties(hit.properties),
  };
  return withGeometry(ctx, item, hit, 'planning');
}

const PLANNING_ITEMS: { key: string; path: PayloadPath }[] = [
  { key: 'zone', path: 'planning.zone' },
  { key: 'overlay', path: 'planning.overlay' },
  { key: 'heritage', path: 'planning.heritage' },
  { key: 'easement', path: 'planning.easement' },
  { key: 'growth_area', path: 'planning.growth_area' },
];

/** Builds the planning block; `wanted(key)` says which keys the components selection kept. */
export function planningBlock(ctx: BlockContext, wanted: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, path } of PLANNING_ITEMS) {
    if (!wanted(key)) continue;
    const items = lookup(ctx, path, () => {
      const hits = coveringHits(ctx.store, path, ctx.subject).filter((h) => rowDeliverable(h.layer.source, h.properties));
      if (key === 'zone') hits.sort((a, b) => (b.parcelShare ?? 1) - (a.parcelShare ?? 1));
      return {
        items: hits.map((h) => planningItem(ctx, h, path, key === 'zone' ? { parcel_share: h.parcelShare ?? null } : {})),
        sources: hits.map((h) => h.layer.source.id),
      };
    });
    if (items) out[key] = items;
  }
  if (ctx.options.include_nearby_zones && wanted('zones_nearby')) {
    const items = zonesNearby(ctx);
    if (items) out.zones_nearby = items;
  }
  return out;
}

/** Zones within the search radius that are not on the parcel: distance to the closest edge and direction. */
function zonesNearby(ctx: BlockContext): Record<string, unknown>[] | null {
  const radius = ctx.options.nearby_zone_radius_m;
  const clipRadius = Math.min(radius, LIMITS.geometryClipM);
  const { lon, lat } = ctx.subject;
  return lookup(ctx, 'planning.zones_nearby', () => {
    const onParcel = new Set(coveringHits(ctx.store, 'planning.zone', ctx.subject).map((h) => `${h.layer.file.path}#${h.index}`));
    const hits = withinHits(ctx.store, 'planning.zones_nearby', ctx.subject, radius).filter((h) => !onParcel.has(`${h.layer.file.path}#${h.index}`) && h.distanceM > 0 && rowDeliverable(h.layer.source, h.properties));
    const items = hits.map((h) => {
      const l = h.layer;
      let bearing = 0;
      if (l.kind === 'vector' && l.polygons && h.polygonId !== undefined) {
        const p = l.polygons.index.closestEdgePoint(h.polygonId, lon, lat);
        bearing = bearingDegrees(lon, lat, p.lon, p.lat);
      }
      const item: Record<string, unknown> = {
        source: l.source.id,
        state: l.file.state ?? ctx.subject.state,
        core: planningCore(l.source, 'planning.zone', h.properties),
        distance_m: Math.round(h.distanceM * 10) / 10,
        direction: compass8(bearing),
        geometry_clip_radius_m: clipRadius,
        properties: cleanProperties(h.properties),
      };
      return withGeometry(ctx, item, h, 'planning', discBox(lon, lat, clipRadius));
    });
    return { items, sources: hits.map((h) => h.layer.source.id) };
  });
}
