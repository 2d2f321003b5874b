/**
 * The loaded datasets: every vector layer and record table the catalogue names, indexed in memory, and every
 * raster opened (header only; workers read windows themselves). Sources are found by payload path and state.
 *
 * Loading is all-or-nothing: every file is read and validated, and any problems are reported together in one
 * `INVALID_DATA` error naming each file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import type { Catalogue, CatalogueSource, SourceFile } from '../catalogue/catalogue.js';
import { loadCatalogue } from '../catalogue/load-catalogue.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { StateCode } from '../catalogue/states.js';
import { EngineError } from '../errors.js';
import { openRaster, type RasterInfo } from '../raster/geotiff-reader.js';
import { readShapefileLayer } from '../vector/shapefile-reader.js';
import { readOsmLayer } from '../vector/osm-reader.js';
import { readGnafAddresses } from '../address/gnaf-reader.js';
import { readGeoPackageLayer } from '../vector/geopackage-reader.js';
import { readGeoJsonLayer } from '../vector/geojson-reader.js';
import { readVectorTileLayer } from '../vector/mvt-reader.js';
import { PointIndex } from '../vector/point-index.js';
import { PolygonIndex } from '../vector/polygon-index.js';
import { readRecords } from '../vector/records.js';
import { SegmentIndex } from '../vector/segment-index.js';
import { missingColumnsError } from './record-columns.js';

/** Where a loaded item came from. */
export interface Provenance {
  source: CatalogueSource;
  file: SourceFile;
}

/** A GeoJSON layer (one file), with an index per geometry kind. */
export interface VectorLayer extends Provenance {
  kind: 'vector';
  features: Feature<Geometry>[];
  /** Point features: index ids map to feature positions through `featureOf`. */
  points?: { index: PointIndex; featureOf: Uint32Array };
  /** Line features (segment feature ids are feature positions). */
  lines?: SegmentIndex;
  /** Polygon features: index ids map to feature positions through `featureOf`. */
  polygons?: { index: PolygonIndex; featureOf: Uint32Array };
  /** What the reader could not build and why (an OSM way cut at the extract's edge). */
  warnings?: string[];
  /**
   * The lon/lat box of every feature, when known without reading them (a whole layer read from the layer file
   * on first use: data/lazy-layer.ts): searches skip a layer it cannot meet, so they do not read it.
   */
  extent?: readonly [number, number, number, number];
}

/** False when `layer` says its content lies wholly outside `box` (its extent); true when it may meet it. */
export function mayMeet(layer: { extent?: readonly [number, number, number, number] }, box: readonly [number, number, number, number]): boolean {
  const e = layer.extent;
  return !e || (e[0] <= box[2] && e[2] >= box[0] && e[1] <= box[3] && e[3] >= box[1]);
}

/**
 * Positions (ascending) of the features of `layer` whose lines, polygons or points meet the lon/lat `box`,
 * through the layer's indexes.
 */
export function vectorFeaturesIn(layer: VectorLayer, box: readonly [number, number, number, number]): number[] {
  if (!mayMeet(layer, box)) return [];
  const out = new Set<number>();
  if (layer.lines) for (const s of layer.lines.search(box[0], box[1], box[2], box[3])) out.add(layer.lines.features[s]);
  if (layer.polygons) for (const p of layer.polygons.index.search(box[0], box[1], box[2], box[3])) out.add(layer.polygons.featureOf[p]);
  if (layer.points) for (const p of layer.points.index.search(box[0], box[1], box[2], box[3])) out.add(layer.points.featureOf[p]);
  return [...out].sort((a, b) => a - b);
}

/** A record file (CSV or JSON lines), with a point index when it has coordinates. */
export interface RecordTable extends Provenance {
  kind: 'records';
  columns: string[];
  rows: Record<string, unknown>[];
  /** Point index over rows with lon/lat (or lng/lat): ids map to row positions through `rowOf`. */
  points?: { index: PointIndex; rowOf: Uint32Array };
  /** What the reader left out and why (a G-NAF address without a geocode), for `catalogue add` and `check`. */
  warnings?: string[];
  /** The lon/lat box of the rows' points, when known without reading them (see {@link VectorLayer.extent}). */
  extent?: readonly [number, number, number, number];
}

/** A raster file, opened and validated (header only). */
export interface RasterRef extends Provenance {
  kind: 'raster';
  /** Absolute path, for workers to open. */
  path: string;
  info: RasterInfo;
}

/** Any loaded file. */
export type LoadedFile = VectorLayer | RecordTable | RasterRef;

/** Options for {@link openDataStore}. */
export interface OpenDataStoreOptions {
  /** Build indexes over SharedArrayBuffers (default true) so workers can share them. */
  shared?: boolean;
}

const LON_KEYS = ['lon', 'lng', 'longitude', 'long', 'x'];
const LAT_KEYS = ['lat', 'latitude', 'y'];

/** The lon and lat columns of a record table (lon/lng/longitude/x, lat/latitude/y), or null. */
export function coordinateColumns(columns: string[]): [string, string] | null {
  const lower = columns.map((c) => c.toLowerCase());
  const lon = LON_KEYS.map((k) => lower.indexOf(k)).find((i) => i >= 0);
  const lat = LAT_KEYS.map((k) => lower.indexOf(k)).find((i) => i >= 0);
  return lon !== undefined && lat !== undefined ? [columns[lon], columns[lat]] : null;
}

function indexVector(features: Feature<Geometry>[], shared: boolean): Pick<VectorLayer, 'points' | 'lines' | 'polygons'> {
  const pts: number[] = [];
  const ptFeat: number[] = [];
  const lineGeoms: Geometry[] = [];
  const polyGeoms: (Polygon | MultiPolygon)[] = [];
  const polyFeat: number[] = [];
  features.forEach((f, i) => {
    const g = f.geometry;
    if (g.type === 'Point') {
      pts.push(g.coordinates[0], g.coordinates[1]);
      ptFeat.push(i);
    } else if (g.type === 'MultiPoint') {
      for (const p of g.coordinates) {
        pts.push(p[0], p[1]);
        ptFeat.push(i);
      }
    } else if (g.type === 'Polygon' || g.type === 'MultiPolygon') {
      polyGeoms.push(g);
      polyFeat.push(i);
    }
    // Lines index by feature position; polygons and points contribute no segments to the line index.
    lineGeoms.push(g.type === 'LineString' || g.type === 'MultiLineString' ? g : { type: 'LineString', coordinates: [] });
  });
  const out: Pick<VectorLayer, 'points' | 'lines' | 'polygons'> = {};
  if (ptFeat.length) out.points = { index: PointIndex.build(pts, { shared }), featureOf: Uint32Array.from(ptFeat) };
  if (features.some((f) => f.geometry.type === 'LineString' || f.geometry.type === 'MultiLineString')) out.lines = SegmentIndex.fromGeometries(lineGeoms, { shared });
  if (polyFeat.length) out.polygons = { index: PolygonIndex.build(polyGeoms, { shared }), featureOf: Uint32Array.from(polyFeat) };
  return out;
}

/** A file's content as read, before indexing. */
export type FileContent =
  | { kind: 'vector'; features: Feature<Geometry>[]; warnings?: string[] }
  | { kind: 'records'; columns: string[]; rows: Record<string, unknown>[]; warnings?: string[] }
  | { kind: 'raster'; path: string; info: RasterInfo };

/** Reads one catalogue file with its format's reader (validated, reprojected), without indexing it. */
export async function readSourceFile(dir: string, source: CatalogueSource, file: SourceFile): Promise<FileContent> {
  const path = join(dir, file.path);
  const format = file.format ?? source.format;
  switch (format) {
    case 'geojson':
      return { kind: 'vector', features: (await readGeoJsonLayer(path, { crs: file.crs })).features };
    case 'osm': {
      const layer = await readOsmLayer(path, { layer: file.layer });
      return { kind: 'vector', features: layer.features, warnings: layer.warnings };
    }
    case 'geopackage':
      return { kind: 'vector', features: (await readGeoPackageLayer(path, { table: file.table, crs: file.crs })).features };
    case 'shapefile':
      return { kind: 'vector', features: (await readShapefileLayer(path, { crs: file.crs })).features };
    case 'mvt':
      return { kind: 'vector', features: (await readVectorTileLayer(path, file.tile_layer as string, { zoom: file.zoom })).features };
    case 'gnaf': {
      if (!file.state) throw new EngineError('INVALID_DATA', `${path}: a G-NAF entry names its state (the tables are per state)`, { file: path });
      const { rows, report } = await readGnafAddresses(path, file.state);
      const columns = ['address_id', 'unit', 'number', 'street_name', 'street_type', 'suburb', 'state', 'postcode', 'lon', 'lat'];
      const warnings = [
        ...(report.missingGeocode ? [`${report.missingGeocode} address(es) without a default geocode left out (e.g. ${report.missingGeocodeExamples.map((e) => `${e.pid} at line ${e.line}`).join(', ')})`] : []),
        ...(report.aliasesSkipped || report.retiredSkipped ? [`${report.aliasesSkipped} alias and ${report.retiredSkipped} retired address(es) not indexed`] : []),
      ];
      return { kind: 'records', columns, rows, warnings };
    }
    case 'csv':
    case 'jsonl': {
      const set = await readRecords(path, { format });
      const missing = missingColumnsError(path, set.columns, source.paths);
      if (missing) throw missing;
      return { kind: 'records', columns: set.columns, rows: set.rows };
    }
    case 'geotiff': {
      const r = await openRaster(path, { crs: file.crs });
      const info = r.info;
      await r.close();
      return { kind: 'raster', path, info };
    }
  }
}

/** A loaded file from its content: vector features and records indexed (shared buffers when `shared`). */
export function loadedFileOf(source: CatalogueSource, file: SourceFile, content: FileContent, shared: boolean): LoadedFile {
  switch (content.kind) {
    case 'vector':
      return { kind: 'vector', source, file, features: content.features, ...(content.warnings ? { warnings: content.warnings } : {}), ...indexVector(content.features, shared) };
    case 'records':
      return withPoints({ kind: 'records', source, file, columns: content.columns, rows: content.rows, ...(content.warnings ? { warnings: content.warnings } : {}) }, shared);
    case 'raster':
      return { kind: 'raster', source, file, path: content.path, info: content.info };
  }
}

async function loadFile(dir: string, source: CatalogueSource, file: SourceFile, shared: boolean): Promise<LoadedFile> {
  return loadedFileOf(source, file, await readSourceFile(dir, source, file), shared);
}

/** A record table with its point index over the rows that have coordinates. */
function withPoints(table: RecordTable, shared: boolean): RecordTable {
  const cols = coordinateColumns(table.columns);
  if (!cols) return table;
  const pts: number[] = [];
  const rowOf: number[] = [];
  table.rows.forEach((r, i) => {
    const lon = Number(r[cols[0]]);
    const lat = Number(r[cols[1]]);
    if (r[cols[0]] !== '' && r[cols[0]] !== null && Number.isFinite(lon) && Number.isFinite(lat)) {
      pts.push(lon, lat);
      rowOf.push(i);
    }
  });
  table.points = { index: PointIndex.build(pts, { shared }), rowOf: Uint32Array.from(rowOf) };
  return table;
}

/**
 * What loading `source`'s files would raise in {@link DataStore.open}, with the same messages, without
 * keeping the data (`propintel catalogue add` and `check`). Empty when every file loads.
 */
export async function sourceFileProblems(dir: string, source: CatalogueSource, warnings?: string[]): Promise<string[]> {
  const settled = await Promise.allSettled(source.files.map((f) => loadFile(dir, source, f, false)));
  for (const r of settled) {
    if (r.status === 'fulfilled' && r.value.kind !== 'raster' && r.value.warnings) warnings?.push(...r.value.warnings.map((w) => `${source.id}: ${w}`));
  }
  return settled.flatMap((r) => (r.status === 'rejected' ? [`${source.id}: ${(r.reason as Error).message}`] : []));
}

/** The loaded datasets of one directory. */
export class DataStore {
  private constructor(
    readonly catalogue: Catalogue,
    /** Every loaded file, in catalogue order. */
    readonly files: LoadedFile[],
    /** Milliseconds spent loading and indexing. */
    readonly loadMs: number,
    /** Positions in `files` of the files feeding each path (made on first use, or shared: {@link pathPositions}). */
    private positions?: ReadonlyMap<PayloadPath, readonly number[]>,
  ) {}

  /**
   * A store over files already loaded (a window of the on-disk layers: data/windowed-store.ts). Stores over
   * file lists of one layout (each a window of the same catalogue) share `positions` rather than each
   * indexing thousands of files again.
   */
  static fromFiles(catalogue: Catalogue, files: LoadedFile[], loadMs = 0, positions?: ReadonlyMap<PayloadPath, readonly number[]>): DataStore {
    return new DataStore(catalogue, files, loadMs, positions);
  }

  /** The positions of the files feeding each payload path, in order, for files of `sources` in this order. */
  static pathPositions(sources: readonly CatalogueSource[]): Map<PayloadPath, number[]> {
    const out = new Map<PayloadPath, number[]>();
    sources.forEach((s, i) => {
      for (const p of new Set(s.paths)) {
        const list = out.get(p);
        if (list) list.push(i);
        else out.set(p, [i]);
      }
    });
    return out;
  }

  /** Loads a dataset directory: the catalogue, then every file, indexed. */
  static async open(dir: string, options: OpenDataStoreOptions = {}): Promise<DataStore> {
    const t0 = performance.now();
    const catalogue = await loadCatalogue(dir);
    const shared = options.shared ?? true;
    const jobs = catalogue.sources.flatMap((s) => s.files.map((f) => ({ s, f })));
    const settled = await Promise.allSettled(jobs.map(({ s, f }) => loadFile(catalogue.dir, s, f, shared)));
    const problems = settled.flatMap((r, i) => (r.status === 'rejected' ? [`  - ${jobs[i].s.id}: ${(r.reason as Error).message}`] : []));
    if (problems.length) {
      throw new EngineError('INVALID_DATA', `${catalogue.dir}: ${problems.length} file${problems.length === 1 ? '' : 's'} could not be loaded:\n${problems.join('\n')}`, { file: catalogue.dir, problems });
    }
    const files = settled.map((r) => (r as PromiseFulfilledResult<LoadedFile>).value);
    return new DataStore(catalogue, files, performance.now() - t0);
  }

  /** The source with `id`. */
  source(id: string): CatalogueSource | undefined {
    return this.catalogue.sources.find((s) => s.id === id);
  }

  /** Loaded files of sources that feed `path` (and cover `state`, when given), optionally of one file layer. */
  filesFor(path: PayloadPath, state?: StateCode | null, layer?: string): LoadedFile[] {
    return this.filesOfPath(path).filter((f) => (state == null || state in f.source.coverage) && (state == null || f.file.state === undefined || f.file.state === state) && (layer === undefined || f.file.layer === layer));
  }

  private readonly byPath = new Map<PayloadPath, LoadedFile[]>();

  /** The files feeding `path`, in catalogue order (indexed once: a national catalogue holds thousands of files). */
  private filesOfPath(path: PayloadPath): LoadedFile[] {
    let list = this.byPath.get(path);
    if (!list) {
      this.positions ??= DataStore.pathPositions(this.files.map((f) => f.source));
      this.byPath.set(path, (list = (this.positions.get(path) ?? []).map((i) => this.files[i])));
    }
    return list;
  }

  /** Vector layers feeding `path`. */
  vectorsFor(path: PayloadPath, state?: StateCode | null, layer?: string): VectorLayer[] {
    return this.filesFor(path, state, layer).filter((f): f is VectorLayer => f.kind === 'vector');
  }

  /** Record tables feeding `path`. */
  recordsFor(path: PayloadPath, state?: StateCode | null, layer?: string): RecordTable[] {
    return this.filesFor(path, state, layer).filter((f): f is RecordTable => f.kind === 'records');
  }

  /** Rasters feeding `path`. */
  rastersFor(path: PayloadPath, state?: StateCode | null, layer?: string): RasterRef[] {
    return this.filesFor(path, state, layer).filter((f): f is RasterRef => f.kind === 'raster');
  }

  /** The sandbox addresses file, parsed (an empty list when the catalogue names none). */
  async sandbox(): Promise<{ address: string; state: StateCode; lat: number; lng: number; note: string }[]> {
    if (!this.catalogue.sandbox) return [];
    const doc = JSON.parse(await readFile(join(this.catalogue.dir, this.catalogue.sandbox), 'utf8')) as { addresses: [] };
    return doc.addresses;
  }
}

/** Loads a dataset directory; shorthand for {@link DataStore.open}. */
export function openDataStore(dir: string, options?: OpenDataStoreOptions): Promise<DataStore> {
  return DataStore.open(dir, options);
}
