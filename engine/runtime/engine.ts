/**
 * The engine: `createEngine({ datasets })` opens the dataset catalogue, loads and indexes every layer, starts
 * the worker pool, and answers for points and addresses. The server, the CLI and internal services use this
 * one object.
 *
 * This module starts and closes things and answers; the work is elsewhere: the domain models, built per state
 * on first use and kept, in state-models.ts; the scores in compute-scores.ts and the surfaces in
 * compute-surfaces.ts (heavy work on the pool: HAND, contours, the noise grid, walkability); the property
 * payload in property/property-lookup.ts. Raster files stay open. Every score and surface is isolated: one
 * that fails is reported degraded, never a crashed lookup.
 */
import { STATES, type StateCode } from '../catalogue/states.js';
import { openDataStore, type DataStore, type LoadedFile } from '../data/dataset-store.js';
import { EngineError, invalidArgument } from '../errors.js';
import type { NoiseNetwork } from '../noise/noise-network.js';
import { createEnginePool, createInlineEnginePool, type EnginePool } from '../tasks/engine-pool.js';
import { stateAt } from '../property/inputs/domain-inputs.js';
import type { ChildcareScope, OpenSchool, SourceNotice } from '../childcare/analysis.js';
import { EngineChildcare, REPORT_TIMEOUT_MS, type ReportOptions } from '../childcare/service/engine-childcare.js';
import type { SiteRequest } from '../childcare/site.js';
import type { ReportFile, ReportFormat } from '../childcare/report/report.js';
import type { CatalogueSource } from '../catalogue/catalogue.js';
import type { TileLayerSpec } from '../tiles/vector-tiles.js';
import { EngineTiles } from '../tiles/engine-tiles.js';
import { TERRAIN_LAYER } from '../tiles/terrain-tiles.js';
import { datasetFingerprint } from '../catalogue/fingerprint.js';
import { RasterCache } from '../property/inputs/raster-cache.js';
import type { PropertyOptions, PropertyResult, PropertyService, PropertySubject, SandboxAddress } from '../property/kit/contract.js';
import { readSample } from '../property/samples.js';
import { MemoryReporter, type CacheMemory, type MemoryReport, type ModelMemory } from './memory-report.js';
import type { ScoresOptions, ScoresResult, SurfacesOptions, SurfacesResult } from '../property/engine-calls.js';
import { propertyIdentity, propertyLookup, type BillingIdentity, type PropertyDeps } from '../property/property-lookup.js';
import type { AddressIndex, AddressRecord } from '../address/index.js';
import { addressIndexFromStore } from '../data/address-from-store.js';
import { openOrWriteAddressIndexFile } from '../address/address-disk.js';
import { addressRecordsFromRows } from '../address/address-record.js';
import { DaStore, daStoreFromDataStore, daStoreFromTables, type DaService } from '../da/index.js';
import { TtlCache, type Cache } from '../cache/ttl-cache.js';
import { openCacheDatabase, type CacheDatabase } from '../cache/sqlite-cache.js';
import { NATIONAL_MODEL_PATHS, StateModels } from './state-models.js';
import { openWindowedData, stateOfFile, type WholeStore, type WindowedData } from '../data/windowed-store.js';
import { layerRead } from '../data/lazy-layer.js';
import { COVERING_REACH_M, ZONES_NEARBY_REACH_M } from '../data/layer-policy.js';
import { radiusBox } from '../vector/metric-search.js';
import { Semaphore } from '../pool/semaphore.js';
import { HandTileStore } from '../hydro/hand-tile-store.js';
import { floodHandInputs } from '../property/inputs/domain-inputs.js';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { BLOCK_CACHE_BYTES, setBlockCacheBytes } from '../raster/geotiff-reader.js';
import { EngineThreads, type ThreadStats } from '../threads/engine-threads.js';
import { stateOfAddressText, stateOfPoint, threadOfState, type LonLatBox } from '../threads/affinity.js';
import { propertyBodyOf, type PropertyBody } from '../property/payload-body.js';
import { joinPacked, lookupPacked, packedRowsText, readUploadYielding, type ReadUpload } from '../batch/batch-pack.js';
import type { BatchInputOptions } from '../batch/batch-input.js';
import type { BatchOutputOptions } from '../batch/batch-output.js';
import type { LookupRowsOptions, PackedResults } from '../batch/batch-run.js';
import { computeScores, type ScoresContext } from './compute-scores.js';
import { MODEL_KINDS, registryKeys, type ScoreRegistry } from '../scores/registry.js';
import { computeSurfaces, type SurfacesContext } from './compute-surfaces.js';

export { REPORT_TIMEOUT_MS } from '../childcare/service/engine-childcare.js';

/**
 * The per-state byte budget of an engine reading by window, 512 MiB: a metro state's whole layers and models
 * measure 13-15 MB on the four-state bench world (24 km and 180,000 addresses a state), about 75 bytes an
 * address, so NSW's 5 million would be about 0.4 GB: the budget holds the largest state with room, every
 * metro one, and keeps a server answering the whole country within its memory.
 */
export const DEFAULT_WINDOWED_MODEL_BUDGET = 512 * 1024 * 1024;

/** Options for {@link createEngine}. */
export interface EngineOptions {
  /** The dataset directory (with catalogue.json). */
  datasets: string;
  /**
   * Threads that compute; default the number of cores. With `compute: 'here'` they are the worker pool of the
   * heavy steps (0: none, every step runs on the calling thread); with `compute: 'threads'`, the engine
   * threads that run whole lookups, tiles, reports and batch parts.
   */
  threads?: number;
  /**
   * Where lookups, tiles, reports and batch parts are computed (docs/library.md#threads):
   * - `'here'` (default): on the calling thread, with the heavy steps (noise grid, contours, HAND,
   *   walkability, tiles' tracing) on a pool of `threads` workers. The dataset is held in this thread.
   * - `'threads'`: each whole call on one of `threads` engine threads (engine/threads/), so the calling thread
   *   (a server's, answering HTTP) only dispatches and never stalls on a lookup. The threads share one copy of
   *   the data: the layers read by window from one layer file (`layerFile`, written beside the OS temporary
   *   directory when not given) and the address index and DA store from their files, through the page cache.
   */
  compute?: 'here' | 'threads';
  /**
   * The scores this engine computes: default every score of the registry (engine/scores/registry.ts). A list
   * with scores of the caller's own (`defineScore`, docs/development.md#adding-a-score) needs `compute: 'here'`:
   * a descriptor's functions cannot be sent to engine threads.
   */
  scores?: ScoreRegistry;
  /** With `compute: 'threads'`: calls an engine thread works on at once (default 4; more queue for the first free thread). */
  callsPerThread?: number;
  /** Per-task time limit, ms; default 30,000. */
  taskTimeoutMs?: number;
  /**
   * The DA store's SQLite file (it may be the server's store file: the DA tables sit beside the keys). The
   * dataset's DA records are loaded into it once (again only when they change); records imported with
   * `propintel das import` stay. Default: in memory, loaded from the dataset's DA records at first use.
   */
  daDatabase?: string;
  /**
   * An opened DA store to serve instead (a replica's local copy of shared records,
   * server/store/pg/da-replica.ts): the dataset's DA records are not loaded into it, and the engine closes it.
   */
  daStore?: DaStore;
  /**
   * A DA store file another engine keeps current (an engine thread's owner): read as it is, the dataset's DA
   * records not loaded into it.
   */
  daStoreFile?: string;
  /**
   * An on-disk address index (engine/address/address-disk.ts) at this path: written from the dataset's
   * address records when absent or written for other data, then read per query, so the process holds only
   * the addresses recent queries touched. Default: the whole index in memory.
   */
  addressIndexFile?: string;
  /**
   * Read the dataset's vector layers and records per window from this layer file (engine/data/windowed-store.ts)
   * instead of holding them in memory: written from the dataset when absent or written for other data, then
   * opened in about a second whatever the dataset's size. Lookups answer exactly as over the whole dataset.
   * Implies an on-disk address index (`addressIndexFile`, default beside the layer file).
   */
  layerFile?: string;
  /** With `layerFile`: bytes of windows kept in memory (default 64 MB; the parsed items they share are bounded apart). */
  windowCacheBytes?: number;
  /**
   * With `layerFile`: states whose windowed files this engine holds whole in memory (read once from the layer
   * file), answering lookups there without reading a window; elsewhere, and near another state's data, it
   * reads windows as usual. Engine threads each hold their own states so when the dataset was not given as a
   * layer file (`compute: 'threads'` without `layerFile`): one copy of the data across the threads.
   */
  memoryStates?: readonly string[];
  /** With `layerFile`: told what the first open's conversion does, file by file. */
  onProgress?: (line: string) => void;
  /**
   * Directory of the stored HAND tiles the flood score reads (engine/hydro/hand-tile-store.ts), computed on
   * first use or by {@link Engine.warm}; default `propintel/hand-tiles` under the OS temporary directory.
   * `false` computes HAND around each subject instead (the slower path, kept for comparison).
   */
  handTiles?: string | false;
  /**
   * Directory where finished contour, noise and HAND tiles are kept (under a fingerprint of the dataset);
   * default `propintel/tile-cache` under the OS temporary directory; `false` keeps them in memory only.
   */
  tileCache?: string | false;
  /**
   * Property lookups computed at once; more wait in arrival order. Default twice the worker threads (at least
   * 2). A burst of first lookups then runs a few at a time, each finishing fast, instead of all at once
   * sharing the CPU and holding their raster windows together (64 at once halved throughput).
   */
  maxConcurrentLookups?: number;
  /**
   * Bytes the per-state models (noise network, walkability indexes, bushfire layers) may hold across states,
   * by the engine's estimate; past it the least recently used state's models are dropped and built again,
   * identical, when a lookup needs them. Read by window (`layerFile`), a state's whole layers count with its
   * models and go with them. Default {@link DEFAULT_WINDOWED_MODEL_BUDGET} by window; none in memory (the
   * dataset is held whole anyway): models are kept once built.
   */
  modelBudgetBytes?: number;
  /** Caches for layer lookups (7 days) and scores and surfaces (31 days); default in-memory LRU caches. */
  caches?: { layers?: Cache; scores?: Cache };
  /**
   * Decoded raster blocks kept by this thread across its open rasters, bytes (default 64 MiB,
   * engine/raster/geotiff-reader.ts); each engine thread keeps its share.
   */
  rasterBlockCacheBytes?: number;
  /**
   * The layer and score caches in a SQLite file's `cache` table (namespaces `layers` and `scores`), opened by
   * this engine with a connection of its own, behind memory tiers of `memoryCacheBytes`: how engine threads
   * share the server store's persistent caches (`caches` holds objects, which cannot cross to a thread).
   * Ignored when `caches` is given.
   */
  cacheDatabase?: { file: string; layers: string; scores: string };
  /** Bytes of the default in-memory caches: layer lookups (default 128 MiB) and scores and surfaces (64 MiB). */
  memoryCacheBytes?: { layers?: number; scores?: number };
  /** Told what the engine threads do that an operator should know (a thread that died and was replaced). */
  log?: (line: string) => void;
}

export type { ScoresOptions, ScoresResult, SurfacesOptions, SurfacesResult } from '../property/engine-calls.js';

export type { CacheMemory, MemoryReport, ModelMemory } from './memory-report.js';

/** The engine. */
export class Engine implements PropertyService {
  /** The per-state and national domain models (built on first use). */
  private readonly models: StateModels;
  private readonly compute: ScoresContext & SurfacesContext;
  /** With `compute: 'threads'`: the engine threads every lookup, tile, report and batch part runs on. */
  private engineThreads?: EngineThreads;
  /** With engine threads: each state's box, to send a point's calls to the thread owning its state. */
  private stateBoxes = new Map<StateCode, LonLatBox>();
  /** The caches this engine opened in a SQLite file (`cacheDatabase`), closed with it. */
  private cacheDb?: CacheDatabase;
  /** A DA store file this engine made for its threads (deleted at close). */
  private ownDaFile?: string;
  /** The stored HAND tiles (undefined when `handTiles: false`). */
  private readonly handTiles?: HandTileStore;
  private readonly memory = new MemoryReporter();
  /** Childcare market intelligence over this engine's data (engine/childcare/service/engine-childcare.ts). */
  private readonly childcareService: EngineChildcare;
  /** Lookups computed at once; the rest wait their turn (see {@link EngineOptions.maxConcurrentLookups}). */
  private readonly lookupSlots: Semaphore;
  readonly rasters = new RasterCache();
  private closed = false;
  private addressIndex?: AddressIndex;
  private daStore?: DaStore;
  private sandboxIdSet?: Promise<ReadonlySet<string>>;
  private readonly deps: PropertyDeps;
  /** Vector, contour, HAND, noise and terrain tiles (tiles/engine-tiles.ts). */
  private readonly tiles: EngineTiles;

  /** Models of each window (data/windowed-store.ts), made with the window and dropped with it. */
  private readonly windowModels = new WeakMap<DataStore, StateModels>();

  /** The states held whole in memory (`memoryStates`), their store (made on first use) and its models. */
  private owned?: Set<string>;
  private whole?: { held: WholeStore; models: StateModels };
  /** Lookups answered by window since the last look, by the state of their point (see {@link held}). */
  private byWindow = new Map<string, number>();
  private windowedSince = 0;

  private constructor(readonly store: DataStore, readonly pool: EnginePool, private readonly options: EngineOptions, readonly windows?: WindowedData) {
    if (options.rasterBlockCacheBytes !== undefined) setBlockCacheBytes(options.rasterBlockCacheBytes);
    if (options.cacheDatabase && !options.caches) {
      const c = options.cacheDatabase;
      this.cacheDb = openCacheDatabase(c.file, { layers: c.layers, scores: c.scores }, { memoryBytes: { layers: options.memoryCacheBytes?.layers, scores: options.memoryCacheBytes?.scores } });
    }
    if (windows && options.memoryStates) this.owned = new Set(options.memoryStates);
    if (windows) for (const [st, box] of windows.stateBoxes()) if ((STATES as readonly string[]).includes(st)) this.stateBoxes.set(st as StateCode, box);
    this.models = new StateModels(store);
    this.models.budgetBytes = options.modelBudgetBytes ?? (windows ? DEFAULT_WINDOWED_MODEL_BUDGET : null);
    if (windows) {
      // Whole layers read by state count against the state's share of the budget and go with its models.
      // Those a national model keeps (the contamination register, the ANEF contours) are neither.
      const national = (layer: LoadedFile) => layer.source.paths.some((p) => NATIONAL_MODEL_PATHS.includes(p));
      windows.onLayerRead = (layer) => {
        if (!national(layer)) this.models.counted(stateOfFile(layer.source, layer.file), layer);
      };
      this.models.onEvict = (state) => windows.unloadState(state, national);
    }
    this.lookupSlots = new Semaphore(options.maxConcurrentLookups ?? Math.max(2, 2 * pool.threads));
    const tileDir = options.handTiles === false ? null : (options.handTiles ?? join(tmpdir(), 'propintel', 'hand-tiles'));
    this.handTiles = tileDir ? new HandTileStore({ dir: tileDir, compute: (input) => pool.run('hand-tile', input) }) : undefined;
    this.compute = { store, pool, rasters: this.rasters, models: this.models, handTiles: this.handTiles, registry: options.scores };
    this.childcareService = new EngineChildcare({
      store: () => this.store,
      das: () => this.das(),
      addresses: () => this.addresses(),
      stateAt: (lon, lat) => this.stateAt(lon, lat),
      pool,
      // With engine threads, a report renders on one (the site analysis made here, from this engine's DA store).
      renderOnThread: (req, format, o) => {
        const threads = this.engineThreads;
        if (!threads) return null;
        return threads.call<{ body: Uint8Array; contentType: string; filename: string }>('childcareReport', [req, format, o], { timeoutMs: REPORT_TIMEOUT_MS + 5_000 }).then((file) => ({ ...file, body: Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength) }));
      },
    });
    this.tiles = new EngineTiles({
      store,
      windows,
      pool,
      handTiles: this.handTiles,
      tileCache: options.tileCache,
      stateAt: (lon, lat) => this.stateAt(lon, lat),
      storeAt: (lon, lat) => this.storeAt(lon, lat),
      noiseNetwork: (state) => this.models.noiseNetwork(state),
      das: () => this.das(),
      dataRevision: () => this.dataRevision(),
    });
    this.deps = {
      store,
      addresses: () => this.addresses(),
      das: () => this.das(),
      sandboxIds: () => this.sandboxIds(),
      scores: (lon, lat, o) => this.scores(lon, lat, o),
      scoreKeys: options.scores?.map((d) => d.key),
      surfaces: (lon, lat, o) => this.surfaces(lon, lat, o),
      layerCache: options.caches?.layers ?? this.cacheDb?.layers ?? new TtlCache(20_000, options.memoryCacheBytes?.layers ?? DEFAULT_LAYER_CACHE_BYTES),
      scoreCache: options.caches?.scores ?? this.cacheDb?.scores ?? new TtlCache(5_000, options.memoryCacheBytes?.scores ?? DEFAULT_SCORE_CACHE_BYTES),
      ...(windows
        ? {
            windows: {
              at: (lon: number, lat: number) => this.storeAt(lon, lat),
              around: (lon: number, lat: number, radiusM: number) => {
                const box = radiusBox(lon, lat, radiusM);
                return this.held(box)?.held.store ?? windows.storeForBox(box);
              },
              coveringM: COVERING_REACH_M,
              zonesNearbyM: ZONES_NEARBY_REACH_M,
            },
          }
        : {}),
    };
  }

  /** The store answering for (lon, lat): the dataset, the states held whole, or the window of its cell. */
  private storeAt(lon: number, lat: number): DataStore {
    return this.windows ? (this.held([lon, lat, lon, lat])?.held.store ?? this.windows.storeAt(lon, lat)) : this.store;
  }

  /**
   * The states held whole (`memoryStates`) when they answer a window around `box` exactly: no other state's
   * windowed file reaches it. Made on first use (each windowed file of those states read once).
   */
  private held(box: readonly [number, number, number, number]): { held: WholeStore; models: StateModels } | null {
    if (!this.owned || !this.windows) return null;
    if (!this.whole) {
      const held = this.windows.wholeStore(this.owned);
      this.whole = { held, models: new StateModels(held.store, this.models) };
    }
    if (!this.whole.held.reaches(box)) return this.whole;
    this.noteWindowed(box);
    return null;
  }

  /**
   * A thread that answers many lookups of a state it does not hold (a book of one state's addresses keeps
   * every thread busy with it) holds that state too: once {@link ADOPT_AFTER} window reads have passed and
   * more than half of them were in one state, that state's windowed files are read whole here as well. One
   * copy per thread of a state only while its traffic needs more than one thread.
   */
  private noteWindowed(box: readonly [number, number, number, number]): void {
    const state = stateOfPoint(this.stateBoxes, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
    if (!state || this.owned!.has(state)) return;
    this.byWindow.set(state, (this.byWindow.get(state) ?? 0) + 1);
    if (++this.windowedSince < ADOPT_AFTER) return;
    const [top, n] = [...this.byWindow].reduce((a, b) => (b[1] > a[1] ? b : a));
    this.byWindow = new Map();
    this.windowedSince = 0;
    if (n * 2 <= ADOPT_AFTER) return;
    this.owned!.add(top);
    const held = this.windows!.wholeStore(this.owned!, this.whole!.held);
    this.whole = { held, models: new StateModels(held.store, this.models) };
  }

  /** The states this engine holds whole now (its `memoryStates` and those it took on). */
  heldStates(): string[] {
    return this.owned ? [...this.owned].sort() : [];
  }

  /** The scores' and surfaces' context at (lon, lat): over the dataset, or the window of its cell with its models. */
  private computeAt(lon: number, lat: number): ScoresContext & SurfacesContext {
    if (!this.windows) return this.compute;
    const whole = this.held([lon, lat, lon, lat]);
    if (whole) return { ...this.compute, store: whole.held.store, models: whole.models };
    const store = this.windows.storeAt(lon, lat);
    let models = this.windowModels.get(store);
    if (!models) this.windowModels.set(store, (models = new StateModels(store, this.models)));
    return { ...this.compute, store, models };
  }

  /** Opens a dataset directory and starts the worker pool (or the engine threads, with `compute: 'threads'`). */
  static async create(options: EngineOptions): Promise<Engine> {
    const slots = options.maxConcurrentLookups;
    if (slots !== undefined && !(Number.isInteger(slots) && slots >= 1)) throw invalidArgument('max_concurrent_lookups', `maxConcurrentLookups must be a whole number of at least 1 slot, got ${slots}`);
    const threads = options.threads;
    if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0)) throw invalidArgument('threads', `threads must be a whole number (0 or more), got ${threads}`);
    if (options.scores) registryKeys(options.scores);
    if (options.compute === 'threads' && options.scores) throw invalidArgument('scores', 'a list of scores runs with compute \'here\' only (a descriptor\'s functions cannot be sent to engine threads)');
    if (options.compute === 'threads') return Engine.createThreaded(options);
    if (options.compute !== undefined && options.compute !== 'here') throw invalidArgument('compute', `compute must be 'here' or 'threads', got ${JSON.stringify(options.compute)}`);
    const pool = () => (threads === 0 ? createInlineEnginePool({ taskTimeoutMs: options.taskTimeoutMs }) : createEnginePool({ threads, taskTimeoutMs: options.taskTimeoutMs }));
    if (options.layerFile) {
      // The parsed items shared by windows take half as much again as the windows (32 MB of the default 64).
      const items = options.windowCacheBytes === undefined ? {} : { itemCacheBytes: Math.floor(options.windowCacheBytes / 2) };
      const windows = await openWindowedData(options.datasets, { file: options.layerFile, cacheBytes: options.windowCacheBytes, ...items, onProgress: options.onProgress });
      return new Engine(windows.base, pool(), { ...options, addressIndexFile: options.addressIndexFile ?? addressFileOf(options.layerFile) }, windows);
    }
    const store = await openDataStore(options.datasets);
    return new Engine(store, pool(), options);
  }

  /**
   * An engine whose lookups, tiles, reports and batch parts run on engine threads (`compute: 'threads'`).
   * This thread opens the layer file (writing it when absent or stale), the address index and the DA store
   * first, so the threads only open what is written; it keeps the catalogue and what the listing, childcare
   * and TileJSON read, with a small window cache. Each thread gets an equal share of the window cache, the
   * model budget and the memory caches.
   */
  private static async createThreaded(options: EngineOptions): Promise<Engine> {
    const n = Math.max(1, options.threads ?? availableParallelism());
    const layerFile = options.layerFile ?? defaultLayerFile(options.datasets);
    const windows = await openWindowedData(options.datasets, { file: layerFile, cacheBytes: MAIN_WINDOW_CACHE_BYTES, onProgress: options.onProgress });
    let ownDaFile: string | undefined;
    const daDatabase = options.daStore ? undefined : (options.daDatabase ?? (ownDaFile = scratchDaFile()));
    const engine = new Engine(windows.base, createInlineEnginePool({ taskTimeoutMs: options.taskTimeoutMs }), { ...options, layerFile, daDatabase, addressIndexFile: options.addressIndexFile ?? addressFileOf(layerFile) }, windows);
    engine.ownDaFile = ownDaFile;
    try {
      // Written (or checked) here once, before the threads open them.
      engine.addresses();
      const das = engine.daStoreWithWrites();
      const share = (bytes: number | undefined, whole: number) => Math.max(1, Math.floor((bytes ?? whole) / n));
      const thread: EngineOptions = {
        datasets: options.datasets,
        layerFile,
        addressIndexFile: engine.options.addressIndexFile,
        daStoreFile: das.path,
        windowCacheBytes: share(options.windowCacheBytes, 64 * 1024 * 1024),
        modelBudgetBytes: share(options.modelBudgetBytes, DEFAULT_WINDOWED_MODEL_BUDGET),
        // The threads share one bound of decoded blocks (thread-blocks.ts); each keeps only a few of its own.
        rasterBlockCacheBytes: THREAD_OWN_BLOCK_BYTES,
        memoryCacheBytes: { layers: share(options.memoryCacheBytes?.layers, DEFAULT_LAYER_CACHE_BYTES), scores: share(options.memoryCacheBytes?.scores, DEFAULT_SCORE_CACHE_BYTES) },
        ...(options.handTiles !== undefined ? { handTiles: options.handTiles } : {}),
        ...(options.tileCache !== undefined ? { tileCache: options.tileCache } : {}),
        ...(options.taskTimeoutMs !== undefined ? { taskTimeoutMs: options.taskTimeoutMs } : {}),
        ...(options.cacheDatabase ? { cacheDatabase: options.cacheDatabase } : {}),
        maxConcurrentLookups: options.callsPerThread ?? 4,
      };
      // Without a layer file of the caller's (the dataset is held in memory, as by one thread), each thread
      // holds its own states' windowed files whole and reads the others' by window: one copy across threads.
      const own = (slot: number) => (options.layerFile ? {} : { memoryStates: STATES.filter((st) => n < 2 || threadOfState(st, n) === slot) });
      engine.engineThreads = await EngineThreads.start({ module: new URL(`./engine-thread.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url), threads: n, engine: (slot) => ({ ...(thread as unknown as Record<string, unknown>), ...own(slot) }), callsPerThread: options.callsPerThread, log: options.log, blockCacheBytes: options.rasterBlockCacheBytes ?? BLOCK_CACHE_BYTES });
      return engine;
    } catch (err) {
      await engine.close();
      throw err;
    }
  }

  /** The address index over every state's address points (built on first use). */
  addresses(): AddressIndex {
    const file = this.options.addressIndexFile;
    this.addressIndex ??= file
      ? openOrWriteAddressIndexFile(file, datasetFingerprint(this.store.catalogue), () => addressRecordsOf(this.windows ? this.windows.eachRows('resolved.address') : this.store.recordsFor('resolved.address')))
      : addressIndexFromStore(this.store);
    return this.addressIndex;
  }

  /** The DA store (loaded from the dataset's DA records on first use); the listing API serves the same store. */
  das(): DaService {
    return this.daStoreWithWrites();
  }

  /** The DA store itself, writes included (the engine's own loading, and tests; not in the public `Engine`). */
  daStoreWithWrites(): DaStore {
    const windows = this.windows;
    this.daStore ??= this.options.daStore ?? (this.options.daStoreFile ? DaStore.open(this.options.daStoreFile) : windows ? daStoreFromTables(() => windows.recordTables('development_applications').map((t) => ({ source: t.source.id, file: t.file.path, ...(t.fingerprint ? { fingerprint: t.fingerprint } : {}), get rows() { return t.rows; } })), this.options.daDatabase) : daStoreFromDataStore(this.store, this.options.daDatabase));
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
   * ids, and per state the noise network and every model the scores declare (the walkability indexes and
   * their shared form, the bushfire layers), plus the national ones (the contamination register, the ANEF
   * contours), each timed under its kind's name. Returns milliseconds per part, for startup timing.
   */
  async buildIndexes(): Promise<Record<string, number>> {
    this.assertOpen();
    if (this.engineThreads) {
      // The slowest thread's time per part.
      const all = await this.engineThreads.callEach<Record<string, number>>('buildIndexes', []);
      const ms: Record<string, number> = {};
      for (const r of all) for (const [k, v] of Object.entries(r)) ms[k] = Math.max(ms[k] ?? 0, v);
      return ms;
    }
    const ms: Record<string, number> = {};
    const time = async (name: string, run: () => unknown) => {
      const t0 = performance.now();
      await run();
      ms[name] = performance.now() - t0;
    };
    await time('addresses', () => this.addresses());
    await time('das', () => this.das());
    // The childcare analysis reads its category from memory; the first read of a large store is the slow one.
    await time('childcare', () => this.das().categoryRecords('childcare'));
    await time('sandbox', () => this.sandboxIds());
    // The states this engine holds whole (an engine thread's own), read from the layer file.
    if (this.owned) await time('held_states', () => this.held([0, 0, 0, 0]));
    const states = STATES.filter((st) => this.store.catalogue.sources.some((s) => st in s.coverage));
    await time('noise', () => Promise.all(states.map((st) => this.models.noiseNetwork(st))));
    // Every model the scores declare; read by window, a model built from the window is built per window.
    for (const kind of MODEL_KINDS) {
      if (kind.scope === 'national') await time(kind.name, () => this.models.get(kind, null));
      else if (kind.whole || !this.windows) await time(kind.name, () => states.forEach((st) => this.models.get(kind, st)));
    }
    return ms;
  }

  /**
   * Estimated memory of what the engine holds (runtime/memory-report.ts): the loaded dataset files by
   * state, each model built from them by state, the address index, the DA store's radius index, and the layer
   * and score caches' memory tiers.
   */
  async memoryReport(): Promise<MemoryReport> {
    const own = await this.ownMemoryReport();
    if (!this.engineThreads) return own;
    return combineMemoryReports([own, ...(await this.engineThreads.callEach<MemoryReport>('memoryReport', []))]);
  }

  /** What this thread's own engine holds (with engine threads: the catalogue, the DA store, the address index). */
  private async ownMemoryReport(): Promise<MemoryReport> {
    // Whole layers read by window only once read (walking one not read would read it); the windowed files of
    // the states held whole (memoryStates) count too.
    const base = new Set<LoadedFile>(this.store.files);
    const nonEmpty = (f: LoadedFile) => (f.kind === 'vector' ? f.features.length > 0 : f.kind === 'records' && f.rows.length > 0);
    const held = this.whole ? this.whole.held.store.files.filter((f) => !base.has(f) && nonEmpty(f)) : [];
    const files = [...this.store.files.filter((f) => layerRead(f)), ...held];
    const report = await this.memory.report({
      files,
      held: (f) => layerRead(f as LoadedFile),
      models: this.models.built(),
      addressIndex: this.addressIndex,
      daIndexBytes: this.daStore?.memoryBytes() ?? null,
      caches: { layers: this.deps.layerCache, scores: this.deps.scoreCache, ...this.windowCaches() },
    });
    return { ...report, budget: this.models.budget() };
  }

  /** With the layers read by window: the window cache and the shared parsed items, for the memory report. */
  private windowCaches(): Record<string, { size: number; bytes: number }> {
    if (!this.windows) return {};
    const w = this.windows.cacheStats();
    // Windows count their JSON times the factor they are bounded by; the shared items their JSON.
    return { windows: { size: w.windows, bytes: w.bytes }, window_items: { size: w.items.items, bytes: w.items.bytes } };
  }

  /**
   * Gets ready for traffic: builds every index and model ({@link buildIndexes}) and computes the HAND tiles of
   * every held state's flood DEMs that are not on disk yet, telling `progress` what it did as it goes.
   * Lookups are answered meanwhile (a lookup whose tile is being computed waits for that computation).
   */
  async warm(progress: (line: string) => void = () => {}): Promise<void> {
    this.assertOpen();
    if (this.engineThreads) {
      // One thread computes the HAND tiles (they go to disk, where the others find them), then every thread
      // builds its own indexes and models.
      for (const line of await this.engineThreads.call<string[]>('warm', [], { timeoutMs: WARM_TIMEOUT_MS })) progress(line);
      const t0 = performance.now();
      await this.engineThreads.callEach('buildIndexes', []);
      progress(`every engine thread's indexes and models built in ${Math.round(performance.now() - t0)} ms (${this.engineThreads.threads} threads)`);
      return;
    }
    // Every pool worker started now, not by the first lookup whose tasks overlap.
    const w0 = performance.now();
    await this.pool.startWorkers?.();
    progress(`pool workers started in ${Math.round(performance.now() - w0)} ms`);
    const t0 = performance.now();
    const ms = await this.buildIndexes();
    progress(`indexes and models built in ${Math.round(performance.now() - t0)} ms (${Object.entries(ms).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')})`);
    if (!this.handTiles) return;
    const tiles = this.handTiles;
    for (const state of STATES) {
      const { dems, burn } = floodHandInputs(this.store, state);
      for (const dem of dems) {
        const t1 = performance.now();
        const before = tiles.computed;
        let total = 0;
        await tiles.precompute(dem, burn, (_done, n) => (total = n));
        progress(`${state}: HAND tiles of ${basename(dem)}: ${total} ready (${tiles.computed - before} computed) in ${Math.round(performance.now() - t1)} ms`);
      }
    }
  }

  /**
   * Childcare market intelligence over this engine's DA store (engine/childcare/service/engine-childcare.ts):
   * `analysis` is the `data` object of `/api/v1/childcare/analysis` and, with a catchment, of `/site-analysis`
   * (the HTTP layer checks a polygon's rules and the key's states first); `report` renders a site's PDF or HTML.
   */
  get childcare(): {
    analysis(scope: ChildcareScope): Record<string, unknown>;
    siteAnalysis(req: SiteRequest): Record<string, unknown>;
    report(req: SiteRequest, format: ReportFormat, options?: ReportOptions): Promise<ReportFile>;
  } {
    const c = this.childcareService;
    return {
      analysis: (scope) => c.analysis(scope),
      siteAnalysis: (req) => c.siteAnalysis(req),
      report: (req, format, options) => {
        this.assertOpen();
        return c.report(req, format, options);
      },
    };
  }

  /** Bound, so the engine itself serves as a site analysis's `ChildcareWorld`. */
  readonly notices = (ids: readonly string[]): SourceNotice[] => this.childcareService.sourceNotices(ids);

  /** The suburb census section of a site analysis (EngineChildcare.suburbContext). */
  suburbContext(state: StateCode, suburb: string | null, lng: number, lat: number): Record<string, unknown> {
    return this.childcareService.suburbContext(state, suburb, lng, lat);
  }

  /** The attribution and licence of DA data sources as the catalogue states them (EngineChildcare.sourceNotices). */
  sourceNotices(ids: readonly string[]): SourceNotice[] {
    return this.childcareService.sourceNotices(ids);
  }

  /** The open-school points of a state, or null when the dataset holds none for it (EngineChildcare.openSchools). */
  openSchools(state: StateCode): OpenSchool[] | null {
    return this.childcareService.openSchools(state);
  }

  /** The state or territory containing (lon, lat) by its LGA, or null. */
  stateAt(lon: number, lat: number): StateCode | null {
    return stateAt(this.storeAt(lon, lat), lon, lat);
  }

  /** The noise network of a state (built once). */
  noiseNetwork(state: StateCode): Promise<NoiseNetwork | null> {
    return this.models.noiseNetwork(state);
  }

  private resolveState(lon: number, lat: number, state?: StateCode | null): StateCode | null {
    return state === undefined ? this.stateAt(lon, lat) : state;
  }

  /**
   * The scores of spec 2.6 at a point (engine/runtime/compute-scores.ts): each computed in isolation, a failing one
   * listed in `degraded` and left out of `scores` (never a confident zero).
   */
  async scores(lon: number, lat: number, options: ScoresOptions = {}): Promise<ScoresResult> {
    this.assertOpen();
    if (this.engineThreads) return this.engineThreads.call('scores', [lon, lat, withoutSignal(options)], { signal: options.signal, prefer: this.preferAt(lon, lat) });
    return computeScores(this.computeAt(lon, lat), lon, lat, this.resolveState(lon, lat, options.state), options);
  }

  /** The surfaces of spec 2.7 around a point (engine/runtime/compute-surfaces.ts). */
  async surfaces(lon: number, lat: number, options: SurfacesOptions = {}): Promise<SurfacesResult> {
    this.assertOpen();
    if (this.engineThreads) return this.engineThreads.call('surfaces', [lon, lat, withoutSignal(options)], { signal: options.signal, prefer: this.preferAt(lon, lat) });
    return computeSurfaces(this.computeAt(lon, lat), lon, lat, () => this.resolveState(lon, lat, options.state), options);
  }

  /**
   * The property payload for an address or a point (spec sections 1-3): see engine/property/kit/contract.ts.
   */
  async property(subject: PropertySubject, options: PropertyOptions = {}): Promise<PropertyResult> {
    this.assertOpen();
    if (this.engineThreads) return this.engineThreads.call('property', [subject, withoutSignal(options)], { signal: options.signal, prefer: this.preferFor(subject) });
    await this.lookupSlots.acquire();
    try {
      // The states this lookup uses are not dropped under the model budget while it runs.
      return await this.models.during(() => propertyLookup(this.deps, subject, options));
    } finally {
      this.lookupSlots.release();
    }
  }

  /**
   * See {@link PropertyService.propertyBody}: the lookup serialised where it ran (an engine thread), so the
   * caller receives bytes ready to send instead of a payload to copy and serialise again.
   */
  async propertyBody(subject: PropertySubject, options: PropertyOptions = {}, metaExtra: Record<string, unknown> = {}): Promise<PropertyBody> {
    this.assertOpen();
    if (this.engineThreads) {
      const b = await this.engineThreads.call<PropertyBody>('propertyBody', [subject, withoutSignal(options), metaExtra], { signal: options.signal, prefer: this.preferFor(subject) });
      // Buffers arrive as plain Uint8Arrays.
      const buf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
      return { ...b, body: { ...b.body, prefix: buf(b.body.prefix), gzPrefix: buf(b.body.gzPrefix) } };
    }
    const now = options.now ?? new Date();
    return propertyBodyOf(await this.property(subject, { ...options, now }), now.getTime(), metaExtra);
  }

  /**
   * A batch chunk looked up and packed (engine/batch/batch-pack.ts): `input` is its rows packed, `rows` how
   * many. With engine threads, the chunk is cut into parts of about {@link BATCH_PART_ROWS} rows in input
   * order, each looked up (in spatial order) and packed on a thread; the calling thread receives bytes to
   * store and a few fields a row to meter by.
   */
  async batchChunk(input: Uint8Array, rows: number, options: LookupRowsOptions): Promise<PackedResults> {
    this.assertOpen();
    const threads = this.engineThreads;
    if (!threads) return lookupPacked(this, input, options);
    const { signal, ...rest } = options;
    const n = Math.max(threads.threads, Math.ceil(rows / BATCH_PART_ROWS));
    const size = Math.ceil(rows / n);
    const parts: Promise<PackedResults>[] = [];
    for (let from = 0; from < rows; from += size) parts.push(threads.call<PackedResults>('batchPart', [input, { ...rest, concurrency: 2, from, to: Math.min(rows, from + size) }], { signal }));
    return joinPacked(await Promise.all(parts));
  }

  /**
   * An uploaded file read into packed chunks of `chunkRows` rows (engine/batch/batch-pack.ts `readUpload`),
   * on an engine thread when there are (the bytes are moved there, not copied).
   */
  async batchUpload(bytes: Uint8Array, input: BatchInputOptions, chunkRows: number): Promise<ReadUpload> {
    this.assertOpen();
    if (!this.engineThreads) return readUploadYielding(bytes, input, chunkRows);
    const whole = bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength;
    return this.engineThreads.call<ReadUpload>('batchUpload', [bytes, input, chunkRows], { ...(whole ? { transfer: [bytes.buffer as ArrayBuffer] } : {}), timeoutMs: UPLOAD_TIMEOUT_MS });
  }

  /**
   * The records of a stored chunk of batch results in an output file (`packedRowsText`), as UTF-8 bytes, on an
   * engine thread when there are.
   */
  async batchText(packed: Uint8Array, chargedRows: readonly number[] | null, output: BatchOutputOptions, first: boolean, payloads: readonly (readonly [string, Uint8Array])[] = []): Promise<Uint8Array> {
    this.assertOpen();
    if (!this.engineThreads) return Buffer.from(packedRowsText(packed, chargedRows, output, first, payloads));
    return this.engineThreads.call<Uint8Array>('batchText', [packed, chargedRows, output, first, payloads]);
  }

  /** See {@link PropertyService.identify}: what a lookup of `subject` would be billed as, without running it. */
  async identify(subject: PropertySubject): Promise<BillingIdentity> {
    this.assertOpen();
    if (this.engineThreads) return this.engineThreads.call('identify', [subject], { prefer: this.preferFor(subject) });
    return propertyIdentity(this.deps, subject);
  }

  /** See {@link PropertyService.dataRevision}: the DA store's revision (0 until it is opened). */
  dataRevision(): number {
    return this.daStore?.revision ?? 0;
  }

  /** The lon/lat box of the dataset's local government areas (TileJSON `bounds`). */
  tileBounds(): [number, number, number, number] {
    return this.tiles.tileBounds();
  }

  /** The attribution of a tile layer's sources (HTML-escaped: map clients show it as HTML). */
  tileAttribution(layer: string): string {
    return this.tiles.tileAttribution(layer);
  }

  /** The vector tile layers this engine serves (TileJSON `vector_layers`); see {@link EngineTiles.tileLayers}. */
  tileLayers(): TileLayerSpec[] {
    return this.tiles.tileLayers();
  }

  /** The Mapbox Vector Tile of `layer` at z/x/y; see {@link EngineTiles.tile}. */
  tile(layer: string, z: number, x: number, y: number): Promise<{ bytes: Uint8Array | null; sources: string[] }> {
    this.assertOpen();
    if (this.engineThreads) return this.engineThreads.call('tile', [layer, z, x, y], { prefer: this.preferAt(...tileCentre(z, x, y)) });
    return this.tiles.tile(layer, z, x, y);
  }

  /** The terrain tiles' layer (TileJSON, with `encoding`), or null when the dataset holds no DEM. */
  terrainLayer(): typeof TERRAIN_LAYER | null {
    return this.tiles.terrainLayer();
  }

  /** A terrain tile as a Terrarium PNG; see {@link EngineTiles.terrainTile}. */
  terrainTile(z: number, x: number, y: number): Promise<{ bytes: Uint8Array; sources: string[] }> {
    this.assertOpen();
    if (this.engineThreads) return this.engineThreads.call('terrainTile', [z, x, y], { prefer: this.preferAt(...tileCentre(z, x, y)) });
    return this.tiles.terrainTile(z, x, y);
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

  /** The states each engine thread holds whole (empty without `compute: 'threads'` or with a layer file of the caller's). */
  async threadStates(): Promise<string[][]> {
    return this.engineThreads ? this.engineThreads.callEach('heldStates', []) : [];
  }

  /** Each engine thread's V8 heap, bytes (empty without `compute: 'threads'`). */
  async threadHeaps(): Promise<{ used: number; total: number; external: number; arrayBuffers: number; mallocced: number }[]> {
    return this.engineThreads ? this.engineThreads.callEach('heap', []) : [];
  }

  /** The engine thread a call at (lon, lat) would rather run on (engine/threads/affinity.ts). */
  private preferAt(lon: number, lat: number): number | undefined {
    return threadOfState(stateOfPoint(this.stateBoxes, lon, lat), this.engineThreads?.threads ?? 1);
  }

  /** The engine thread a lookup of `subject` would rather run on: its point's state, or its text's. */
  private preferFor(subject: PropertySubject): number | undefined {
    const s = subject as { address?: unknown; lat?: unknown; lng?: unknown };
    if (typeof s.address === 'string') return threadOfState(stateOfAddressText(s.address), this.engineThreads?.threads ?? 1);
    const lon = Number(s.lng), lat = Number(s.lat);
    return Number.isFinite(lon) && Number.isFinite(lat) ? this.preferAt(lon, lat) : undefined;
  }

  /** The engine threads' counts (null without `compute: 'threads'`): for /metrics and the benchmarks. */
  threadStats(): { threads: number; queued: number; perThread: ThreadStats[] } | null {
    const t = this.engineThreads;
    return t ? { threads: t.threads, queued: t.queued, perThread: t.stats() } : null;
  }

  /**
   * Stops the workers (engine threads: after the calls in flight finish, up to `graceMs`, default 10 s) and
   * closes open files.
   */
  async close(graceMs?: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.engineThreads?.close(graceMs);
    await this.pool.destroy();
    this.handTiles?.close();
    await this.rasters.close();
    this.daStore?.close();
    this.addressIndex?.close();
    this.windows?.close();
    this.cacheDb?.close();
    if (this.ownDaFile) for (const f of [this.ownDaFile, `${this.ownDaFile}-wal`, `${this.ownDaFile}-shm`]) rmSync(f, { force: true });
  }
}

/** The address records of address tables, one table at a time (a layer file's are read as they are reached). */
function* addressRecordsOf(tables: Iterable<{ source: CatalogueSource; rows: Record<string, unknown>[] }>): Generator<AddressRecord> {
  for (const t of tables) yield* addressRecordsFromRows(t.rows, t.source.id);
}

/** Window reads of states not held after which an engine thread looks whether one state had most of them. */
const ADOPT_AFTER = 400;

/** How long reading an upload may take on an engine thread (a million rows take seconds), ms. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/** Rows of a batch chunk an engine thread looks up in one call (a chunk of 1,000 is eight calls over the threads). */
const BATCH_PART_ROWS = 125;

/** How long warming one engine thread may take (the HAND tiles of every state's DEMs), ms. */
const WARM_TIMEOUT_MS = 30 * 60_000;

/** Decoded raster blocks an engine thread keeps of its own (reads that are not single-band take this path). */
const THREAD_OWN_BLOCK_BYTES = 4 * 1024 * 1024;

/** The window cache of the thread that owns engine threads (it reads windows only for a state lookup or a map's layers). */
const MAIN_WINDOW_CACHE_BYTES = 8 * 1024 * 1024;

/** The default in-memory caches' bytes: layer lookups and scores (and surfaces). */
const DEFAULT_LAYER_CACHE_BYTES = 128 * 1024 * 1024;
const DEFAULT_SCORE_CACHE_BYTES = 64 * 1024 * 1024;

/** The lon/lat centre of web-mercator tile z/x/y. */
function tileCentre(z: number, x: number, y: number): [number, number] {
  const n = 2 ** z;
  const lon = ((x + 0.5) / n) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + 0.5)) / n))) * 180) / Math.PI;
  return [lon, lat];
}

/** `options` without its AbortSignal (it cannot cross to a thread; the thread makes its own). */
function withoutSignal<T extends { signal?: AbortSignal }>(options: T): Omit<T, 'signal'> {
  const { signal: _, ...rest } = options;
  return rest;
}

/** The address index file beside a layer file. */
function addressFileOf(layerFile: string): string {
  return `${layerFile.replace(/\.sqlite$/, '')}.addresses.sqlite`;
}

/**
 * The layer file of a dataset directory read by engine threads when none is named: under the OS temporary
 * directory, named by the directory's path (the file itself carries the dataset's fingerprint and is written
 * again when the data changes).
 */
export function defaultLayerFile(datasets: string): string {
  const id = createHash('sha256').update(resolve(datasets)).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'propintel', 'layer-files');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${basename(resolve(datasets)).replace(/[^A-Za-z0-9_-]/g, '_')}-${id}.sqlite`);
}

/** A scratch DA store file for engine threads to share when the caller named none (deleted at close). */
function scratchDaFile(): string {
  const dir = join(tmpdir(), 'propintel');
  mkdirSync(dir, { recursive: true });
  return join(dir, `das-${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.sqlite`);
}

/** The memory reports of several engines (a thread's own and its engine threads') as one: bytes added up. */
function combineMemoryReports(reports: MemoryReport[]): MemoryReport {
  const models = new Map<string, ModelMemory>();
  const caches = new Map<string, CacheMemory>();
  const held: Record<string, number> = {};
  let budget: MemoryReport['budget'];
  for (const r of reports) {
    for (const m of r.models) {
      const k = `${m.state}|${m.model}`;
      const prev = models.get(k);
      models.set(k, prev ? { ...prev, bytes: prev.bytes + m.bytes } : { ...m });
    }
    for (const c of r.caches) {
      const prev = caches.get(c.cache);
      const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
      caches.set(c.cache, prev ? { ...prev, entries: add(prev.entries, c.entries), bytes: add(prev.bytes, c.bytes) } : { ...c });
    }
    if (r.budget) {
      for (const [st, b] of Object.entries(r.budget.heldBytes)) held[st] = (held[st] ?? 0) + b;
      budget = { budgetBytes: budget?.budgetBytes == null && r.budget.budgetBytes == null ? null : (budget?.budgetBytes ?? 0) + (r.budget.budgetBytes ?? 0), heldBytes: held, evictions: (budget?.evictions ?? 0) + r.budget.evictions };
    }
  }
  return { models: [...models.values()], caches: [...caches.values()], ...(budget ? { budget } : {}) };
}

/** Opens a dataset directory and starts the engine; shorthand for {@link Engine.create}. */
export function createEngine(options: EngineOptions): Promise<Engine> {
  return Engine.create(options);
}

export { STATES };
