/**
 * The engine's domain models, built from the dataset on first use and kept: per state the noise network, the
 * walkability indexes (and their shared-buffer form for the workers) and the bushfire layers; nationally the
 * contaminated-land register and the ANEF contours. For no state (a point outside every held state), the
 * state-held models are every input not integrated (engine/property/inputs/domain-inputs.ts), never another
 * state's layers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { StateCode } from '../catalogue/states.js';
import type { DataStore } from '../data/dataset-store.js';
import type { NoiseNetwork } from '../noise/noise-network.js';
import { anefLayerFor, bushfireLayersFor, contaminationRegisterFor, noiseNetworkFor, walkabilityIndexesFor } from '../property/inputs/domain-inputs.js';
import type { AnefLayer } from '../scores/aircraft-noise/anef-contours.js';
import type { BushfireLayers } from '../scores/bushfire/bushfire-layers.js';
import type { ContaminationRegister } from '../scores/contamination/contamination-register.js';
import { shareWalkabilityIndexes, type SharedWalkabilityIndexes, type WalkabilityIndexes } from '../scores/walkability/walkability-layers.js';
import { estimateBytes } from '../memory/estimate.js';

/** The payload paths the national models are built from (their layers stay once read: the models hold them). */
export const NATIONAL_MODEL_PATHS: readonly PayloadPath[] = ['scores.contamination', 'scores.aircraft_noise'];

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

/** What the per-state models hold against their budget (GET /metrics shows it). */
export interface ModelBudget {
  /** The budget, bytes (null: none; models are kept once built). */
  budgetBytes: number | null;
  /** Estimated bytes of the per-state models held now, by state ('' for no state). */
  heldBytes: Record<string, number>;
  /** States whose models were dropped to stay within the budget, in all. */
  evictions: number;
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
  /** Estimated bytes of each state's models, in least recently used first order (a Map keeps insertion order). */
  private readonly held = new Map<string, number>();
  private evictions = 0;
  /** Bytes the per-state models may hold across states; past it the least recently used state's are dropped. */
  budgetBytes: number | null = null;
  /** Told when a state's models are dropped (the engine drops the state's whole layers read by window too). */
  onEvict?: (state: string) => void;
  /** Per state, what its bytes were counted from: a structure two models share (or a model and a layer) counts once. */
  private readonly seen = new Map<string, WeakSet<object>>();
  /** The states each lookup in flight has used ({@link during}), and how many such lookups use each. */
  private readonly lookup = new AsyncLocalStorage<Set<string>>();
  private readonly inFlight = new Map<string, number>();

  /**
   * `wholeModels`: for a window of the on-disk layers (data/windowed-store.ts), the models of the whole
   * dataset, which answer for the models built from layers held whole (noise, walkability, contamination,
   * ANEF: data/layer-policy.ts); only the bushfire layers are built from the window.
   */
  constructor(private readonly store: DataStore, private readonly wholeModels?: StateModels) {}

  /** The noise network of a state (built once; null when the state holds no roads). */
  noiseNetwork(state: StateCode): Promise<NoiseNetwork | null> {
    if (this.wholeModels) return this.wholeModels.noiseNetwork(state);
    this.touch(state);
    let p = this.noise.get(state);
    if (!p) {
      p = Promise.resolve().then(() => {
        const n = noiseNetworkFor(this.store, state);
        if (this.noise.get(state) === p) {
          this.noiseBuilt.set(state, n);
          this.grew(state, n);
        }
        return n;
      });
      this.noise.set(state, p);
    }
    return p;
  }

  /** Walkability indexes of a state (built once); for no state, every input not integrated. */
  walkability(state: StateCode | null): WalkabilityIndexes {
    if (this.wholeModels) return this.wholeModels.walkability(state);
    return this.model(this.walk, state, () => walkabilityIndexesFor(this.store, state));
  }

  /** The walkability indexes of a state in shared buffers, for the workers (made once). */
  sharedWalkability(state: StateCode | null): SharedWalkabilityIndexes {
    if (this.wholeModels) return this.wholeModels.sharedWalkability(state);
    return this.model(this.walkShared, state, () => shareWalkabilityIndexes(this.walkability(state)));
  }

  /** Bushfire layers of a state (built once); for no state, every input not integrated. */
  bushfireLayers(state: StateCode | null): BushfireLayers {
    return this.model(this.bushfire, state, () => bushfireLayersFor(this.store, state));
  }

  /**
   * Runs a lookup: every state it uses while it runs (a model asked for, a whole layer read) is kept from
   * eviction until it ends, so two lookups in two states at once do not drop each other's models mid-way.
   */
  async during<T>(run: () => Promise<T>): Promise<T> {
    const used = new Set<string>();
    try {
      return await this.lookup.run(used, run);
    } finally {
      for (const st of used) {
        const n = (this.inFlight.get(st) ?? 1) - 1;
        if (n > 0) this.inFlight.set(st, n);
        else this.inFlight.delete(st);
      }
    }
  }

  /** Notes that the lookup in flight (if any) uses `state`. */
  private inUse(state: string): void {
    const used = this.lookup.getStore();
    if (!used || used.has(state)) return;
    used.add(state);
    this.inFlight.set(state, (this.inFlight.get(state) ?? 0) + 1);
  }

  /** The estimate of `value` for `state`, skipping what was already counted for it. */
  private bytesFor(state: string, value: unknown): number {
    let seen = this.seen.get(state);
    if (!seen) this.seen.set(state, (seen = new WeakSet()));
    return estimateBytes(value, { seen });
  }

  /** What the per-state models hold against the budget. */
  budget(): ModelBudget {
    return { budgetBytes: this.budgetBytes, heldBytes: Object.fromEntries(this.held), evictions: this.evictions };
  }

  /** A state's model from `map`, built (and counted against the budget) on first use. */
  private model<V>(map: Map<string, V>, state: StateCode | null, build: () => V): V {
    const key = state ?? '';
    this.touch(key);
    let v = map.get(key);
    if (v === undefined) {
      map.set(key, (v = build()));
      this.grew(key, v);
    }
    return v;
  }

  /**
   * Counts against `state`'s share of the budget what was read for it outside the models (a whole layer read
   * from the layer file, lazy-layer.ts), as the most recently used; dropped with the state's models. Evicts
   * nothing itself: the next model built does. Layers of no one state (`national`) are shared by every state and
   * not counted.
   */
  counted(state: string, value: unknown): void {
    if (this.budgetBytes === null || state === 'national') return;
    this.inUse(state);
    this.hold(state, this.bytesFor(state, value));
  }

  /** Adds `bytes` to what `state` holds, making it the most recently used. */
  private hold(state: string, bytes: number): void {
    const total = (this.held.get(state) ?? 0) + bytes;
    this.held.delete(state);
    this.held.set(state, total);
  }

  /** Marks `state` the most recently used. */
  private touch(state: string): void {
    this.inUse(state);
    if (this.held.has(state)) this.hold(state, 0);
  }

  /**
   * Counts a model just built for `state` and, with a budget, drops the least recently used other states'
   * models until the rest fit (never the state in use, nor one a lookup in flight has used: they need it). A dropped state's
   * models are built again, identical, when a lookup needs them.
   */
  private grew(state: string, model: unknown): void {
    if (this.budgetBytes === null) return;
    this.hold(state, this.bytesFor(state, model));
    let total = 0;
    for (const b of this.held.values()) total += b;
    for (const [other, b] of this.held) {
      if (total <= this.budgetBytes) break;
      if (other === state || this.inFlight.has(other)) continue;
      this.evict(other);
      total -= b;
    }
  }

  private evict(state: string): void {
    this.held.delete(state);
    this.seen.delete(state);
    this.noise.delete(state as StateCode);
    this.noiseBuilt.delete(state as StateCode);
    this.walk.delete(state);
    this.walkShared.delete(state);
    this.bushfire.delete(state);
    this.evictions++;
    this.onEvict?.(state);
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

