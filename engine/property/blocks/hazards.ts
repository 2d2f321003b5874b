/**
 * The hazards block (spec 2.1): mapped flood controls (flood overlays and evidence triggers), bushfire-prone
 * mapping and contaminated-land register sites on the parcel, each with its publisher's properties. Clipped
 * GeoJSON only with include_geometry, on geometry licences, for sources whose publisher licenses
 * redistribution. These are the official layers: the flood and bushfire scores never fill them in.
 */
import { floodOverlayHits } from '../../scores/flood/flood-overlays.js';
import { floodOverlaySourcesFor } from '../inputs/domain-inputs.js';
import { isBushfireFeature } from '../../scores/bushfire/bushfire-model.js';
import { coveringHits, pointsOnSite } from '../kit/layer-query.js';
import { layerItemOf, lookup, withGeometry, type BlockContext } from './context.js';

/** Builds the hazards block. */
export function hazardsBlock(ctx: BlockContext, wanted: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { lon, lat, state } = ctx.subject;
  if (wanted('flood')) {
    const items = lookup(ctx, 'hazards.flood', () => {
      const sources = state ? floodOverlaySourcesFor(ctx.store, state) : [];
      const hits = floodOverlayHits(lon, lat, sources, { includeGeometry: ctx.geometry });
      for (const h of hits) if (h.geometry) ctx.log.geometryFrom('hazards', h.source);
      return { items: hits, sources: hits.map((h) => h.source) };
    });
    if (items) out.flood = items;
  }
  if (wanted('bushfire')) {
    const items = lookup(ctx, 'hazards.bushfire', () => {
      // Planning-scheme sources feed hazards.bushfire only through their bushfire controls (e.g. BMO).
      const hits = coveringHits(ctx.store, 'hazards.bushfire', ctx.subject).filter((h) => !h.layer.source.schema || isBushfireFeature(h.properties));
      return { items: hits.map((h) => withGeometry(ctx, layerItemOf(ctx, h), h, 'hazards')), sources: hits.map((h) => h.layer.source.id) };
    });
    if (items) out.bushfire = items;
  }
  if (wanted('contamination')) {
    const items = lookup(ctx, 'hazards.contamination', () => {
      const hits = [...coveringHits(ctx.store, 'hazards.contamination', ctx.subject), ...pointsOnSite(ctx.store, 'hazards.contamination', ctx.subject)];
      return { items: hits.map((h) => layerItemOf(ctx, h)), sources: hits.map((h) => h.layer.source.id) };
    });
    if (items) out.contamination = items;
  }
  return out;
}
