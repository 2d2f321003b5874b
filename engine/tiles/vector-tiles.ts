/**
 * The engine as a vector-tile source (issue 20): Mapbox Vector Tiles 2.1 (extent 4096, a 64-unit buffer) of
 * the dataset's layers, made on request. For a tile, each layer's features meeting the tile's box (grown by
 * the buffer) are found through the store's spatial indexes, then `@maplibre/geojson-vt` (`geoJSONToTile`)
 * clips, simplifies and transforms them to tile coordinates and `@maplibre/vt-pbf` encodes them (version 2:
 * its default is 1).
 *
 * Layers (name: source, zooms): `das` (the DA store's radius index: category, status group, lodged),
 * `zones`, `overlays`, `flood` (the overlays that classify as flood, as the flood block reads them),
 * `bushfire`, `schools`, `parcels` (z >= 16), `roads`, `water` (for a basemap) and `contours` (made from the
 * DEM at an interval chosen per zoom; see contour-tiles.ts). Attributes are the source's scalar properties
 * (geometry-licensed sources only: a source whose licence forbids geometry redistribution is left out).
 */
import { geoJSONToTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { Feature, Geometry } from 'geojson';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { CatalogueSource } from '../catalogue/catalogue.js';
import { mayMeet, vectorFeaturesIn, type DataStore, type RecordTable, type VectorLayer } from '../data/dataset-store.js';
import type { DaReader } from '../da/da-store.js';
import { classifyFloodOverlay, isFloodOverlay } from '../scores/flood/overlay-codes.js';
import { isBushfireFeature } from '../scores/bushfire/bushfire-model.js';
import { fieldsRecord, mergeFields, scalarProperties, type FieldType } from '../vector/feature-fields.js';
import { validTileFeatures } from './tile-geometry.js';
import { growBox, tileBounds, type TileId } from './tile-math.js';

/** Tile extent and buffer (tile units). */
export const EXTENT = 4096;
export const BUFFER = 64;

/** One tile layer as TileJSON describes it, and where its features come from. */
export interface TileLayerSpec {
  id: string;
  description: string;
  minzoom: number;
  maxzoom: number;
  /** Attribute names and types (TileJSON `vector_layers[].fields`). */
  fields: Record<string, string>;
  /** The payload paths whose sources the layer draws (for its attribution). */
  paths: PayloadPath[];
}

/** A source of features for a box. */
type FeatureSource = (ctx: TileSources, box: [number, number, number, number], z: number) => { features: Feature[]; sources: CatalogueSource[] };

/** What the tile layers read. */
export interface TileSources {
  store: DataStore;
  das: () => DaReader;
}


/** Features of vector layers of `paths` meeting `box` (through their indexes), with the filter applied. */
function vectorFeatures(paths: PayloadPath[], filter?: (f: Feature, source: CatalogueSource) => boolean): FeatureSource {
  return (ctx, box) => {
    const features: Feature[] = [];
    const sources = new Map<string, CatalogueSource>();
    const seen = new Set<VectorLayer>();
    for (const path of paths) {
      for (const layer of ctx.store.vectorsFor(path, null)) {
        if (seen.has(layer) || !layer.source.geometry_redistribution) continue;
        seen.add(layer);
        for (const i of vectorFeaturesIn(layer, box)) {
          const f = layer.features[i];
          if (filter && !filter(f, layer.source)) continue;
          features.push({ type: 'Feature', id: features.length + 1, geometry: f.geometry, properties: { ...scalarProperties(f.properties), source: layer.source.id } });
          sources.set(layer.source.id, layer.source);
        }
      }
    }
    return { features, sources: [...sources.values()] };
  };
}

/** Point records of `path` (CSV with lon/lat) meeting `box`, with the named columns. */
function recordPoints(path: PayloadPath, columns: string[]): FeatureSource {
  return (ctx, box) => {
    const features: Feature[] = [];
    const sources = new Map<string, CatalogueSource>();
    for (const t of ctx.store.recordsFor(path, null) as RecordTable[]) {
      if (!mayMeet(t, box) || !t.points) continue;
      for (const id of t.points.index.search(box[0], box[1], box[2], box[3])) {
        const r = t.rows[t.points.rowOf[id]];
        const props: Record<string, string | number> = { source: t.source.id };
        for (const c of columns) if (r[c] !== undefined && r[c] !== null && r[c] !== '') props[c] = r[c] as string | number;
        features.push({ type: 'Feature', id: features.length + 1, geometry: { type: 'Point', coordinates: [Number(r.lon ?? r.lng), Number(r.lat)] }, properties: props });
        sources.set(t.source.id, t.source);
      }
    }
    return { features, sources: [...sources.values()] };
  };
}

/** DA points from the store's radius index: id, category, status group, lodgement date. */
const daFeatures: FeatureSource = (ctx, box) => {
  const das = ctx.das();
  const features: Feature[] = das.tilePoints(box).map((p) => ({ type: 'Feature', id: p.id, geometry: { type: 'Point', coordinates: [p.lng, p.lat] }, properties: { id: p.id, category: p.category, status_group: p.status_group, lodged: p.lodged } }));
  const sources = ctx.store.catalogue.sources.filter((s) => s.paths.includes('development_applications'));
  return { features, sources };
};

const floodOnly = (f: Feature) => isFloodOverlay(classifyFloodOverlay(f.properties).kind);

interface LayerDef extends TileLayerSpec {
  read: FeatureSource;
  /** Drawn from publishers' features: its fields are every scalar property they carry (and `source`). */
  publisherFields?: boolean;
}

const LAYERS: LayerDef[] = [
  { id: 'das', paths: ['development_applications'], description: 'Development applications: id, category, status_group, lodged (YYYY-MM-DD).', minzoom: 10, maxzoom: 18, fields: { id: 'Number', category: 'String', status_group: 'String', lodged: 'String' }, read: daFeatures },
  { id: 'zones', publisherFields: true, paths: ['planning.zone'], description: 'Planning zones, with their publisher\'s attributes.', minzoom: 10, maxzoom: 18, fields: { source: 'String' }, read: vectorFeatures(['planning.zone']) },
  { id: 'overlays', publisherFields: true, paths: ['planning.overlay'], description: 'Planning overlays, with their publisher\'s attributes.', minzoom: 10, maxzoom: 18, fields: { source: 'String' }, read: vectorFeatures(['planning.overlay']) },
  { id: 'flood', publisherFields: true, paths: ['hazards.flood'], description: 'Flood overlays (those the flood block classifies as floodway, flood control, overland flow or flood evidence).', minzoom: 10, maxzoom: 18, fields: { source: 'String' }, read: vectorFeatures(['hazards.flood'], floodOnly) },
  // Planning-scheme sources feed hazards.bushfire only through their bushfire controls (as the hazards block reads them).
  { id: 'bushfire', publisherFields: true, paths: ['hazards.bushfire'], description: 'Bushfire-prone areas and planning bushfire controls (e.g. a Bushfire Management Overlay).', minzoom: 10, maxzoom: 18, fields: { source: 'String' }, read: vectorFeatures(['hazards.bushfire'], (f, source) => !source.schema || isBushfireFeature(f.properties)) },
  { id: 'schools', paths: ['poi.schools_500m'], description: 'Open schools: name, type, sector.', minzoom: 10, maxzoom: 18, fields: { name: 'String', school_type: 'String', school_sector: 'String', source: 'String' }, read: recordPoints('poi.schools_500m', ['name', 'school_type', 'school_sector']) },
  { id: 'parcels', publisherFields: true, paths: ['resolved.parcel'], description: 'Cadastre parcels (z >= 16), where the licence allows geometry.', minzoom: 16, maxzoom: 18, fields: { source: 'String' }, read: vectorFeatures(['resolved.parcel']) },
  { id: 'roads', publisherFields: true, paths: ['scores.noise.roads'], description: 'Roads by class (road_class, highway, name).', minzoom: 10, maxzoom: 18, fields: { name: 'String', road_class: 'String', highway: 'String', source: 'String' }, read: vectorFeatures(['scores.noise.roads']) },
  { id: 'water', publisherFields: true, paths: ['scores.flood.water'], description: 'Watercourses and water bodies.', minzoom: 10, maxzoom: 18, fields: { name: 'String', water_type: 'String', source: 'String' }, read: vectorFeatures(['scores.flood.water']) },
];

/** The vector tile layers (without contours, which contour-tiles.ts adds), with the fields always carried. */
export const VECTOR_TILE_LAYERS: readonly TileLayerSpec[] = LAYERS.map(({ read: _read, publisherFields: _p, ...spec }) => spec);

/**
 * The vector tile layers with their complete fields: for a layer drawn from publishers' features, every
 * scalar property its sources' features carry (`fieldsOf` of its payload paths: the whole dataset, or the
 * layer file's record of each file), as the encoder writes them (feature-fields.ts).
 */
export function vectorTileLayers(fieldsOf: (paths: readonly PayloadPath[]) => Map<string, Set<FieldType>>): TileLayerSpec[] {
  return LAYERS.map(({ read: _read, publisherFields, ...spec }) => {
    if (!publisherFields) return spec;
    const fields = fieldsOf(spec.paths);
    mergeFields(fields, spec.fields);
    return { ...spec, fields: fieldsRecord(fields) };
  });
}

/** The spec of layer `id`, or undefined. */
export function vectorLayerSpec(id: string): TileLayerSpec | undefined {
  return VECTOR_TILE_LAYERS.find((l) => l.id === id);
}

/** Simplification tolerance, in tile units (of {@link EXTENT}) at the tile's own zoom. */
export const TOLERANCE = 3;

/**
 * Encodes one layer's features (lon/lat GeoJSON) as the MVT of tile `t`; null when nothing lands in it. Every
 * geometry is clipped to the tile and its buffer (MVT 2.1: nothing past [-buffer, extent + buffer], where
 * MapLibre warns and draws wrongly), and simplified at the tile's own zoom ({@link TOLERANCE} units): the
 * one-tile helper otherwise keeps whole polygons and simplifies at z14 whatever the tile's zoom, which bent
 * roads at z17 and z18. Rings and lines that collapse on the tile's integer grid are dropped, and features
 * left empty (tile-geometry.ts): every ring has an area, as MVT 2.1 requires.
 */
export function encodeTile(layer: string, input: Feature[], t: TileId): Uint8Array | null {
  if (!input.length) return null;
  // One tile straight from the features (they were already chosen by the tile's box): no index of the world.
  // maxZoom 24 keeps every vertex through conversion, so the only simplification is the tile's own.
  const tile = geoJSONToTile({ type: 'FeatureCollection', features: input }, t.z, t.x, t.y, { extent: EXTENT, buffer: BUFFER, tolerance: TOLERANCE, maxZoom: 24, wrap: false, clip: true });
  if (!tile) return null;
  // Rings and lines that collapsed on the integer grid out, features left empty out (tile-geometry.ts).
  const features = validTileFeatures(tile.features, [-BUFFER, EXTENT + BUFFER]);
  if (!features.length) return null;
  return fromGeojsonVt({ [layer]: { ...tile, features } }, { version: 2, extent: EXTENT });
}

/** The features of layer `id` around tile `t` (the tile's box and its buffer), and their sources. */
export function tileFeatures(ctx: TileSources, id: string, t: TileId): { features: Feature[]; sources: CatalogueSource[] } {
  const def = LAYERS.find((l) => l.id === id);
  if (!def) throw new Error(`no tile layer ${id}`);
  return def.read(ctx, tileReadBox(t), t.z);
}

/** The lon/lat box a tile's features are read from: the tile and its buffer. */
export function tileReadBox(t: TileId): [number, number, number, number] {
  return growBox(tileBounds(t), BUFFER / EXTENT);
}

/** The MVT of layer `id` at tile `t`, or null for an empty tile. */
export function vectorTile(ctx: TileSources, id: string, t: TileId): { bytes: Uint8Array | null; sources: CatalogueSource[] } {
  const { features, sources } = tileFeatures(ctx, id, t);
  return { bytes: encodeTile(id, features, t), sources };
}

export type { Geometry };
