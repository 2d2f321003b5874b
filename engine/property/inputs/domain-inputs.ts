/**
 * Adapters from the loaded datasets to each domain's inputs: the noise network, the walkability indexes, the
 * bushfire layers, the contamination register, the ANEF contours, the flood inputs and the contour sources.
 * Each reads the catalogue by payload path and state, so the same code serves the sample world and real data.
 */
import { centroid } from '@turf/turf';
import type { Feature, Geometry, LineString, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import type { CatalogueSource } from '../../catalogue/catalogue.js';
import { heldExtent } from '../../catalogue/coverage.js';
import type { PayloadPath } from '../../catalogue/payload-paths.js';
import { STATES, type StateCode } from '../../catalogue/states.js';
import { mayMeet, type DataStore, type RasterRef, type RecordTable, type VectorLayer } from '../../data/dataset-store.js';
import { buildNoiseNetwork, type NoiseNetwork } from '../../noise/noise-network.js';
import { parseAnefFeatures, parseCounterRecords, parseLoggerRecords, parseRailFeatures, parseRoadFeatures } from '../../noise/noise-inputs.js';
import { buildAnefLayer, type AnefCoverage, type AnefLayer } from '../../scores/aircraft-noise/anef-contours.js';
import { buildBushfireLayers, type BushfireLayers, type OfficialOverlayInput } from '../../scores/bushfire/bushfire-layers.js';
import { buildContaminationRegister, type ContaminationRegister, type ContaminationSite, type RegisterCoverage } from '../../scores/contamination/contamination-register.js';
import type { FloodInput, FloodStudy } from '../../scores/flood/assess-flood.js';
import type { FloodOverlaySource } from '../../scores/flood/flood-overlays.js';
import type { StudyLibrary } from '../../scores/flood/flood-score.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import {
  AMENITY_CSV_CATEGORIES,
  amenityPointsFromRows,
  buildWalkabilityIndexes,
  crossingPointsFromRows,
  majorWaterGeometries,
  motorwayGeometries,
  schoolPointsFromRows,
  stopPointsFromRows,
  type AmenityPoint,
  type AmenitySet,
  type WalkabilityIndexes,
} from '../../scores/walkability/walkability-layers.js';
import type { ContourSources, VectorContourSource } from '../../surfaces/contours/sources.js';
import { rasterAt } from './raster-cache.js';
import { burnLines, type BurnLines } from '../../hydro/hand-tile-store.js';
import { lineSetFromFeatures } from '../../hydro/line-set.js';

const fileName = (l: { file: { path: string } }) => l.file.path;
const features = (layers: VectorLayer[]) => layers.flatMap((l) => l.features);

/** The state whose LGA polygons contain (lon, lat), or null (undetermined). */
export function stateAt(store: DataStore, lon: number, lat: number): StateCode | null {
  // Council areas first (they are held where the data is), then state boundaries (ABS STE).
  for (const path of ['administrative.lga', 'administrative.state'] as const) {
    for (const l of store.vectorsFor(path)) {
      // A layer whose extent is elsewhere is not read (another state's, held whole in a layer file).
      if (!mayMeet(l, [lon, lat, lon, lat]) || !l.polygons) continue;
      const hit = l.polygons.index.containing(lon, lat);
      if (hit.length === 0) continue;
      if (l.file.state) return l.file.state;
      const s = stateOfProperties(l.features[l.polygons.featureOf[hit[0]]].properties ?? {});
      if (s) return s;
    }
  }
  return null;
}

/** ABS state and territory codes (STE_CODE21; 9 is Other Territories, not a state this engine holds). */
const ABS_STATE_CODES: Record<string, StateCode> = { '1': 'NSW', '2': 'VIC', '3': 'QLD', '4': 'SA', '5': 'WA', '6': 'TAS', '7': 'NT', '8': 'ACT' };
const STATE_NAMES: Record<string, StateCode> = {
  'new south wales': 'NSW', victoria: 'VIC', queensland: 'QLD', 'south australia': 'SA', 'western australia': 'WA', tasmania: 'TAS', 'northern territory': 'NT', 'australian capital territory': 'ACT',
};

/**
 * The state a boundary feature names: our `state`/`STATE` code, or the ABS fields (STE_CODE21 / STATE_CODE
 * numeric codes, STE_NAME21 / STATE_NAME names), as the ASGS files and their derivatives publish them.
 */
export function stateOfProperties(p: Record<string, unknown>): StateCode | null {
  const code = String(p.STATE ?? p.state ?? '').toUpperCase();
  if ((STATES as readonly string[]).includes(code)) return code as StateCode;
  for (const k of ['STE_NAME21', 'STE_NAME16', 'STATE_NAME', 'state_name']) {
    const n = STATE_NAMES[String(p[k] ?? '').trim().toLowerCase()];
    if (n) return n;
  }
  for (const k of ['STE_CODE21', 'STE_CODE16', 'STATE_CODE', 'state_code']) {
    const c = ABS_STATE_CODES[String(p[k] ?? '').trim()];
    if (c) return c;
  }
  return null;
}

/** The noise network of one state's roads, rail, counters, loggers and ANEF contours. */
export function noiseNetworkFor(store: DataStore, state: StateCode): NoiseNetwork | null {
  const roads = store.vectorsFor('scores.noise.roads', state).flatMap((l) => parseRoadFeatures(l.features, fileName(l)));
  if (roads.length === 0) return null;
  const rail = store.vectorsFor('scores.noise.rail', state).flatMap((l) => parseRailFeatures(l.features, fileName(l)));
  const counters = store.recordsFor('scores.noise.sources', state).flatMap((t) => parseCounterRecords(t.rows, fileName(t)));
  const loggers = store.recordsFor('scores.noise.validation', state).flatMap((t) => parseLoggerRecords(t.rows, fileName(t)));
  const anef = store.vectorsFor('scores.aircraft_noise', state).flatMap((l) => parseAnefFeatures(l.features, fileName(l)));
  return buildNoiseNetwork({ roads, rail, counters, loggers, anef });
}

const asStrings = (rows: Record<string, unknown>[]) => rows as Record<string, string>[];

/** Why a state-held input is missing for a subject outside every held state's LGAs. */
const UNDETERMINED_STATE = "the subject's state could not be determined, so no state-held source applies";

/** Which kind of amenity table a record file is, from its columns. */
function amenityKind(t: RecordTable): 'amenities' | 'stops' | 'schools' | null {
  const c = new Set(t.columns);
  if (c.has('school_type') || c.has('school_id')) return 'schools';
  if (c.has('stop_id') || c.has('mode')) return 'stops';
  if (c.has('amenity') || c.has('shop') || c.has('leisure')) return 'amenities';
  return null;
}

/** The walkability indexes of one state (amenities, stops, schools, motorways, major water, crossings). */
export function walkabilityIndexesFor(store: DataStore, state: StateCode | null): WalkabilityIndexes {
  if (!state) {
    // Amenity, barrier and crossing sources are state-held: with no state none applies, and the screening
    // must say so (not integrated, score null) rather than read another state's layers as "nothing near".
    const none: MissingLayer = { status: 'not_integrated', reason: UNDETERMINED_STATE };
    return buildWalkabilityIndexes({
      amenitySets: [{ name: 'amenities', categories: AMENITY_CSV_CATEGORIES, points: none }, { name: 'stops', categories: ['public_transport'], points: none }, { name: 'schools', categories: ['school'], points: none }],
      motorways: none,
      majorWater: none,
      crossings: none,
    });
  }
  const tables = store.recordsFor('scores.walkability.amenities', state);
  const set = (name: 'amenities' | 'stops' | 'schools', categories: AmenitySet['categories'], parse: (rows: Record<string, string>[], file: string) => AmenityPoint[]): AmenitySet => {
    const mine = tables.filter((t) => amenityKind(t) === name);
    if (mine.length === 0) return { name, categories, points: { status: 'not_integrated', reason: `no ${name} source is held for ${state}` } };
    return { name, categories, points: mine.flatMap((t) => parse(asStrings(t.rows), fileName(t))) };
  };
  const barriers = store.vectorsFor('scores.walkability.barriers', state);
  const water = store.vectorsFor('scores.walkability.water', state);
  const crossings = store.recordsFor('scores.walkability.crossings', state);
  return buildWalkabilityIndexes({
    amenitySets: [set('amenities', AMENITY_CSV_CATEGORIES, amenityPointsFromRows), set('stops', ['public_transport'], stopPointsFromRows), set('schools', ['school'], schoolPointsFromRows)],
    motorways: barriers.length ? { geometries: motorwayGeometries(features(barriers)), source: barriers[0].source.id } : null,
    majorWater: water.length ? { geometries: majorWaterGeometries(features(water)), source: water[0].source.id } : null,
    crossings: crossings.length ? { points: crossings.flatMap((t) => crossingPointsFromRows(asStrings(t.rows), fileName(t))), source: crossings[0].source.id } : null,
  });
}

/** A planning overlay that is a bushfire control (BMO, bushfire-prone areas, bushfire hazard overlays). */
export function isBushfireFeature(p: Record<string, unknown> | null | undefined): boolean {
  return /bush ?fire|\bBMO\b|\bBPA\b|\bHBUI\b|\bC13\.0\b|BUSH_/i.test(JSON.stringify(p ?? {}));
}

/** The bushfire layers of one state: official mapping (kept apart), vegetation and fire history. */
export function bushfireLayersFor(store: DataStore, state: StateCode | null): BushfireLayers {
  if (!state) {
    // No state: no official overlay applies and the state-held fuel and fire-history layers are not read.
    const none: MissingLayer = { status: 'not_integrated', reason: UNDETERMINED_STATE };
    return buildBushfireLayers({ officialOverlays: {}, vegetation: none, fireHistory: none });
  }
  const official = store.vectorsFor('hazards.bushfire', state);
  const extent = heldExtent(store.catalogue, 'hazards.bushfire', state);
  const officialOverlays: Record<string, OfficialOverlayInput | MissingLayer> = {};
  if (official.length && extent !== 'none') {
    const dedicated = official.find((l) => !l.source.schema) ?? official[0];
    officialOverlays[state] = { coverage: extent, source: dedicated.source.id, features: official.flatMap((l) => (l.source.schema ? l.features.filter((f) => isBushfireFeature(f.properties)) : l.features)) };
  }
  const veg = store.vectorsFor('scores.bushfire.vegetation', state);
  const fire = store.vectorsFor('scores.bushfire.fire_history', state);
  return buildBushfireLayers({
    officialOverlays,
    vegetation: veg.length ? { features: features(veg), source: veg[0].source.id } : null,
    fireHistory: fire.length ? { features: features(fire), source: fire[0].source.id } : null,
  });
}

/** Coverage per state of a path, in the score modules' terms (a state without a source is not integrated). */
function coverageByState(store: DataStore, path: PayloadPath): Record<string, 'complete' | 'partial' | 'not_integrated'> {
  return Object.fromEntries(STATES.map((s) => {
    const e = heldExtent(store.catalogue, path, s);
    return [s, e === 'none' ? 'not_integrated' : e];
  }));
}

/** Register sites from point records or polygon features (a polygon is its centroid). */
function contaminationSites(store: DataStore): ContaminationSite[] {
  const sites: ContaminationSite[] = [];
  for (const l of store.vectorsFor('scores.contamination')) {
    for (const f of l.features) {
      const p = f.properties ?? {};
      const [lon, lat] = f.geometry.type === 'Point' ? f.geometry.coordinates : centroid(f as Feature<Polygon | MultiPolygon>).geometry.coordinates;
      sites.push({ site_id: String(p.site_id ?? p.id ?? `${l.source.id}:${sites.length}`), name: String(p.name ?? ''), lon, lat, status: String(p.status ?? ''), state: l.file.state ?? String(p.state ?? ''), source: l.source.id, register: String(p.register ?? l.source.title) });
    }
  }
  return sites;
}

/** The contaminated-land register of every held state. */
export function contaminationRegisterFor(store: DataStore): ContaminationRegister {
  return buildContaminationRegister(contaminationSites(store), coverageByState(store, 'scores.contamination') as Record<string, RegisterCoverage>);
}

/** The ANEF contours of every held state. */
export function anefLayerFor(store: DataStore): AnefLayer {
  const layers = store.vectorsFor('scores.aircraft_noise');
  return buildAnefLayer({ features: features(layers), file: layers.map(fileName).join(', ') || 'none' }, coverageByState(store, 'scores.aircraft_noise') as Record<string, AnefCoverage>);
}

// Keyed by the layer's features (its content), not the layer: a whole layer read from the layer file can be
// dropped and read again (data/lazy-layer.ts), and what was made from the old content goes with it.
const lineFeatures = new WeakMap<readonly Feature[], Feature<LineString | MultiLineString>[]>();
const bodyFeatures = new WeakMap<readonly Feature[], Feature<Polygon | MultiPolygon>[]>();

/**
 * The line features of a water layer, filtered once per layer: the same array every time, so the indexes
 * nearestWater keeps by array (scores/flood/water-distance.ts) are built once, not per lookup.
 */
function linesOf(l: VectorLayer): Feature<LineString | MultiLineString>[] {
  const all = l.features;
  let f = lineFeatures.get(all);
  if (!f) lineFeatures.set(all, (f = all.filter((x) => x.geometry.type === 'LineString' || x.geometry.type === 'MultiLineString') as Feature<LineString | MultiLineString>[]));
  return f;
}

/** The polygon features (water bodies) of a water layer, filtered once per layer (see {@link linesOf}). */
function bodiesOf(l: VectorLayer): Feature<Polygon | MultiPolygon>[] {
  const all = l.features;
  let f = bodyFeatures.get(all);
  if (!f) bodyFeatures.set(all, (f = all.filter((x) => x.geometry.type === 'Polygon' || x.geometry.type === 'MultiPolygon') as Feature<Polygon | MultiPolygon>[]));
  return f;
}

/** The line features (watercourses) of the flood water layers, per source. */
function watercourseLayers(water: VectorLayer[]): { source: string; features: Feature<LineString | MultiLineString>[] }[] {
  return water.map((l) => ({ source: l.source.id, features: linesOf(l) })).filter((l) => l.features.length);
}

const burnCache = new WeakMap<object, Map<StateCode, { content: readonly (readonly Feature[])[]; burn: BurnLines }>>();

/**
 * A state's mapped watercourses as burn lines for HAND tiles, built once per set of water layers and state:
 * the windows of the on-disk layers (data/windowed-store.ts) share the whole water layers, so they share these.
 */
function burnLinesFor(store: DataStore, state: StateCode, water: readonly VectorLayer[], lines: { source: string; features: Feature<LineString | MultiLineString>[] }[]): BurnLines {
  // Keyed by the layers' content (see lineFeatures): a dropped and re-read layer makes its lines again.
  const content = water.map((l) => l.features);
  const key: object = content[0] ?? store;
  let byState = burnCache.get(key);
  if (!byState) burnCache.set(key, (byState = new Map()));
  const held = byState.get(state);
  if (held && held.content.length === content.length && held.content.every((c, i) => c === content[i])) return held.burn;
  const burn = burnLines(lines.map((l) => ({ source: l.source, lines: lineSetFromFeatures(l.features) })));
  byState.set(state, { content, burn });
  return burn;
}

/** The flood DEMs of a state with its burn lines: what its HAND tiles are computed from. */
export function floodHandInputs(store: DataStore, state: StateCode): { dems: string[]; burn: BurnLines } {
  const water = store.vectorsFor('scores.flood.water', state);
  return { dems: store.rastersFor('scores.flood.terrain', state).map((r) => r.path), burn: burnLinesFor(store, state, water, watercourseLayers(water)) };
}

const overlayCache = new WeakMap<DataStore, Map<StateCode, FloodOverlaySource[]>>();

/**
 * The mapped flood sources of a state (hazards.flood), built once per store and state so their polygon
 * indexes are reused across lookups.
 */
export function floodOverlaySourcesFor(store: DataStore, state: StateCode): FloodOverlaySource[] {
  let byState = overlayCache.get(store);
  if (!byState) overlayCache.set(store, (byState = new Map()));
  let overlays = byState.get(state);
  if (!overlays) {
    overlays = store.vectorsFor('hazards.flood', state).map((l) => ({
      source: l.source.id,
      name: l.source.title,
      state,
      coverage: (l.source.coverage[state] ?? 'none') as FloodOverlaySource['coverage'],
      verified: l.source.options?.flood_verified === true,
      redistribution: l.source.geometry_redistribution,
      response_path: String(l.source.options?.response_path ?? 'Contact the council planning team.'),
      features: l.features.filter((f) => f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon') as Feature<Polygon | MultiPolygon>[],
    }));
    byState.set(state, overlays);
  }
  return overlays;
}

/** The flood-study depth rasters the catalogue holds in every state (spec 8: a library, not national). */
export function studyLibraryOf(store: DataStore): StudyLibrary {
  const depth = store.rastersFor('scores.flood.study_depth').filter((r) => r.file.layer !== 'hazard');
  const states = new Set(depth.flatMap((r) => (r.file.state ? [r.file.state] : Object.keys(r.source.coverage))));
  return { depthRasters: depth.length, states: [...states].sort() };
}

/** The flood lookup's inputs for one subject. */
export function floodInputFor(store: DataStore, state: StateCode, lon: number, lat: number, includeGeometry: boolean): FloodInput {
  const dem = rasterAt(store.rastersFor('scores.flood.terrain', state), lon, lat);
  const rain = rasterAt(store.rastersFor('scores.flood.rainfall', state), lon, lat);
  const water = store.vectorsFor('scores.flood.water', state);
  const studies = new Map<string, FloodStudy>();
  const study = (r: RasterRef): FloodStudy => {
    const s = studies.get(r.source.id) ?? { source: r.source.id, name: r.source.title, response_path: 'Ask the council for a flood information certificate for this property.' };
    studies.set(r.source.id, s);
    return s;
  };
  // A study source feeding both paths tells its depth and hazard rasters apart by file layer.
  for (const r of store.rastersFor('scores.flood.study_depth', state)) if (r.file.layer !== 'hazard') study(r).depth = r.path;
  for (const r of store.rastersFor('scores.flood.hazard_class', state)) if (r.file.layer !== 'depth') study(r).hazard = r.path;
  const overlays = floodOverlaySourcesFor(store, state);
  const lines = watercourseLayers(water);
  const bodies = water.map((l) => ({ source: l.source.id, features: bodiesOf(l) })).filter((l) => l.features.length);
  return {
    lon, lat, state,
    dem: dem ? { file: dem.path, source: dem.source.id } : null,
    burnLines: burnLinesFor(store, state, water, lines),
    designRainfall: rain ? { file: rain.path, source: rain.source.id } : null,
    watercourses: lines,
    waterBodies: bodies,
    studies: [...studies.values()],
    studyLibrary: studyLibraryOf(store),
    overlays,
    includeGeometry,
  };
}

/** The contour sources for a state: the national DEM tile under the subject and the state's line datasets. */
export function contourSourcesFor(store: DataStore, state: StateCode | null, lon: number, lat: number): ContourSources {
  const dems = store.rastersFor('surfaces.contours', state).filter((r) => r.source.options?.role === 'national_dem');
  const dem = rasterAt(dems, lon, lat) ?? dems[0] ?? null;
  const vector: VectorContourSource[] = [];
  for (const l of store.vectorsFor('surfaces.contours', state)) {
    if (l.file.layer === 'footprint') continue;
    const opts = l.source.options ?? {};
    const footprintLayer = store.vectorsFor('surfaces.contours', state).find((x) => x.source.id === l.source.id && x.file.layer === 'footprint');
    const fp = footprintLayer?.features[0]?.geometry as Polygon | MultiPolygon | undefined;
    vector.push({ kind: 'vector', id: l.source.id, name: l.source.title, state: l.file.state ?? state ?? '', path: `${store.catalogue.dir}/${l.file.path}`, native_interval_m: Number(opts.native_interval_m ?? 1), floor_m: Number(opts.floor_m ?? opts.native_interval_m ?? 1), ...(fp ? { footprint: fp } : {}) });
  }
  return {
    dem: dem ? { kind: 'dem', id: dem.source.id, name: dem.source.title, path: dem.path, crs: dem.info.crs, floor_m: Number(dem.source.options?.floor_m ?? 1) } : null,
    vector,
  };
}

/** The catalogue source of a layer (for attribution). */
export function sourceOf(layer: { source: CatalogueSource }): CatalogueSource {
  return layer.source;
}

export type { Geometry };
