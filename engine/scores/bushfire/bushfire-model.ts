/** Bushfire's model: a state's official mapping (kept apart), vegetation and fire history. */
import { heldExtent } from '../../catalogue/coverage.js';
import type { StateCode } from '../../catalogue/states.js';
import type { DataStore, VectorLayer } from '../../data/dataset-store.js';
import { defineModel, UNDETERMINED_STATE } from '../../score-kit/model-kind.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import { buildBushfireLayers, type BushfireLayers, type OfficialOverlayInput } from './bushfire-layers.js';

const features = (layers: VectorLayer[]) => layers.flatMap((l) => l.features);

/** A planning overlay that is a bushfire control (BMO, bushfire-prone areas, bushfire hazard overlays). */
export function isBushfireFeature(p: Record<string, unknown> | null | undefined): boolean {
  return /bush ?fire|\bBMO\b|\bBPA\b|\bHBUI\b|\bC13\.0\b|BUSH_/i.test(JSON.stringify(p ?? {}));
}

/** The bushfire layers of one state: official mapping (kept apart), vegetation and fire history. */
export function bushfireLayersFor(store: DataStore, state: StateCode | null): BushfireLayers {
  if (!state) {
    // No state: no official overlay applies and the state-held fuel and fire-history layers are not read.
    const none: MissingLayer = { status: 'not_integrated', reason: UNDETERMINED_STATE };
    return buildBushfireLayers({ officialOverlays: {}, vegetation: none, fireHistory: none });
  }
  const official = store.vectorsFor('hazards.bushfire', state);
  const extent = heldExtent(store.catalogue, 'hazards.bushfire', state);
  const officialOverlays: Record<string, OfficialOverlayInput | MissingLayer> = {};
  if (official.length && extent !== 'none') {
    const dedicated = official.find((l) => !l.source.schema) ?? official[0];
    officialOverlays[state] = { coverage: extent, source: dedicated.source.id, features: official.flatMap((l) => (l.source.schema ? l.features.filter((f) => isBushfireFeature(f.properties)) : l.features)) };
  }
  const veg = store.vectorsFor('scores.bushfire.vegetation', state);
  const fire = store.vectorsFor('scores.bushfire.fire_history', state);
  return buildBushfireLayers({
    officialOverlays,
    vegetation: veg.length ? { features: features(veg), source: veg[0].source.id } : null,
    fireHistory: fire.length ? { features: features(fire), source: fire[0].source.id } : null,
  });
}

/** A state's bushfire layers, built from what is read around the subject (a window, when read by window). */
export const BUSHFIRE_LAYERS = defineModel<BushfireLayers>({
  name: 'bushfire_layers',
  scope: 'state',
  whole: false,
  paths: ['hazards.bushfire', 'scores.bushfire.vegetation', 'scores.bushfire.fire_history'],
  build: (store, state) => bushfireLayersFor(store, state),
});
