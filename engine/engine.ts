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
import { createEnginePool, type EnginePool } from './tasks/engine-pool.js';
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
import { unavailableLayer } from './scores/layer-input.js';
import { shareWalkabilityIndexes, type SharedWalkabilityIndexes, type WalkabilityIndexes } from './scores/walkability/walkability-layers.js';
import { labelWalkability } from './scores/walkability/walkability-labels.js';
import { SLOPE_RADIUS_M, walkSlopeFromDem, type WalkabilityScore } from './scores/walkability/walkability-score.js';
import type { WalkabilityTaskInput } from './scores/walkability/walkability-task-input.js';
import { readHeatSurface, type HeatSurface } from './surfaces/heat/heat-surface.js';
import { unpackContours, type ContoursLayer } from './surfaces/contours/contours-layer.js';
import { validateInterval } from './surfaces/contours/interval.js';
import type { PropertyOptions, PropertyResult, PropertyService, PropertySubject, SandboxAddress, SurfaceLayer } from './property/contract.js';
import { readSample } from './property/samples.js';
import { estimateAsync } from './memory/estimate.js';
import type { ScoresOptions, ScoresResult, SurfacesOptions, SurfacesResult } from './engine-calls.js';
import type { Scores, Surfaces } from './scores/score-types.js';
import { propertyIdentity, propertyLookup, type BillingIdentity, type PropertyDeps } from './property/property-lookup.js';
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
  /**
   * The DA store's SQLite file (it may be the server's store file: the DA tables sit beside the keys). The
   * dataset's DA records are loaded into it once (again only when they change); records imported with
   * `propintel das import` stay. Default: in memory, loaded from the dataset's DA records at first use.
   */
  daDatabase?: string;
  /** Caches for layer lookups (7 days) and scores and surfaces (31 days); default in-memory LRU caches. */
  caches?: { layers?: Cache; scores?: Cache };
}

export type { ScoresOptions, ScoresResult, SurfacesOptions, SurfacesResult } from './engine-calls.js';

/**
 * Radius of the DEM read for view quality, metres: its 1,500 m openness radius plus a margin of cells for
 * interpolation (the read is the lon/lat box of the disc, so the grid's corners reach further still).
 */
const VIEW_DEM_RADIUS_M = 1500 + 200;
/**
 * Radius of the DEM read when bushfire is the widest user, metres: its terrain slope lattice (250 m at 25 m
 * spacing, one node of margin) and the effective-slope profiles (at most 120 m out), plus margin.
 */
const BUSHFIRE_DEM_RADIUS_M = 250 + 2 * 25 + 100;
/** Radius of the DEM read that also serves walkability's regional slope (its disc plus lattice margin), metres. */
const WALK_DEM_RADIUS_M = SLOPE_RADIUS_M + 150 + 100;

/** Estimated bytes of one model of one state (`national` for data of no one state, `none` for no state). */
export interface ModelMemory {
  state: string;
  model: string;
  bytes: number;
}

/** A cache's memory tier: entries and estimated bytes (null where the cache does not say). */
export interface CacheMemory {
  cache: string;
  entries: number | null;
  bytes: number | null;
}

/** See {@link Engine.memoryReport}. */
export interface MemoryReport {
  models: ModelMemory[];
  caches: CacheMemory[];
}

/** The engine. */
export class Engine implements PropertyService {
  private readonly noise = new Map<StateCode, Promise<NoiseNetwork | null>>();
  /** The noise networks built so far (for the memory report). */
  private readonly noiseBuilt = new Map<StateCode, NoiseNetwork | null>();
  private memoryModels?: { key: string; models: ModelMemory[] };
  private memoryWalk?: Promise<{ key: string; models: ModelMemory[] }>;
  /** Keyed by state, '' for an undetermined state. */
  private readonly walk = new Map<string, WalkabilityIndexes>();
  private readonly walkShared = new Map<string, SharedWalkabilityIndexes>();
  private readonly bushfire = new Map<string, BushfireLayers>();
  private contamination?: ContaminationRegister;
  private anef?: AnefLayer;
  readonly rasters = new RasterCache();
  private closed = false;
  private addressIndex?: AddressIndex;
  private daStore?: DaStore;
  private sandboxIdSet?: Promise<ReadonlySet<string>>;
  private readonly deps: PropertyDeps;

  private constructor(readonly store: DataStore, readonly pool: EnginePool, private readonly options: EngineOptions) {
    this.deps = {
      store,
      addresses: () => this.addresses(),
      das: () => this.das(),
      sandboxIds: () => this.sandboxIds(),
      scores: (lon, lat, o) => this.scores(lon, lat, o),
      surfaces: (lon, lat, o) => this.surfaces(lon, lat, o),
      layerCache: options.caches?.layers ?? new TtlCache(20_000, 128 * 1024 * 1024),
      scoreCache: options.caches?.scores ?? new TtlCache(5_000, 64 * 1024 * 1024),
    };
  }

  /** Opens a dataset directory and starts the worker pool. */
  static async create(options: EngineOptions): Promise<Engine> {
    const store = await openDataStore(options.datasets);
    const pool = createEnginePool({ threads: options.threads, taskTimeoutMs: options.taskTimeoutMs });
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

  /**
   * Estimated memory of what the engine holds (engine/memory/estimate.ts): the loaded dataset files by state
   * (`national` for files of no one state), each model built from them by state, the address index, the DA
   * store's radius index, and the layer and score caches' memory tiers. Models are walked once after each is
   * built (they do not change), so a scrape of /metrics costs little after the first.
   */
  async memoryReport(): Promise<MemoryReport> {
    const built = [this.noiseBuilt.size, this.walk.size, this.bushfire.size, !!this.contamination, !!this.anef, !!this.addressIndex].join('|');
    if (this.memoryModels?.key !== built) {
      // The walk yields to the event loop every 20,000 objects: a first scrape costs time, not requests.
      this.memoryWalk ??= (async () => {
        const seen = new WeakSet<object>();
        const models: ModelMemory[] = [];
        const add = async (state: string, model: string, value: unknown) => {
          const { bytes } = await estimateAsync(value, { seen });
          const row = models.find((m) => m.state === state && m.model === model);
          if (row) row.bytes += bytes;
          else models.push({ state, model, bytes });
        };
        // Files first: a model's share is what it holds beyond the features it was built from.
        for (const f of this.store.files) await add(f.file.state ?? 'national', 'dataset_files', f);
        for (const [state, n] of this.noiseBuilt) await add(state, 'noise_network', n);
        for (const [state, w] of this.walk) await add(state || 'none', 'walkability_indexes', w);
        for (const [state, b] of this.bushfire) await add(state || 'none', 'bushfire_layers', b);
        if (this.contamination) await add('national', 'contamination_register', this.contamination);
        if (this.anef) await add('national', 'aircraft_noise_contours', this.anef);
        if (this.addressIndex) await add('national', 'address_index', this.addressIndex);
        return { key: built, models };
      })().finally(() => (this.memoryWalk = undefined));
      this.memoryModels = await this.memoryWalk;
    }
    const models = [...this.memoryModels.models];
    if (this.daStore) models.push({ state: 'national', model: 'da_radius_index', bytes: this.daStore.memoryBytes() });
    const cacheRow = (name: string, c: unknown): CacheMemory => {
      const m = c as { size?: number; bytes?: number };
      return { cache: name, entries: typeof m.size === 'number' ? m.size : null, bytes: typeof m.bytes === 'number' ? m.bytes : null };
    };
    return { models, caches: [cacheRow('layers', this.deps.layerCache), cacheRow('scores', this.deps.scoreCache)] };
  }

  /** The state or territory containing (lon, lat) by its LGA, or null. */
  stateAt(lon: number, lat: number): StateCode | null {
    return stateAt(this.store, lon, lat);
  }

  /** The noise network of a state (built once). */
  noiseNetwork(state: StateCode): Promise<NoiseNetwork | null> {
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
  private walkability(state: StateCode | null): WalkabilityIndexes {
    const key = state ?? '';
    let w = this.walk.get(key);
    if (!w) this.walk.set(key, (w = walkabilityIndexesFor(this.store, state)));
    return w;
  }

  /** Bushfire layers of a state (built once); for no state, every input not integrated. */
  private bushfireLayers(state: StateCode | null): BushfireLayers {
    const key = state ?? '';
    let b = this.bushfire.get(key);
    if (!b) this.bushfire.set(key, (b = bushfireLayersFor(this.store, state)));
    return b;
  }

  private resolveState(lon: number, lat: number, state?: StateCode | null): StateCode | null {
    return state === undefined ? this.stateAt(lon, lat) : state;
  }

  /**
   * The context scores' inputs around a subject, for the keys asked for only: a raster is read (and the
   * 300 x 300 heat surface built) only when a requested score reads it, and the DEM only as far out as the
   * widest requested score looks. Inputs no requested score reads are left null (never read as "not
   * integrated" because no score sees them). With no state the state-held models are not-integrated inputs
   * (engine/property/inputs/domain-inputs.ts), never another state's layers.
   */
  private async contextInputs(window: Window, state: StateCode | null, keys: ReadonlySet<ContextScoreKey>): Promise<ContextInputs> {
    const { lon, lat } = window;
    // One DEM read serves view quality and the terrain slope of bushfire and walkability, so the catalogue
    // names it once, under scores.view_quality.
    const reader = keys.has('view_quality') ? VIEW_DEM_RADIUS_M : keys.has('bushfire') ? BUSHFIRE_DEM_RADIUS_M : 0;
    // Walkability's slope comes from this read when the DEM is read anyway; alone, its worker reads the DEM.
    const demRadius = reader && keys.has('walkability') ? Math.max(reader, WALK_DEM_RADIUS_M) : reader;
    const demRef = demRadius ? rasterAt(this.store.rastersFor('scores.view_quality', state), lon, lat) : null;
    const heat = keys.has('heat_island');
    const lstRef = heat ? rasterAt(this.store.rastersFor('scores.heat_island', state).filter((r) => r.source.options?.unit === 'degC'), lon, lat) : null;
    const lcRef = heat ? rasterAt(this.store.rastersFor('surfaces.heat', state), lon, lat) : null;
    const solar = keys.has('solar');
    const solarRef = (layer: string) => (solar ? rasterAt(this.store.rastersFor('scores.solar', state, layer), lon, lat) : null);
    const [dem, lst, ghi, dni, pvout, optimumTilt, landCover] = await Promise.all([
      this.rasters.disc(demRef, lon, lat, demRadius),
      this.rasters.disc(lstRef, lon, lat, REGIONAL_RADIUS_M + 2000),
      this.rasters.disc(solarRef('ghi'), lon, lat, 1000),
      this.rasters.disc(solarRef('dni'), lon, lat, 1000),
      this.rasters.disc(solarRef('pvout'), lon, lat, 3000),
      this.rasters.disc(solarRef('tilt'), lon, lat, 10_000),
      this.heatSurface(window, lcRef ? { path: lcRef.path, source: lcRef.source.id } : null),
    ]);
    if (keys.has('contamination')) this.contamination ??= contaminationRegisterFor(this.store);
    if (keys.has('aircraft_noise')) this.anef ??= anefLayerFor(this.store);
    return {
      window,
      bushfire: keys.has('bushfire') ? this.bushfireLayers(state) : undefined,
      dem,
      walkSlope: demRadius && keys.has('walkability') ? walkSlopeFromDem(dem, lon, lat) : undefined,
      lst,
      landCover,
      solar: { ghi, dni, pvout, optimumTilt },
      contamination: this.contamination,
      anef: this.anef,
    };
  }

  /**
   * `scores.walkability` on the worker pool (DESIGN.md: walkability bands run on the pool): the indexes travel
   * as SharedArrayBuffers (attached, not copied); the regional slope is the one worked out from the DEM read
   * for other scores, or (`slope` undefined) the worker reads the DEM window itself. The nearest amenities'
   * names are added back here. A failed task throws (the score is degraded, never cached).
   */
  private async walkabilityOnPool(lon: number, lat: number, state: StateCode | null, includeGeometry: boolean, slope: ContextInputs['walkSlope'], signal?: AbortSignal): Promise<WalkabilityScore> {
    const ix = this.walkability(state);
    const key = state ?? '';
    let shared = this.walkShared.get(key);
    if (!shared) this.walkShared.set(key, (shared = shareWalkabilityIndexes(ix)));
    const demRef = slope === undefined ? rasterAt(this.store.rastersFor('scores.view_quality', state), lon, lat) : null;
    const input: WalkabilityTaskInput = demRef
      ? { indexes: shared, lon, lat, includeGeometry, dem: { file: demRef.path, source: demRef.source.id } }
      : { indexes: shared, lon, lat, includeGeometry, slope: slope ?? null };
    return labelWalkability(await this.pool.run('walkability', input, { signal }), ix);
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
    const scores: Partial<Scores> = {};
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
        const keys = new Set<ContextScoreKey>(contextKeys);
        let inputs: ContextInputs;
        try {
          inputs = await this.contextInputs(window, state, keys);
        } catch (err) {
          if (options.signal?.aborted) throw err;
          degraded.push(...contextKeys.map((k) => `scores.${k}`));
          return;
        }
        // Walkability runs on the pool while this thread computes the others.
        const walk = keys.has('walkability')
          ? guard('walkability', async () => {
            scores.walkability = await this.walkabilityOnPool(lon, lat, state, !!options.includeGeometry, inputs.walkSlope, options.signal);
          })
          : null;
        for (const key of keys) {
          if (key === 'walkability') continue;
          try {
            Object.assign(scores, computeContextScores(inputs, { lon, lat, state, identity: options.identity, only: [key], includeGeometry: options.includeGeometry }));
          } catch {
            degraded.push(`scores.${key}`);
          }
        }
        await walk;
      })());
    }
    await Promise.all(jobs);
    const ordered: Partial<Scores> = {};
    for (const k of SCORE_KEYS) if (k in scores) (ordered as Record<ScoreKey, unknown>)[k] = scores[k];
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

  /** See {@link PropertyService.identify}: what a lookup of `subject` would be billed as, without running it. */
  async identify(subject: PropertySubject): Promise<BillingIdentity> {
    this.assertOpen();
    return propertyIdentity(this.deps, subject);
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
