/**
 * The engine's tiles: the vector layers of the dataset, contours, HAND, noise and terrain, each made on the
 * worker pool or from the layers, cached in memory (64 MB, by the DA store's revision for `das`) and, for the
 * expensive ones, on disk (tile-disk-cache.ts). The engine hands its parts in (the dataset or its windows,
 * the pool, the HAND tiles, the state lookup, the noise models, the DA store) and delegates its tile methods
 * here.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bbox as turfBbox } from '@turf/turf';
import type { CatalogueSource } from '../catalogue/catalogue.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { StateCode } from '../catalogue/states.js';
import { TtlCache } from '../cache/ttl-cache.js';
import type { DaReader } from '../da/da-store.js';
import type { DataStore, RasterRef } from '../data/dataset-store.js';
import type { WindowedData } from '../data/windowed-store.js';
import { EngineError, invalidArgument } from '../errors.js';
import { transformBBox } from '../geo/crs.js';
import { escapeHtml } from '../escape-html.js';
import type { HandTileStore } from '../hydro/hand-tile-store.js';
import type { NoiseNetwork } from '../noise/noise-network.js';
import { contourSourcesFor, floodHandInputs } from '../property/inputs/domain-inputs.js';
import type { TaskRunner } from '../pool/worker-pool.js';
import type { NoiseGridInput, NoiseGridOutput } from '../noise/noise-grid-task.js';
import { collectFields, mergeFields, type FieldType } from '../vector/feature-fields.js';
import { CONTOUR_LAYER, type ContourTile, type ContourTileInput } from './contour-tiles.js';
import { HAND_LAYER, handTileFeatures, handTileLattice } from './hand-map-tiles.js';
import { NOISE_LAYER, noiseTileFeatures } from './noise-tiles.js';
import { TERRAIN_FILL_REACH_M } from './terrain-fill.js';
import { emptyTerrainTile, TERRAIN_LAYER, type TerrainTileInput } from './terrain-tiles.js';
import { DISK_CACHED_LAYERS, TileDiskCache, tileFingerprint } from './tile-disk-cache.js';
import { isTile, tileBounds } from './tile-math.js';
import { encodeTile, tileReadBox, vectorTile, vectorTileLayers, type TileLayerSpec } from './vector-tiles.js';

/** The pool's tasks the tiles run. */
export type TilePool = TaskRunner<{ 'contour-tile': [ContourTileInput, ContourTile]; 'terrain-tile': [TerrainTileInput, Uint8Array]; 'noise-grid': [NoiseGridInput, NoiseGridOutput] }>;

/** What the tiles need of the engine. */
export interface EngineTilesDeps {
  store: DataStore;
  windows?: WindowedData;
  pool: TilePool;
  handTiles?: HandTileStore;
  /** Where expensive tiles are kept on disk (default under the OS temporary directory), or false for none. */
  tileCache?: string | false;
  stateAt(lon: number, lat: number): StateCode | null;
  storeAt(lon: number, lat: number): DataStore;
  noiseNetwork(state: StateCode): Promise<NoiseNetwork | null>;
  das(): DaReader;
  dataRevision(): number;
}

/** The engine's tiles (see the module comment). */
export class EngineTiles {
  private readonly store: DataStore;
  private readonly windows?: WindowedData;
  private readonly pool: TilePool;
  private readonly handTiles?: HandTileStore;

  constructor(private readonly d: EngineTilesDeps) {
    this.store = d.store;
    this.windows = d.windows;
    this.pool = d.pool;
    this.handTiles = d.handTiles;
  }

  private tileCache?: TtlCache;

  private bounds?: [number, number, number, number];

  /** The lon/lat box of the dataset's local government areas (TileJSON `bounds`). */
  tileBounds(): [number, number, number, number] {
    if (!this.bounds) {
      let b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const layer of this.store.vectorsFor('administrative.lga', null)) {
        // A layer read from the layer file on first use knows its extent (the same box) without being read.
        if (layer.extent) {
          const [x0, y0, x1, y1] = layer.extent;
          if (x0 <= x1) b = [Math.min(b[0], x0), Math.min(b[1], y0), Math.max(b[2], x1), Math.max(b[3], y1)];
          continue;
        }
        for (const f of layer.features) {
          const [x0, y0, x1, y1] = turfBbox(f);
          b = [Math.min(b[0], x0), Math.min(b[1], y0), Math.max(b[2], x1), Math.max(b[3], y1)];
        }
      }
      this.bounds = Number.isFinite(b[0]) ? (b.map((v) => Math.round(v * 1e5) / 1e5) as [number, number, number, number]) : [-180, -85.0511, 180, 85.0511];
    }
    return this.bounds;
  }

  /** The attribution of a tile layer's sources (HTML-escaped: map clients show it as HTML). */
  tileAttribution(layer: string): string {
    return [...new Set(this.tileLayerSources(layer).map((s) => escapeHtml(`${s.custodian}, ${s.licence}`)))].join('; ');
  }

  private layerSpecs?: TileLayerSpec[];

  /**
   * The vector tile layers this engine serves (TileJSON `vector_layers`): zooms, and every field a layer's
   * tiles can carry, worked out once from the dataset (by window, from the layer file's record of each file).
   */
  tileLayers(): TileLayerSpec[] {
    return (this.layerSpecs ??= [...vectorTileLayers((paths) => this.featureFields(paths)), CONTOUR_LAYER, NOISE_LAYER, ...(this.handTiles ? [HAND_LAYER] : [])]);
  }

  /** Every scalar property the features of `paths` carry, over the sources whose geometry may be shared. */
  private featureFields(paths: readonly PayloadPath[]): Map<string, Set<FieldType>> {
    const fields = new Map<string, Set<FieldType>>();
    const seen = new Set<unknown>();
    for (const path of paths) {
      for (const layer of this.store.vectorsFor(path, null)) {
        if (seen.has(layer) || !layer.source.geometry_redistribution) continue;
        seen.add(layer);
        for (const f of layer.features) collectFields(fields, f.properties);
      }
    }
    if (this.windows) {
      const feeds = new Set(this.store.catalogue.sources.filter((src) => src.geometry_redistribution && src.paths.some((p) => paths.includes(p))).map((src) => src.id));
      for (const e of this.windows.layers.entries) if (e.kind === 'vector' && e.fields && feeds.has(e.source)) mergeFields(fields, e.fields);
    }
    return fields;
  }

  /**
   * The Mapbox Vector Tile of `layer` at z/x/y (engine/tiles/): its bytes, or null for an empty tile, and the
   * sources drawn (their attribution). Finished tiles are cached (64 MB, by the DA store's revision for `das`).
   * Throws NOT_FOUND for an unknown layer and INVALID_ARGUMENT for a tile outside the grid or the layer's zooms.
   */
  async tile(layer: string, z: number, x: number, y: number): Promise<{ bytes: Uint8Array | null; sources: string[] }> {
    const spec = this.tileLayers().find((l) => l.id === layer);
    if (!spec) throw new EngineError('NOT_FOUND', `no tile layer ${JSON.stringify(layer.slice(0, 40))}; layers: ${this.tileLayers().map((l) => l.id).join(', ')}`, { parameter: 'layer' });
    const t = { z, x, y };
    if (!isTile(t)) throw invalidArgument('tile', `${z}/${x}/${y} is not a tile: z from 0 to 30, x and y from 0 to 2^z - 1`);
    if (z < spec.minzoom) throw invalidArgument('z', `the ${layer} layer starts at zoom ${spec.minzoom}${layer === 'contours' ? ' (a coarser tile would be computed over too much ground)' : ''}; z=${z} is too coarse`);
    if (z > spec.maxzoom) throw invalidArgument('z', `the ${layer} layer goes to zoom ${spec.maxzoom}; z=${z} is beyond it`);
    this.tileCache ??= new TtlCache(20_000, 64 * 1024 * 1024);
    const key = `${layer === 'das' ? `r${this.d.dataRevision()}` : 's'}|${layer}/${z}/${x}/${y}`;
    const hit = this.tileCache.get<{ bytes: Uint8Array | null; sources: string[] }>(key);
    if (hit) return hit.value;
    let out: { bytes: Uint8Array | null; sources: string[] };
    const disk = DISK_CACHED_LAYERS.has(layer) ? this.tileDisk() : null;
    const stored = disk?.get(layer, t);
    if (stored !== undefined) {
      out = { bytes: stored, sources: this.tileLayerSources(layer).map((s) => s.id) };
      this.tileCache.set(key, out, 24 * 3600_000);
      return out;
    }
    if (layer === 'contours') {
      const [w, s, e, n] = tileBounds(t);
      const lon = (w + e) / 2, lat = (s + n) / 2;
      const state = this.d.stateAt(lon, lat);
      const made = await this.pool.run('contour-tile', { tile: t, state, sources: contourSourcesFor(this.d.storeAt(lon, lat), state, lon, lat) });
      out = { bytes: made.bytes, sources: made.source ? [made.source] : [] };
    } else if (layer === 'hand') {
      // From the HAND tiles the flood score reads (the same DEMs and burned watercourses, so the same files).
      const [w, s, e, n] = tileBounds(t);
      const state = this.d.stateAt((w + e) / 2, (s + n) / 2);
      const lattice = handTileLattice(t);
      let values: Float32Array | null = null;
      const used: string[] = [];
      if (state && this.handTiles) {
        const { dems, burn } = floodHandInputs(this.store, state);
        for (const dem of dems) {
          const v = await this.handTiles.values(dem, lattice.lon, lattice.lat, burn);
          if (!v.some(Number.isFinite)) continue;
          if (!values) values = v;
          else for (let i = 0; i < v.length; i++) if (!Number.isFinite(values[i])) values[i] = v[i];
          used.push(dem);
        }
      }
      out = { bytes: values ? encodeTile('hand', handTileFeatures(t, values), t) : null, sources: this.store.catalogue.sources.filter((src) => src.paths.includes('scores.flood.terrain') && src.files.some((f) => used.some((u) => u.endsWith(f.path)))).map((src) => src.id) };
    } else if (layer === 'noise') {
      const [w, s, e, n] = tileBounds(t);
      const state = this.d.stateAt((w + e) / 2, (s + n) / 2);
      const net = state ? await this.d.noiseNetwork(state) : null;
      const features = net ? await noiseTileFeatures(net, this.pool, t) : [];
      out = { bytes: encodeTile('noise', features, t), sources: [] };
    } else {
      // By window, a map tile reads only its own layer's files within the tile.
      const v = vectorTile({ store: this.windows ? this.windows.storeForBox(tileReadBox(t), spec.paths) : this.store, das: () => this.d.das() }, layer, t);
      out = { bytes: v.bytes, sources: v.sources.map((s) => s.id) };
    }
    this.tileCache.set(key, out, 24 * 3600_000);
    disk?.set(layer, t, out.bytes);
    return out;
  }

  /** The terrain tiles' layer (TileJSON, with `encoding`), or null when the dataset holds no DEM. */
  terrainLayer(): typeof TERRAIN_LAYER | null {
    return this.store.catalogue.sources.some((src) => src.paths.includes('scores.flood.terrain')) ? TERRAIN_LAYER : null;
  }

  /**
   * A terrain tile (engine/tiles/terrain-tiles.ts): the DEMs reaching the tile sampled at each pixel's centre on
   * the pool, the gaps filled (terrain-fill.ts), as an opaque Terrarium PNG. Cached as the vector
   * tiles are, on disk too. INVALID_ARGUMENT for a tile outside the grid or the layer's zooms.
   */
  async terrainTile(z: number, x: number, y: number): Promise<{ bytes: Uint8Array; sources: string[] }> {
    const t = { z, x, y };
    if (!isTile(t)) throw invalidArgument('tile', `${z}/${x}/${y} is not a tile: z from 0 to 30, x and y from 0 to 2^z - 1`);
    if (z < TERRAIN_LAYER.minzoom || z > TERRAIN_LAYER.maxzoom) throw invalidArgument('z', `terrain tiles are made from zoom ${TERRAIN_LAYER.minzoom} to ${TERRAIN_LAYER.maxzoom} (clients overzoom past it); z=${z} is outside`);
    this.tileCache ??= new TtlCache(20_000, 64 * 1024 * 1024);
    const key = `s|terrain/${z}/${x}/${y}`;
    const hit = this.tileCache.get<{ bytes: Uint8Array; sources: string[] }>(key);
    if (hit) return hit.value;
    // The DEMs are chosen by extent (plus the fill's reach), not by the state at the tile's centre: a z10 tile
    // is 30 km across and a DEM anywhere in it counts.
    const [w, s, e, n] = tileBounds(t);
    const dy = TERRAIN_FILL_REACH_M / 111_000, dx = dy / Math.cos((((s + n) / 2) * Math.PI) / 180);
    const rasters = this.store.rastersFor('scores.flood.terrain').filter((r) => {
      const b = this.lonLatBox(r);
      return b[0] <= e + dx && b[2] >= w - dx && b[1] <= n + dy && b[3] >= s - dy;
    });
    // Every DEM the tile's heights come from, its eased fill included.
    const sources = [...new Set(rasters.map((r) => r.source.id))];
    const disk = this.tileDisk();
    let bytes = disk?.get('terrain', t) ?? null;
    if (!bytes) {
      bytes = rasters.length ? await this.pool.run('terrain-tile', { tile: t, dems: rasters.map((r) => r.path) }) : emptyTerrainTile();
      disk?.set('terrain', t, bytes);
    }
    const out = { bytes, sources };
    this.tileCache.set(key, out, 24 * 3600_000);
    return out;
  }

  private readonly lonLatBoxes = new Map<string, [number, number, number, number]>();

  /** A raster's extent in lon/lat (its edges densified), computed once. */
  private lonLatBox(r: RasterRef): [number, number, number, number] {
    let b = this.lonLatBoxes.get(r.path);
    if (!b) this.lonLatBoxes.set(r.path, (b = transformBBox(r.info.bbox, r.info.crs, 'EPSG:4326')));
    return b;
  }

  private tileDiskCache?: TileDiskCache | null;

  /** The disk cache of expensive tiles (made on first use: the fingerprint stats every dataset file once). */
  private tileDisk(): TileDiskCache | null {
    if (this.tileDiskCache === undefined) {
      const dir = this.d.tileCache === false ? null : (this.d.tileCache ?? join(tmpdir(), 'propintel', 'tile-cache'));
      this.tileDiskCache = dir ? new TileDiskCache(dir, tileFingerprint(this.store.catalogue)) : null;
    }
    return this.tileDiskCache;
  }

  /** Ids of the sources feeding a tile layer's paths (the terrain layer's included). */
  private tileLayerSources(layer: string): CatalogueSource[] {
    const spec = layer === TERRAIN_LAYER.id ? TERRAIN_LAYER : this.tileLayers().find((l) => l.id === layer);
    return spec ? this.store.catalogue.sources.filter((s) => s.paths.some((p) => (spec.paths as readonly string[]).includes(p))) : [];
  }
}
