/**
 * A dataset read per window from its layer file (issue 26): the engine opens the catalogue, the layers the
 * policy holds whole (layer-policy.ts: small national and state-wide layers) and the raster headers, and
 * nothing else. A lookup at a point asks for the window of its cell: a `DataStore` holding, for each file the
 * policy reads by window, the features and records within that file's reach of the cell, in their original
 * order, indexed as the in-memory store indexes them, beside the whole layers (the same objects). Every
 * lookup function runs unchanged on it, so a window answers exactly as the whole dataset does.
 *
 * A window is the point's own: each file's items within that file's reach of the point (so a lookup reads a
 * few dozen parcels, not a square kilometre of them). Windows are cached by point in a least-recently-used
 * cache bounded by bytes (the encoded items read, times a factor for the objects and indexes built from them), and the
 * parsed items in another (layer-file.ts), shared by the windows that overlap.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Feature, Geometry } from 'geojson';
import type { Catalogue, CatalogueSource, SourceFile } from '../catalogue/catalogue.js';
import { loadCatalogue } from '../catalogue/load-catalogue.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import { EngineError } from '../errors.js';
import { growByMetres } from '../vector/metric-search.js';
import { datasetFingerprint } from '../catalogue/fingerprint.js';
import { coordinateColumns, DataStore, loadedFileOf, readSourceFile, type FileContent, type LoadedFile } from './dataset-store.js';
import { isLazyLayer, layerRead, lazyLayer, unloadLayer } from './lazy-layer.js';
import { geometryBox, LayerFile, layerFileFingerprint, layerFileRasterCrs, REACH_CLASSES, writeLayerFile } from './layer-file.js';
import { filePolicy, STORED_PATHS, WINDOW_REACH_M } from './layer-policy.js';

/**
 * The fingerprint a current layer file of `catalogue` carries: the dataset's files and the layer policy (a
 * change to either has the file written again).
 */
export function layerFingerprint(catalogue: Catalogue): string {
  return `${datasetFingerprint(catalogue)}:${policyStamp()}`;
}

/** A short hash of the layer policy and the reach classes (part of the layer file's fingerprint). */
function policyStamp(): string {
  return createHash('sha256').update(JSON.stringify({ WINDOW_REACH_M, STORED_PATHS, REACH_CLASSES })).digest('hex').slice(0, 12);
}

/** Options for {@link WindowedData.open}. */
export interface WindowedDataOptions {
  /** The layer file: written from the dataset when absent or written for other data. */
  file: string;
  /** Bytes of windows kept (estimated: encoded items read x {@link OBJECT_FACTOR}); default 64 MB. */
  cacheBytes?: number;
  /** Bytes of items (encoded) kept decoded across windows (layer-file.ts); default 32 MB. */
  itemCacheBytes?: number;
  /** Told what the conversion does, file by file. */
  onProgress?: (line: string) => void;
}

/**
 * Windows are keyed by their point rounded to this many decimal places (about 0.1 m): the lookup of one
 * address asks for its window several times (the subject, the blocks, the scores) and gets one window.
 */
const KEY_DECIMALS = 6;
/**
 * Objects and indexes built from a window's items, per encoded byte: 3 per byte of JSON (measured: see
 * bench/suites/scale.ts), and the MessagePack items are about 0.78 of their JSON (parcels, the bulk of a window).
 */
const OBJECT_FACTOR = 4;

/** The state a file belongs to: its own, its source's when that covers one state, else `national`. */
export function stateOfFile(source: CatalogueSource, file: SourceFile): string {
  if (file.state) return file.state;
  const states = Object.keys(source.coverage);
  return states.length === 1 ? states[0] : 'national';
}

/** A store of some states' windowed files held whole ({@link WindowedData.wholeStore}). */
export interface WholeStore {
  store: DataStore;
  /**
   * True when a windowed file it holds empty (another state's) may have an item within the reach of a window
   * around `box` (lon/lat): a lookup there must read its window instead.
   */
  reaches(box: readonly [number, number, number, number]): boolean;
}

/** One slot per catalogue file, in catalogue order. */
type Slot = { source: CatalogueSource; file: SourceFile; loaded: LoadedFile } | { source: CatalogueSource; file: SourceFile; id: number; kind: 'vector' | 'records'; columns: string[]; warnings?: string[] };

/** A window: its store and its estimated bytes. */
interface Window {
  store: DataStore;
  bytes: number;
}

/** What the window cache holds. */
export interface WindowCacheStats {
  windows: number;
  bytes: number;
  maxBytes: number;
  built: number;
  hits: number;
  /** The parsed items shared by windows. */
  items: { items: number; bytes: number; hits: number; misses: number };
}

/** See the module comment. */
export class WindowedData {
  private readonly cache = new Map<string, Window>();
  private cachedBytes = 0;
  private built = 0;
  private hits = 0;
  private readonly maxBytes: number;

  private constructor(
    /** The catalogue with the whole layers and rasters (no windowed file). */
    readonly base: DataStore,
    private readonly slots: Slot[],
    readonly layers: LayerFile,
    /** Milliseconds to open, and to convert when the layer file was written. */
    readonly openMs: number,
    readonly convertMs: number | null,
    options: WindowedDataOptions,
  ) {
    this.maxBytes = options.cacheBytes ?? 64 * 1024 * 1024;
    this.positions = DataStore.pathPositions(slots.map((s) => s.source));
  }

  /**
   * Opens a dataset directory with its layer file (writing the file first when it is absent or stale: every
   * windowed file is read once with its format's reader, one file at a time).
   */
  static async open(dir: string, options: WindowedDataOptions): Promise<WindowedData> {
    const t0 = performance.now();
    // The declared CRSs are checked against the raster headers the layer file keeps, when it is current; if
    // the dataset changed since it was written, against the files themselves before it is written again.
    const known = layerFileRasterCrs(options.file);
    // A problem found against the kept headers is checked again against the files (the headers may be of data
    // since changed, or of another dataset's file), so only the files' own problems are reported.
    let catalogue = known ? await loadCatalogue(dir, { rasterCrs: (path) => known.get(path) }).catch(() => loadCatalogue(dir)) : await loadCatalogue(dir);
    const t1 = performance.now();
    let fingerprint = layerFingerprint(catalogue);
    const held = layerFileFingerprint(options.file);
    if (known && held !== fingerprint) {
      catalogue = await loadCatalogue(dir);
      fingerprint = layerFingerprint(catalogue);
    }
    const t2 = performance.now();
    const jobs = catalogue.sources.flatMap((source) => source.files.map((file) => ({ source, file, policy: filePolicy(source, file) })));
    let convertMs: number | null = null;
    if (held !== fingerprint) {
      const c0 = performance.now();
      await writeLayerFile(options.file, fingerprint, async (w) => {
        for (const [id, { source, file, policy }] of jobs.entries()) {
          if (policy.mode === 'named') continue;
          const content = await readSourceFile(catalogue.dir, source, file);
          if (content.kind === 'raster') {
            w.addRaster({ id, source: source.id, path: file.path, info: content.info });
            options.onProgress?.(`  ${file.path}: raster header`);
            continue;
          }
          // Windowed when the policy says so and the items can be placed (a record file needs coordinates);
          // otherwise stored without boxes: read whole, by the address index and the DA store ('stored') or
          // on the first lookup that needs the layer (held whole).
          const cols = content.kind === 'records' ? coordinateColumns(content.columns) : null;
          const reachM = policy.mode === 'window' && (content.kind === 'vector' || cols) ? policy.reachM : null;
          // Every item's box: filed in the R*Tree when windowed, and the file's extent either way.
          if (content.kind === 'vector') {
            w.addItems({ id, source: source.id, path: file.path, kind: 'vector', reachM, warnings: content.warnings }, content.features.map((f) => ({ data: f, box: geometryBox(f.geometry) })));
          } else {
            const box = (r: Record<string, unknown>): [number, number, number, number] | null => {
              if (!cols || r[cols[0]] === '' || r[cols[0]] === null) return null;
              const x = Number(r[cols[0]]), y = Number(r[cols[1]]);
              return Number.isFinite(x) && Number.isFinite(y) ? [x, y, x, y] : null;
            };
            w.addItems({ id, source: source.id, path: file.path, kind: 'records', reachM, columns: content.columns, warnings: content.warnings }, content.rows.map((r) => ({ data: r, box: box(r) })));
          }
          options.onProgress?.(`  ${file.path}: ${reachM !== null ? `by window (reach ${reachM} m)` : policy.mode === 'stored' ? 'stored (read whole by its index)' : 'held whole (read on first use)'}`);
        }
      });
      convertMs = performance.now() - c0;
    }
    const t3 = performance.now();
    const layers = new LayerFile(options.file, { itemCacheBytes: options.itemCacheBytes });
    const t4 = performance.now();
    const entries = new Map(layers.entries.map((e) => [e.id, e]));
    // Rasters come from the headers kept in the file; windowed and stored files are read per window or by
    // their index; whole layers are read from the file on first use (lazy-layer.ts). Nothing else is read.
    let data: WindowedData | undefined;
    const slots: Slot[] = jobs.map(({ source, file, policy }, id): Slot => {
      const e = entries.get(id);
      if (policy.mode === 'named') return { source, file, loaded: loadedFileOf(source, file, { kind: 'vector', features: [] }, true) };
      if (e?.kind === 'raster' && e.raster) return { source, file, loaded: loadedFileOf(source, file, { kind: 'raster', path: join(catalogue.dir, file.path), info: e.raster }, true) };
      if (!e || e.kind === 'raster') throw new EngineError('INVALID_DATA', `${options.file}: the layer file does not hold ${file.path} as expected; delete it to have it written again`, { file: options.file });
      const head = { kind: e.kind, columns: e.columns ?? [], extent: e.extent, ...(e.warnings ? { warnings: e.warnings } : {}) };
      if (policy.mode === 'stored' || e.class !== null) return { source, file, id, kind: head.kind, columns: head.columns, ...(e.warnings ? { warnings: e.warnings } : {}) };
      const content = (): FileContent => (e.kind === 'vector' ? { kind: 'vector', features: layers.allItems(id) as Feature<Geometry>[] } : { kind: 'records', columns: head.columns, rows: layers.allItems(id) as Record<string, unknown>[] });
      return { source, file, loaded: lazyLayer(source, file, head, content, (layer) => data?.onLayerRead?.(layer)) };
    });
    const base = DataStore.fromFiles(catalogue, slots.flatMap((s) => ('loaded' in s ? [s.loaded] : [])), performance.now() - t0);
    const t5 = performance.now();
    data = new WindowedData(base, slots, layers, t5 - t0, convertMs, options);
    data.openParts = { catalogue: t1 - t0, fingerprint: t2 - t1, layer_file: t4 - t3, layers: t5 - t4 };
    return data;
  }

  /**
   * Milliseconds of the open by part: reading the catalogue, fingerprinting the dataset's files (a stat of
   * each), opening the layer file (its file list and raster headers), and making the layers (rasters, stored
   * and windowed files, lazy whole layers). The conversion, when there was one, is `convertMs`.
   */
  openParts: Record<'catalogue' | 'fingerprint' | 'layer_file' | 'layers', number> = { catalogue: 0, fingerprint: 0, layer_file: 0, layers: 0 };

  /**
   * Told when a whole layer is read from the layer file (on its first use, or again after it was dropped):
   * the engine counts it against its state's share of the model budget.
   */
  onLayerRead?: (layer: LoadedFile) => void;

  /**
   * Drops the whole layers of `state` read so far (they are read again on next use), except `keep`'s (layers a
   * national model holds on to: dropping them would only read them twice). Returns how many were dropped.
   */
  unloadState(state: string, keep: (layer: LoadedFile) => boolean = () => false): number {
    let n = 0;
    for (const s of this.slots) if ('loaded' in s && stateOfFile(s.source, s.file) === state && !keep(s.loaded) && unloadLayer(s.loaded)) n++;
    return n;
  }

  /**
   * A store holding whole, in memory, every windowed file of `states` (each file's items read once and
   * indexed as the in-memory store indexes them), beside the whole layers and rasters every window shares;
   * the windowed files of other states (and of no one state) are empty in it, and the stored ones (addresses,
   * DA records) too, as in a window. A lookup at a point answers from it exactly as from the point's window
   * while no file left empty has an item within reach of the point: {@link WholeStore.reaches} says when
   * one might. An engine thread holds its own states so (engine.ts: `memoryStates`).
   */
  wholeStore(states: ReadonlySet<string>, reuse?: WholeStore): WholeStore {
    const foreign: [number, number, number, number][] = [];
    let reachM = 0;
    // Entries by their id (ids need not be positions: a file held by name has no entry).
    const entries = new Map(this.layers.entries.map((e) => [e.id, e]));
    const files = this.slots.map((s, i): LoadedFile => {
      if ('loaded' in s) return s.loaded;
      const e = entries.get(s.id);
      const windowed = e && e.class !== null;
      if (windowed) reachM = Math.max(reachM, REACH_CLASSES[e.class!]);
      if (windowed && states.has(stateOfFile(s.source, s.file))) {
        // A file the store being extended already holds is kept as it is (read once).
        const held = reuse?.store.files[i];
        if (held && held !== this.empty[i]) return held;
        return this.layerOf(s, this.layers.allItems(s.id) as (Feature<Geometry> | Record<string, unknown>)[]);
      }
      if (windowed && e.extent) foreign.push([...e.extent]);
      return (this.empty[i] ??= this.layerOf(s, []));
    });
    const store = DataStore.fromFiles(this.base.catalogue, files, 0, this.positions);
    return {
      store,
      reaches: (box) => {
        const b = growByMetres(box, reachM);
        return foreign.some((f) => f[0] <= b[2] && f[2] >= b[0] && f[1] <= b[3] && f[3] >= b[1]);
      },
    };
  }

  /**
   * Each state's lon/lat box: the union of the extents its files hold in the layer file (no item read).
   * Engine threads route a point's calls by it (engine/threads/affinity.ts).
   */
  stateBoxes(): Map<string, [number, number, number, number]> {
    const out = new Map<string, [number, number, number, number]>();
    for (const e of this.layers.entries) {
      const s = this.slots[e.id];
      if (!s || !e.extent) continue;
      const state = stateOfFile(s.source, s.file);
      if (state === 'national') continue;
      const b = out.get(state);
      out.set(state, b ? [Math.min(b[0], e.extent[0]), Math.min(b[1], e.extent[1]), Math.max(b[2], e.extent[2]), Math.max(b[3], e.extent[3])] : [...e.extent]);
    }
    return out;
  }

  /** The whole layers read from the layer file and held now, and how many could be. */
  wholeLayers(): { read: number; total: number } {
    let read = 0, total = 0;
    for (const s of this.slots) {
      if (!('loaded' in s) || !isLazyLayer(s.loaded)) continue;
      total++;
      if (layerRead(s.loaded)) read++;
    }
    return { read, total };
  }
  /** The catalogue. */
  get catalogue(): Catalogue {
    return this.base.catalogue;
  }

  /**
   * The window of (lon, lat): each file's features within its reach of the point, built on first use and
   * cached. A lookup reads only what can change its answer: for a parcel's covering layers, what lies within
   * 100 m (COVERING_REACH_M) of the point.
   */
  storeAt(lon: number, lat: number): DataStore {
    const key = `${lon.toFixed(KEY_DECIMALS)},${lat.toFixed(KEY_DECIMALS)}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.hits++;
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.store;
    }
    // Built around the rounded point the key names, so every point sharing the key gets the same window.
    const x = Number(lon.toFixed(KEY_DECIMALS)), y = Number(lat.toFixed(KEY_DECIMALS));
    const w = this.build([x, y, x, y]);
    this.cache.set(key, w);
    this.cachedBytes += w.bytes;
    for (const [k, old] of this.cache) {
      if (this.cachedBytes <= this.maxBytes || k === key) break;
      this.cache.delete(k);
      this.cachedBytes -= old.bytes;
    }
    return w.store;
  }

  /**
   * A window over a lon/lat box (a map tile, a report's map), not cached; with `paths`, only the files feeding
   * them are read (the others are empty in it), so a map tile of one layer reads only that layer.
   */
  storeForBox(box: readonly [number, number, number, number], paths?: readonly PayloadPath[]): DataStore {
    const want = paths ? new Set(this.slots.flatMap((s) => ('id' in s && s.source.paths.some((p) => paths.includes(p)) ? [s.id] : []))) : undefined;
    return this.build(box, want).store;
  }

  /**
   * The record files feeding `path` stored in the layer file, each with a fingerprint of its content as the
   * file holds it (the dataset's fingerprint the layer file was written from, and the file's path) and its rows
   * read only when asked for: the DA store compares fingerprints on every start and reads a file's rows only
   * when they changed. Files held whole (no layer-file rows) come with their rows and no fingerprint.
   */
  recordTables(path: PayloadPath): { source: CatalogueSource; file: SourceFile; fingerprint?: string; readonly rows: Record<string, unknown>[] }[] {
    const out: { source: CatalogueSource; file: SourceFile; fingerprint?: string; readonly rows: Record<string, unknown>[] }[] = [];
    for (const s of this.slots) {
      if (!s.source.paths.includes(path)) continue;
      if ('loaded' in s) {
        if (s.loaded.kind === 'records') out.push({ source: s.source, file: s.file, rows: s.loaded.rows });
      } else if (s.kind === 'records') {
        const layers = this.layers;
        const id = s.id;
        const fingerprint = createHash('sha256').update(`${layers.fingerprint}:${s.source.id}:${s.file.path}`).digest('hex').slice(0, 32);
        out.push({ source: s.source, file: s.file, fingerprint, get rows() { return layers.allItems(id) as Record<string, unknown>[]; } });
      }
    }
    return out;
  }

  /**
   * The rows of the record files feeding `path`, one file at a time (each read from the layer file only when
   * reached): the address index is written from them without holding every address at once.
   */
  *eachRows(path: PayloadPath): Generator<{ source: CatalogueSource; file: SourceFile; rows: Record<string, unknown>[] }> {
    for (const t of this.recordTables(path)) yield { source: t.source, file: t.file, rows: t.rows };
  }

  /** The window cache's state. */
  cacheStats(): WindowCacheStats {
    return { windows: this.cache.size, bytes: this.cachedBytes, maxBytes: this.maxBytes, built: this.built, hits: this.hits, items: this.layers.itemCache() };
  }

  private build(box: readonly [number, number, number, number], want?: ReadonlySet<number>): Window {
    this.built++;
    const items = new Map<number, (Feature<Geometry> | Record<string, unknown>)[]>();
    let bytes = 0;
    for (const k of this.layers.classes()) {
      const w = this.layers.window(k, growByMetres(box, REACH_CLASSES[k]), want);
      bytes += w.bytes;
      for (const [file, list] of w.byFile) items.set(file, list);
    }
    const files = this.slots.map((s, i): LoadedFile => {
      if ('loaded' in s) return s.loaded;
      const list = items.get(s.id);
      // A file with nothing in the window is the same empty layer in every window (made once).
      if (!list) return (this.empty[i] ??= this.layerOf(s, []));
      return this.layerOf(s, list);
    });
    return { store: DataStore.fromFiles(this.base.catalogue, files, 0, this.positions), bytes: bytes * OBJECT_FACTOR };
  }

  /** Positions of each path's files in a window's file list (one layout for every window). */
  private readonly positions: ReadonlyMap<PayloadPath, readonly number[]>;

  /** Empty layers of the windowed files, by slot. */
  private readonly empty: LoadedFile[] = [];

  /** A windowed file's layer over `list` (its items in the window). */
  private layerOf(s: Extract<Slot, { id: number }>, list: (Feature<Geometry> | Record<string, unknown>)[]): LoadedFile {
    return s.kind === 'vector'
        ? loadedFileOf(s.source, s.file, { kind: 'vector', features: list as Feature<Geometry>[], ...(s.warnings ? { warnings: s.warnings } : {}) }, false)
        : loadedFileOf(s.source, s.file, { kind: 'records', columns: s.columns, rows: list as Record<string, unknown>[], ...(s.warnings ? { warnings: s.warnings } : {}) }, false);
  }

  close(): void {
    this.layers.close();
  }
}

/** Opens a dataset by window; shorthand for {@link WindowedData.open}. */
export function openWindowedData(dir: string, options: WindowedDataOptions): Promise<WindowedData> {
  return WindowedData.open(dir, options);
}
