/**
 * Names the nearest amenity of each category in a walkability result computed on a worker. Point ids and
 * names are strings, which SharedArrayBuffers cannot hold, so they stay on the thread that built the indexes
 * (`WalkabilityIndexes.labels`) and are added back here: the result is then the one the in-process path
 * returns, key for key and in the same order.
 */
import type { WalkabilityIndexes } from './walkability-layers.js';
import type { WalkabilityScore } from './walkability-score.js';

/** `result` with `nearest_name` and `nearest_id` after each category's `nearest_index`, from `ix.labels`. */
export function labelWalkability(result: WalkabilityScore, ix: WalkabilityIndexes): WalkabilityScore {
  const labels = ix.labels;
  if (!labels) return result;
  const categoryScores = Object.fromEntries(Object.entries(result.category_scores).map(([cat, v]) => {
    const nid = v.nearest_index;
    if (nid === null || 'nearest_name' in v) return [cat, v];
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = x;
      if (k === 'nearest_index') {
        out.nearest_name = labels.names[nid] || null;
        out.nearest_id = labels.ids[nid] ?? null;
      }
    }
    return [cat, out];
  })) as WalkabilityScore['category_scores'];
  return { ...result, category_scores: categoryScores };
}
