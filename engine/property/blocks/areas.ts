/**
 * Area blocks (spec 2.1): administrative (`lga` and `electorate` arrays: federal and state electorates),
 * public_housing (social-housing density at SA2 and SA1 level) and other_layers (`sa2_approval`: dwelling
 * approvals in the surrounding SA2). Each is the polygon containing the subject point.
 */
import type { PayloadPath } from '../../catalogue/payload-paths.js';
import { coveringHits } from '../kit/layer-query.js';
import { layerItemOf, lookup, withGeometry, type BlockContext } from './context.js';

/** The keys of each area block and the file layer each reads (when its source splits files by layer). */
export const AREA_BLOCKS: Record<'administrative' | 'public_housing' | 'other_layers', Record<string, string | undefined>> = {
  administrative: { lga: undefined, electorate: undefined },
  public_housing: { sa2: 'sa2', sa1: 'sa1' },
  other_layers: { sa2_approval: undefined },
};

/** Builds one area block. */
export function areaBlock(ctx: BlockContext, block: keyof typeof AREA_BLOCKS, wanted: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const point = { ...ctx.subject, parcel: null };
  for (const [name, layer] of Object.entries(AREA_BLOCKS[block])) {
    if (!wanted(name)) continue;
    const path = `${block}.${name}` as PayloadPath;
    const items = lookup(ctx, path, () => {
      const hits = coveringHits(ctx.store, path, point, layer);
      return { items: hits.map((h) => withGeometry(ctx, layerItemOf(ctx, h), h, block)), sources: hits.map((h) => h.layer.source.id) };
    });
    if (items) out[name] = items;
  }
  return out;
}
