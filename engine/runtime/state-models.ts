/**
 * The engine's domain models, built from the dataset on first use and kept: per state the noise network and
 * every state model the scores declare (engine/score-kit/model-kind.ts: the walkability indexes and their
 * shared-buffer form, the bushfire layers), and once for the dataset the national ones (the contaminated-land
 * register, the ANEF contours). It knows no score's model by name: a kind says how it is built and kept. For
 * no state (a point outside every held state), a state model is built for no state (every input not
 * integrated), never from another state's layers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { StateCode } from '../catalogue/states.js';
import type { DataStore } from '../data/dataset-store.js';
import type { NoiseNetwork } from '../noise/noise-network.js';
import { noiseNetworkFor } from '../property/inputs/domain-inputs.js';
import { MODEL_KINDS } from '../scores/registry.js';
import type { ModelKind } from '../score-kit/model-kind.js';
import { estimateBytes } from '../memory/estimate.js';

/** The payload paths the national models are built from (their layers stay once read: the models hold them). */
export const NATIONAL_MODEL_PATHS: readonly PayloadPath[] = [...new Set(MODEL_KINDS.filter((k) => k.scope === 'national').flatMap((k) => k.paths))];

/** The models built so far (the memory report walks them). */
export interface BuiltModels {
  /** The noise network, by state. */
  noise: ReadonlyMap<StateCode, NoiseNetwork | null>;
  /** Each kind's models: by state ('' for no state), or under 'national'. */
  kinds: ReadonlyMap<ModelKind<unknown>, ReadonlyMap<string, unknown>>;
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
  /** Each kind's models built: by state ('' for no state), or under 'national'. */
  private readonly kinds = new Map<ModelKind<unknown>, Map<string, unknown>>();
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

  /**
   * The model of `kind` for `state` (built once): a state model per state (for no state, every input not
   * integrated), a national model once for the dataset (`state` ignored). Read by window, a kind built from
   * whole layers is the whole dataset's model.
   */
  get<T>(kind: ModelKind<T>, state: StateCode | null): T {
    if (this.wholeModels && kind.whole) return this.wholeModels.get(kind, state);
    let byState = this.kinds.get(kind as ModelKind<unknown>) as Map<string, T> | undefined;
    if (!byState) this.kinds.set(kind as ModelKind<unknown>, (byState = new Map()) as Map<string, unknown>);
    const derived = <U>(other: ModelKind<U>): U => this.get(other, state);
    if (kind.scope === 'national') {
      let v = byState.get('national');
      if (v === undefined) byState.set('national', (v = kind.build(this.store, null, derived)));
      return v;
    }
    return this.model(byState, state, () => kind.build(this.store, state, derived));
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
    for (const [kind, byState] of this.kinds) if (kind.scope === 'state') byState.delete(state);
    this.evictions++;
    this.onEvict?.(state);
  }

  /** What has been built so far. */
  built(): BuiltModels {
    return { noise: this.noiseBuilt, kinds: this.kinds };
  }
}

