/**
 * Mapbox Vector Tiles (MVT 2.1, the format of tiled vector services such as state planning and contour
 * services) decoded with @mapbox/vector-tile + pbf into lon/lat GeoJSON features, so a tiled layer joins the
 * same indexes as a GeoJSON one.
 *
 * A tile's coordinates are integers on a grid of `extent` units (usually 4096) over the Web Mercator tile
 * z/x/y; `VectorTileFeature.toGeoJSON(x, y, z)` maps them to lon/lat. The tile address comes from the caller
 * or from the conventional `.../z/x/y.mvt` (or `.pbf`) path. Every decoded geometry is validated like a
 * GeoJSON feature, so a tile loads whole or fails with `INVALID_DATA` naming the file, layer and feature.
 *
 * Tiled services cut features at tile edges (with a small buffer): a polygon spanning two tiles arrives as
 * two parts, one per tile. {@link readVectorTileLayer} keeps those parts as separate features, each carrying
 * its tile in `properties.__tile`; point-in-polygon and distance queries over the parts give the same answers
 * as over the whole polygon, which is what the engine's indexes need.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import type { Feature, Geometry } from 'geojson';
import { PbfReader } from 'pbf';
import { EngineError, invalidArgument, invalidData } from '../errors.js';
import { emptyBBox, extendBBox } from '../geo/bbox.js';
import { forEachPosition, validateGeometry } from './geometry-validate.js';
import type { GeoJsonLayer } from './geojson-reader.js';

/** A Web Mercator tile address. */
export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** One decoded tile: its layers' features in lon/lat, by layer name. */
export interface DecodedTile {
  tile: TileAddress;
  layers: Record<string, Feature<Geometry>[]>;
}

/** Options for decoding tiles. */
export interface MvtReadOptions {
  /** Decode only these layers (default: every layer in the tile). */
  layers?: readonly string[];
}

/** Highest zoom accepted: tile indexes must stay exact integers in lon/lat arithmetic. */
const MAX_ZOOM = 24;

/** Throws `INVALID_ARGUMENT` unless z/x/y is a real tile (0 <= x, y < 2^z). */
export function checkTileAddress(t: TileAddress, file = 'tile'): void {
  const ok = Number.isInteger(t.z) && t.z >= 0 && t.z <= MAX_ZOOM && Number.isInteger(t.x) && Number.isInteger(t.y) && t.x >= 0 && t.y >= 0 && t.x < 2 ** t.z && t.y < 2 ** t.z;
  if (!ok) throw invalidArgument('tile', `${file}: ${t.z}/${t.x}/${t.y} is not a tile address (0 <= x, y < 2^z, z <= ${MAX_ZOOM})`);
}

/** The tile address of a `.../z/x/y.mvt` or `.pbf` path, or null when the path does not end that way. */
export function tileAddressOfPath(path: string): TileAddress | null {
  const m = /(?:^|[/\\])(\d+)[/\\](\d+)[/\\](\d+)\.(?:mvt|pbf)$/.exec(path);
  return m ? { z: Number(m[1]), x: Number(m[2]), y: Number(m[3]) } : null;
}

/** Decodes MVT bytes for tile `tile` into lon/lat features per layer. */
export function parseVectorTile(bytes: Uint8Array, tile: TileAddress, file: string, options: MvtReadOptions = {}): DecodedTile {
  checkTileAddress(tile, file);
  let vt: VectorTile;
  try {
    vt = new VectorTile(new PbfReader(bytes));
  } catch (err) {
    throw invalidData(file, `not a readable vector tile (${(err as Error).message})`, {}, err);
  }
  const wanted = options.layers ? new Set(options.layers) : null;
  const layers: Record<string, Feature<Geometry>[]> = {};
  for (const [name, layer] of Object.entries(vt.layers)) {
    if (wanted && !wanted.has(name)) continue;
    const features: Feature<Geometry>[] = [];
    for (let i = 0; i < layer.length; i++) {
      let f: Feature;
      try {
        f = layer.feature(i).toGeoJSON(tile.x, tile.y, tile.z) as Feature;
      } catch (err) {
        throw invalidData(file, `layer "${name}" feature ${i}: undecodable geometry (${(err as Error).message})`, { layer: name, feature: i }, err);
      }
      const problem = validateGeometry(f.geometry, true);
      if (problem) throw invalidData(file, `layer "${name}" feature ${i}: ${problem.path}: ${problem.message}`, { layer: name, feature: i });
      features.push({ type: 'Feature', ...(f.id === undefined ? {} : { id: f.id }), geometry: f.geometry as Geometry, properties: { ...f.properties, __tile: `${tile.z}/${tile.x}/${tile.y}` } });
    }
    layers[name] = features;
  }
  if (wanted) {
    const missing = [...wanted].filter((n) => !(n in layers));
    // A tile with nothing in it for a layer simply omits the layer; that is an empty answer, not an error.
    for (const n of missing) layers[n] = [];
  }
  return { tile, layers };
}

/** Reads one tile file; the address comes from `tile` or from the `.../z/x/y.mvt` path. */
export async function readVectorTile(file: string, tile?: TileAddress, options: MvtReadOptions = {}): Promise<DecodedTile> {
  const address = tile ?? tileAddressOfPath(file);
  if (!address) throw invalidArgument('tile', `${file}: no tile address given and the path does not end in z/x/y.mvt`);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new EngineError('NOT_FOUND', `${file}: no such file`, { file });
    throw invalidData(file, `cannot read (${(err as Error).message})`, {}, err);
  }
  return parseVectorTile(bytes, address, file, options);
}

/**
 * Reads one layer from a directory of tiles laid out `dir/z/x/y.mvt` (or `.pbf`), at zoom `z` (default: the
 * deepest zoom present), as one lon/lat layer. Tiles are read in z/x/y order, so the result is deterministic.
 */
export async function readVectorTileLayer(dir: string, layer: string, options: { zoom?: number } = {}): Promise<GeoJsonLayer> {
  let entries: string[];
  try {
    entries = (await readdir(dir, { recursive: true })).map(String);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new EngineError('NOT_FOUND', `${dir}: no such tile directory`, { file: dir });
    throw invalidData(dir, `cannot list tiles (${(err as Error).message})`, {}, err);
  }
  const tiles = entries
    .map((e) => ({ path: join(dir, e), address: tileAddressOfPath(e) }))
    .filter((t): t is { path: string; address: TileAddress } => t.address !== null);
  if (tiles.length === 0) throw invalidData(dir, 'no z/x/y.mvt tiles found');
  const zoom = options.zoom ?? Math.max(...tiles.map((t) => t.address.z));
  const atZoom = tiles.filter((t) => t.address.z === zoom).sort((a, b) => a.address.x - b.address.x || a.address.y - b.address.y);
  if (atZoom.length === 0) throw invalidData(dir, `no tiles at zoom ${zoom}`);
  const features: Feature<Geometry>[] = [];
  const bbox = emptyBBox();
  for (const t of atZoom) {
    const decoded = await readVectorTile(t.path, t.address, { layers: [layer] });
    for (const f of decoded.layers[layer]) {
      forEachPosition(f.geometry, (p) => extendBBox(bbox, p[0], p[1]));
      features.push(f);
    }
  }
  return { file: dir, sourceCrs: 'EPSG:4326', features, bbox, nullGeometryCount: 0 };
}
