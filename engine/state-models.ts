/**
 * The engine's domain models, built from the dataset on first use and kept: per state the noise network, the
 * walkability indexes (and their shared-buffer form for the workers) and the bushfire layers; nationally the
 * contaminated-land register and the ANEF contours. For no state (a point outside every held state), the
 * state-held models are every input not integrated (engine/property/inputs/domain-inputs.ts), never another
 * state's layers.
 */
import type { StateCode } from './catalogue/states.js';
import type { DataStore } from './data/dataset-store.js';
import type { NoiseNetwork } from './noise/noise-network.js';
import { anefLayerFor, bushfireLayersFor, contaminationRegisterFor, noiseNetworkFor, walkabilityIndexesFor } from './property/inputs/domain-inputs.js';
import type { AnefLayer } from './scores/aircraft-noise/anef-contours.js';
import type { BushfireLayers } from './scores/bushfire/bushfire-layers.js';
import type { ContaminationRegister } from './scores/contamination/contamination-register.js';
import { shareWalkabilityIndexes, type SharedWalkabilityIndexes, type WalkabilityIndexes } from './scores/walkability/walkability-layers.js';

/** The models built so far, by kind (the memory report walks them). */
export interface BuiltModels {
  /** By state. */
  noise: ReadonlyMap<StateCode, NoiseNetwork | null>;
  /** By state, '' for no state. */
  walkability: ReadonlyMap<string, WalkabilityIndexes>;
  /** By state, '' for no state. */
  bushfire: ReadonlyMap<string, BushfireLayers>;
  contamination?: ContaminationRegister;
  anef?: AnefLayer;
}

/** The domain models of one dataset (see the file comment). */
export class StateModels {
  private readonly noise = new Map<StateCode, Promise<NoiseNetwork | null>>();
  private readonly noiseBuilt = new Map<StateCode, NoiseNetwork | null>();
  private readonly walk = new Map<string, WalkabilityIndexes>();
  private readonly walkShared = new Map<string, SharedWalkabilityIndexes>();
  private readonly bushfire = new Map<string, BushfireLayers>();
  private contamination?: ContaminationRegister;
  private anef?: AnefLayer;

  /**
   * `wholeModels`: for a window of the on-disk layers (data/windowed-store.ts), the models of the whole
   * dataset, which answer for the models built from layers held whole (noise, walkability, contamination,
   * ANEF: data/layer-policy.ts); only the bushfire layers are built from the window.
   */
  constructor(private readonly store: DataStore, private readonly wholeModels?: StateModels) {}

  /** The noise network of a state (built once; null when the state holds no roads). */
  noiseNetwork(state: StateCode): Promise<NoiseNetwork | null> {
    if (this.wholeModels) return this.wholeModels.noiseNetwork(state);
    let p = this.noise.get(state);
    if (!p) {
      p = Promise.resolve().then(() => {
        const n = noiseNetworkFor(this.store, state);
        this.noiseBuilt.set(state, n);
        return n;
      });
      this.noise.set(state, p);
    }
    return p;
  }

  /** Walkability indexes of a state (built once); for no state, every input not integrated. */
  walkability(state: StateCode | null): WalkabilityIndexes {
    if (this.wholeModels) return this.wholeModels.walkability(state);
    return once(this.walk, state ?? '', () => walkabilityIndexesFor(this.store, state));
  }

  /** The walkability indexes of a state in shared buffers, for the workers (made once). */
  sharedWalkability(state: StateCode | null): SharedWalkabilityIndexes {
    if (this.wholeModels) return this.wholeModels.sharedWalkability(state);
    return once(this.walkShared, state ?? '', () => shareWalkabilityIndexes(this.walkability(state)));
  }

  /** Bushfire layers of a state (built once); for no state, every input not integrated. */
  bushfireLayers(state: StateCode | null): BushfireLayers {
    return once(this.bushfire, state ?? '', () => bushfireLayersFor(this.store, state));
  }

  /** The contaminated-land register of every held state (built once). */
  contaminationRegister(): ContaminationRegister {
    if (this.wholeModels) return this.wholeModels.contaminationRegister();
    return (this.contamination ??= contaminationRegisterFor(this.store));
  }

  /** The ANEF contours of every held state (built once). */
  anefLayer(): AnefLayer {
    if (this.wholeModels) return this.wholeModels.anefLayer();
    return (this.anef ??= anefLayerFor(this.store));
  }

  /** What has been built so far. */
  built(): BuiltModels {
    return { noise: this.noiseBuilt, walkability: this.walk, bushfire: this.bushfire, contamination: this.contamination, anef: this.anef };
  }
}

/** The value of `key` in `map`, built and kept on first use. */
function once<K, V>(map: Map<K, V>, key: K, build: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = build()));
  return v;
}
