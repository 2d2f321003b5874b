/**
 * The engine: `createEngine({ datasets })` opens the dataset catalogue, loads and indexes every layer, starts
 * the worker pool, and answers for points and addresses. The server, the CLI and internal services use this
 * one object.
 *
 * Domain models are built per state on first use and kept (the noise network, walkability indexes, bushfire
 * layers); raster files stay open. Heavy work runs on the pool: HAND, contours, the noise grid, walkability.
 * Every score and surface is isolated: one that fails is reported degraded, never a crashed lookup.
 */
import { STATES, type StateCode } from './catalogue/states.js';
import { openDataStore, type DataStore } from './data/dataset-store.js';
import { EngineError, isEngineError } from './errors.js';
import { createWindow, type Window } from './geo/window.js';
import { noiseScore } from './noise/noise-score.js';
import { DEFAULT_NOISE_CELLS, noiseGridSpec, noiseSurfaceOnPool } from './noise/noise-grid.js';
import type { NoiseNetwork } from './noise/noise-network.js';
import { createWorkerPool, type WorkerPool } from './pool/worker-pool.js';
import { anefLayerFor, bushfireLayersFor, contaminationRegisterFor, contourSourcesFor, floodInputFor, noiseNetworkFor, stateAt, walkabilityIndexesFor } from './property/inputs/domain-inputs.js';
import { RasterCache, rasterAt } from './property/inputs/raster-cache.js';
import { SCORE_KEYS, type ScoreKey } from './scores/component.js';
import type { AnefLayer } from './scores/aircraft-noise/anef-contours.js';
import type { SubjectIdentity } from './scores/bushfire/bushfire-score.js';
import type { BushfireLayers } from './scores/bushfire/bushfire-layers.js';
import type { ContaminationRegister } from './scores/contamination/contamination-register.js';
import { computeContextScores, CONTEXT_SCORE_KEYS, type ContextInputs, type ContextScoreKey } from './scores/context-scores.js';
import { assessFlood, type FloodAssessment } from './scores/flood/assess-flood.js';
import { REGIONAL_RADIUS_M } from './scores/heat-island/heat-island-score.js';
import { unavailableLayer } from './scores/view-quality/layer-input.js';
import type { WalkabilityIndexes } from './scores/walkability/walkability-layers.js';
import { readHeatSurface, type HeatSurface } from './surfaces/heat/heat-surface.js';
import { unpackContours, type ContoursLayer } from './surfaces/contours/contours-layer.js';
import { validateInterval } from './surfaces/contours/interval.js';
import type { PropertyOptions, PropertyResult, PropertyService, PropertySubject, SandboxAddress, SurfaceLayer } from './property/contract.js';
import { readSample } from './property/samples.js';
import { propertyLookup, type PropertyDeps } from './property/property-lookup.js';
import { addressIndexFromStore, type AddressIndex } from './address/index.js';
import { daStoreFromDataStore, type DaStore } from './da/index.js';
import { TtlCache, type Cache } from './cache/ttl-cache.js';

/** Options for {@link createEngine}. */
export interface EngineOptions {
  /** The dataset directory (with catalogue.json). */
  datasets: string;
  /** Worker threads; default the number of cores. */
  threads?: number;
  /** Per-task time limit, ms; default 30,000. */
  taskTimeoutMs?: number;
  /** The DA store's SQLite file; default in memory, loaded from the dataset's DA records. */
  daDatabase?: string;
  /** Caches for layer lookups (7 days) and scores and surfaces (31 days); default in-memory LRU caches. */
  caches?: { layers?: Cache; scores?: Cache };
}

/** Options of a scores call. */
export interface ScoresOptions {
  /** The subject's state; determined from the LGA layers when absent. */
  state?: StateCode | null;
  /** Score keys to compute; default all nine. */
  only?: readonly ScoreKey[];
  /** Adds walkability walking areas and clipped flood geometry. */
  includeGeometry?: boolean;
  /** The resolved address (bushfire subject identity). */
  identity?: SubjectIdentity;
  signal?: AbortSignal;
  now?: Date;
}

/** The scores of a subject, and which failed. */
export interface ScoresResult {
  state: StateCode | null;
  scores: Partial<Record<ScoreKey, unknown>>;
  /** Score keys whose computation failed (reported as `scores.<key>` degraded components). */
  degraded: string[];
  /** The flood lookup's hazard hits (hazards.flood), when flood ran. */
  floodHazards?: FloodAssessment['hazards'];
}

/** Options of a surfaces call. */
export interface SurfacesOptions {
  state?: StateCode | null;
  layers?: readonly SurfaceLayer[];
  /** Noise grid nodes per side: 5, 7 (default) or 9; anything else is INVALID_ARGUMENT naming `noise_cells`. */
  noiseCells?: 5 | 7 | 9;
  /** Contour interval, metres; absent means automatic (interval_source `auto`). */
  contourIntervalM?: number;
  signal?: AbortSignal;
}

/** Surfaces of a subject and why any are missing. */
export interface SurfacesResult {
  surfaces: Partial<Record<SurfaceLayer, unknown>>;
  /** Layers not delivered, with the reason (spec 2.7: echoed in meta.surfaces.unavailable). */
  unavailable: Partial<Record<SurfaceLayer, { reason: string; note: string; services_tried?: string[] }>>;
}

/** Radius of the DEM read shared by bushfire, view quality and walkability slope, metres. */
const DEM_RADIUS_M = 1500 * Math.SQRT2 + 100;

/** The engine. */
export class Engine implements PropertyService {
  private readonly noise = new Map<StateCode, Promise<NoiseNetwork | null>>();
  private readonly walk = new Map<StateCode, WalkabilityIndexes>();
  private readonly bushfire = new Map<StateCode, BushfireLayers>();
  private contamination?: ContaminationRegister;
  private anef?: AnefLayer;
  readonly rasters = new RasterCache();
  private closed = false;
  private addressIndex?: AddressIndex;
  private daStore?: DaStore;
  private sandboxIdSet?: Promise<ReadonlySet<string>>;
  private readonly deps: PropertyDeps;

  private constructor(readonly store: DataStore, readonly pool: WorkerPool, private readonly options: EngineOptions) {
    this.deps = {
      store,
      addresses: () => this.addresses(),
      das: () => this.das(),
      sandboxIds: () => this.sandboxIds(),
      scores: (lon, lat, o) => this.scores(lon, lat, o),
      surfaces: (lon, lat, o) => this.surfaces(lon, lat, o),
      layerCache: options.caches?.layers ?? new TtlCache(20_000),
      scoreCache: options.caches?.scores ?? new TtlCache(5_000),
    };
  }

  /** Opens a dataset directory and starts the worker pool. */
  static async create(options: EngineOptions): Promise<Engine> {
    const store = await openDataStore(options.datasets);
    const pool = createWorkerPool({ threads: options.threads, taskTimeoutMs: options.taskTimeoutMs });
    return new Engine(store, pool, options);
  }

  /** The address index over every state's address points (built on first use). */
  addresses(): AddressIndex {
    this.addressIndex ??= addressIndexFromStore(this.store);
    return this.addressIndex;
  }

  /** The DA store (loaded from the dataset's DA records on first use); the listing API serves the same store. */
  das(): DaStore {
    this.daStore ??= daStoreFromDataStore(this.store, this.options.daDatabase);
    return this.daStore;
  }

  private sandboxIds(): Promise<ReadonlySet<string>> {
    this.sandboxIdSet ??= this.sandbox().then((rows) => {
      const ids = new Set<string>();
      for (const r of rows) {
        const m = this.addresses().resolve(r.address).match;
        if (m) ids.add(m.id);
      }
      return ids;
    });
    return this.sandboxIdSet;
  }

  /**
   * Builds every index the engine otherwise builds on first use: the address index, the DA store, the sandbox
   * ids, and per state the noise network, walkability indexes and bushfire layers, plus the national
   * contamination register and ANEF layer. Returns milliseconds per part, for startup timing.
   */
  async buildIndexes(): Promise<Record<string, number>> {
    this.assertOpen();
    const ms: Record<string, number> = {};
    const time = async (name: string, run: () => unknown) => {
      const t0 = performance.now();
      await run();
      ms[name] = performance.now() - t0;
    };
    await time('addresses', () => this.addresses());
    await time('das', () => this.das());
    await time('sandbox', () => this.sandboxIds());
    const states = STATES.filter((st) => this.store.catalogue.sources.some((s) => st in s.coverage));
    await time('noise', () => Promise.all(states.map((st) => this.noiseNetwork(st))));
    await time('walkability', () => states.forEach((st) => this.walkability(st)));
    await time('bushfire', () => states.forEach((st) => this.bushfireLayers(st)));
    await time('contamination', () => (this.contamination ??= contaminationRegisterFor(this.store)));
    await time('anef', () => (this.anef ??= anefLayerFor(this.store)));
    return ms;
  }

  /** The state or territory containing (lon, lat) by its LGA, or null. */
  stateAt(lon: number, lat: number): StateCode | null {
    return stateAt(this.store, lon, lat);
  }

  /** The noise network of a state (built once). */
  noiseNetwork(state: StateCode): Promise<NoiseNetwork | null> {
    let p = this.noise.get(state);
    if (!p) {
      p = Promise.resolve().then(() => noiseNetworkFor(this.store, state));
      this.noise.set(state, p);
    }
    return p;
  }

  private walkability(state: StateCode): WalkabilityIndexes {
    let w = this.walk.get(state);
    if (!w) this.walk.set(state, (w = walkabilityIndexesFor(this.store, state)));
    return w;
  }

  private bushfireLayers(state: StateCode): BushfireLayers {
    let b = this.bushfire.get(state);
    if (!b) this.bushfire.set(state, (b = bushfireLayersFor(this.store, state)));
    return b;
  }

  private resolveState(lon: number, lat: number, state?: StateCode | null): StateCode | null {
    return state === undefined ? this.stateAt(lon, lat) : state;
  }

  /** The context scores' inputs around a subject. */
  private async contextInputs(window: Window, state: StateCode | null): Promise<ContextInputs> {
    const { lon, lat } = window;
    const s = state ?? 'NSW'; // an undetermined state still gets national layers; state-held layers read as absent
    // One DEM read serves view quality and the terrain slope of bushfire and walkability, so the catalogue
    // names it once, under scores.view_quality.
    const demRef = rasterAt(this.store.rastersFor('scores.view_quality', state), lon, lat);
    const lstRef = rasterAt(this.store.rastersFor('scores.heat_island', state).filter((r) => r.source.options?.unit === 'degC'), lon, lat);
    const lcRef = rasterAt(this.store.rastersFor('surfaces.heat', state), lon, lat);
    const solarRef = (layer: string) => rasterAt(this.store.rastersFor('scores.solar', state, layer), lon, lat);
    const [dem, lst, ghi, dni, pvout, optimumTilt, landCover] = await Promise.all([
      this.rasters.disc(demRef, lon, lat, DEM_RADIUS_M),
      this.rasters.disc(lstRef, lon, lat, REGIONAL_RADIUS_M + 2000),
      this.rasters.disc(solarRef('ghi'), lon, lat, 1000),
      this.rasters.disc(solarRef('dni'), lon, lat, 1000),
      this.rasters.disc(solarRef('pvout'), lon, lat, 3000),
      this.rasters.disc(solarRef('tilt'), lon, lat, 10_000),
      this.heatSurface(window, lcRef ? { path: lcRef.path, source: lcRef.source.id } : null),
    ]);
    this.contamination ??= contaminationRegisterFor(this.store);
    this.anef ??= anefLayerFor(this.store);
    return {
      window,
      walkability: state ? this.walkability(state) : this.walkability(s),
      bushfire: state ? this.bushfireLayers(state) : this.bushfireLayers(s),
      dem,
      lst,
      landCover,
      solar: { ghi, dni, pvout, optimumTilt },
      contamination: this.contamination,
      anef: this.anef,
    };
  }

  private async heatSurface(window: Window, ref: { path: string; source: string } | null): Promise<HeatSurface | ReturnType<typeof unavailableLayer> | null> {
    if (!ref) return null;
    try {
      return await readHeatSurface(await this.rasters.get(ref.path), window, ref.source);
    } catch (err) {
      return unavailableLayer(err);
    }
  }

  /**
   * The scores of spec 2.6 at a point: each computed in isolation, a failing one listed in `degraded` and
   * left out of `scores` (never a confident zero).
   */
  async scores(lon: number, lat: number, options: ScoresOptions = {}): Promise<ScoresResult> {
    this.assertOpen();
    const state = this.resolveState(lon, lat, options.state);
    const only = new Set(options.only ?? SCORE_KEYS);
    const window = createWindow(lon, lat);
    const scores: Partial<Record<ScoreKey, unknown>> = {};
    const degraded: string[] = [];
    let floodHazards: FloodAssessment['hazards'] | undefined;
    const guard = async (key: string, run: () => Promise<void>) => {
      try {
        await run();
      } catch (err) {
        if (options.signal?.aborted) throw err;
        degraded.push(`scores.${key}`);
      }
    };
    const jobs: Promise<void>[] = [];
    if (only.has('noise')) {
      jobs.push(guard('noise', async () => {
        const net = state ? await this.noiseNetwork(state) : null;
        if (!net) throw new EngineError('UNAVAILABLE', `no road network is held for ${state ?? 'an undetermined state'}`, { component: 'scores.noise' });
        scores.noise = noiseScore(net, lon, lat, { state, now: options.now });
      }));
    }
    if (only.has('flood')) {
      jobs.push(guard('flood', async () => {
        if (!state) throw new EngineError('UNAVAILABLE', 'the flood score needs the subject\'s state', { component: 'scores.flood' });
        const r = await assessFlood(floodInputFor(this.store, state, lon, lat, !!options.includeGeometry), { pool: this.pool, signal: options.signal });
        scores.flood = r.score;
        floodHazards = r.hazards;
      }));
    }
    const contextKeys = CONTEXT_SCORE_KEYS.filter((k) => only.has(k));
    if (contextKeys.length) {
      jobs.push((async () => {
        let inputs: ContextInputs;
        try {
          inputs = await this.contextInputs(window, state);
        } catch (err) {
          if (options.signal?.aborted) throw err;
          degraded.push(...contextKeys.map((k) => `scores.${k}`));
          return;
        }
        for (const key of contextKeys) {
          try {
            Object.assign(scores, computeContextScores(inputs, { lon, lat, state, identity: options.identity, only: [key as ContextScoreKey], includeGeometry: options.includeGeometry }));
          } catch {
            degraded.push(`scores.${key}`);
          }
        }
      })());
    }
    await Promise.all(jobs);
    const ordered: Partial<Record<ScoreKey, unknown>> = {};
    for (const k of SCORE_KEYS) if (k in scores) ordered[k] = scores[k];
    return { state, scores: ordered, degraded: degraded.sort(), floodHazards };
  }

  /** The surfaces of spec 2.7 around a point. */
  async surfaces(lon: number, lat: number, options: SurfacesOptions = {}): Promise<SurfacesResult> {
    this.assertOpen();
    // Bad arguments are the caller's error, thrown before any job starts: a job's failure becomes
    // `unavailable.<layer>`, which would misreport a bad noise_cells or contour interval as a lookup failure.
    const noiseGrid = noiseGridSpec(options.noiseCells ?? DEFAULT_NOISE_CELLS);
    validateInterval(options.contourIntervalM);
    const state = this.resolveState(lon, lat, options.state);
    const layers = new Set(options.layers ?? ['noise', 'heat', 'contours']);
    const window = createWindow(lon, lat);
    const surfaces: SurfacesResult['surfaces'] = {};
    const unavailable: SurfacesResult['unavailable'] = {};
    const fail = (layer: SurfaceLayer, err: unknown) => {
      if (options.signal?.aborted) throw err;
      unavailable[layer] = { reason: isEngineError(err) && err.code === 'TIMEOUT' ? 'timeout' : 'lookup_failed', note: `The ${layer} surface could not be computed: ${(err as Error).message}` };
    };
    const jobs: Promise<void>[] = [];
    if (layers.has('noise')) {
      jobs.push((async () => {
        try {
          const net = state ? await this.noiseNetwork(state) : null;
          if (!net) {
            unavailable.noise = { reason: 'no_source', note: `No road network is held for ${state ?? 'this location'}.` };
            return;
          }
          surfaces.noise = await noiseSurfaceOnPool(this.pool, net, lon, lat, { cells: noiseGrid.cells, signal: options.signal });
        } catch (err) {
          fail('noise', err);
        }
      })());
    }
    if (layers.has('heat')) {
      jobs.push((async () => {
        try {
          const ref = rasterAt(this.store.rastersFor('surfaces.heat', state), lon, lat);
          if (!ref) {
            unavailable.heat = { reason: 'no_source', note: 'No 10 m land-cover raster covers this location.' };
            return;
          }
          surfaces.heat = await readHeatSurface(await this.rasters.get(ref.path), window, ref.source.id, options.signal);
        } catch (err) {
          fail('heat', err);
        }
      })());
    }
    if (layers.has('contours')) {
      jobs.push((async () => {
        try {
          const sources = contourSourcesFor(this.store, state, lon, lat);
          const packed = await this.pool.run('contours', { lon, lat, state, sources, interval: options.contourIntervalM }, { signal: options.signal });
          const layer: ContoursLayer = unpackContours(packed);
          surfaces.contours = layer;
          if (!layer.available) unavailable.contours = { reason: layer.reason, note: layer.note, services_tried: layer.services_tried };
        } catch (err) {
          if (isEngineError(err) && err.code === 'INVALID_ARGUMENT') throw err;
          fail('contours', err);
        }
      })());
    }
    await Promise.all(jobs);
    return { surfaces, unavailable };
  }

  /**
   * The property payload for an address or a point (spec sections 1-3): see engine/property/contract.ts.
   */
  async property(subject: PropertySubject, options: PropertyOptions = {}): Promise<PropertyResult> {
    this.assertOpen();
    return propertyLookup(this.deps, subject, options);
  }

  /** See {@link PropertyService.dataRevision}: the DA store's revision (0 until it is opened). */
  dataRevision(): number {
    return this.daStore?.revision ?? 0;
  }

  /** The never-metered sandbox addresses of the dataset directory. */
  async sandbox(): Promise<SandboxAddress[]> {
    return (await this.store.sandbox()) as SandboxAddress[];
  }

  /** A canned sample by name, or null (see engine/property/samples.ts). */
  sample(name: string): Promise<unknown | null> {
    return readSample(name);
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineError('UNAVAILABLE', 'the engine is closed', { component: 'engine' });
  }

  /** Stops the workers and closes open files. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.destroy();
    await this.rasters.close();
    this.daStore?.close();
  }
}

/** Opens a dataset directory and starts the engine; shorthand for {@link Engine.create}. */
export function createEngine(options: EngineOptions): Promise<Engine> {
  return Engine.create(options);
}

export { STATES };
