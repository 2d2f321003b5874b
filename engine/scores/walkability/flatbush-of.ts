/**
 * The flatbush tree behind a PointIndex or SegmentIndex, attached once (Flatbush.from over the index's own
 * shared buffer: no copy) so the hot loops of the screening can walk it with a callback instead of building
 * and sorting hit arrays. Ids are the index's ids; ids at or past the index's count are flatbush's
 * placeholder for an empty layer and must be skipped.
 */
import Flatbush from 'flatbush';
import type { PointIndex } from '../../vector/point-index.js';
import type { SegmentIndex } from '../../vector/segment-index.js';

const trees = new WeakMap<PointIndex | SegmentIndex, Flatbush>();

/** The flatbush tree of `index`, attached on first use. */
export function flatbushOf(index: PointIndex | SegmentIndex): Flatbush {
  let t = trees.get(index);
  if (!t) {
    t = Flatbush.from(index.toShared().index);
    trees.set(index, t);
  }
  return t;
}
