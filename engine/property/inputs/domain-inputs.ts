/**
 * Adapters from the loaded datasets to the inputs the engine builds beside the scores' own models (each score's
 * folder builds its models: walkability-model.ts and the like): the state at a point, the noise network, the
 * flood inputs and the contour sources.
 * Each reads the catalogue by payload path and state, so the same code serves the sample world and real data.
 */
import type { Feature, Geometry, LineString, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import type { CatalogueSource } from '../../catalogue/catalogue.js';
import { STATES, type StateCode } from '../../catalogue/states.js';
import { mayMeet, type DataStore, type RasterRef, type VectorLayer } from '../../data/dataset-store.js';
import { buildNoiseNetwork, type NoiseNetwork } from '../../noise/noise-network.js';
import { parseAnefFeatures, parseCounterRecords, parseLoggerRecords, parseRailFeatures, parseRoadFeatures } from '../../noise/noise-inputs.js';
import type { FloodInput, FloodStudy } from '../../scores/flood/assess-flood.js';
import type { FloodOverlaySource } from '../../scores/flood/flood-overlays.js';
import type { StudyLibrary } from '../../scores/flood/flood-score.js';
import type { ContourSources, VectorContourSource } from '../../surfaces/contours/sources.js';
import { rasterAt } from './raster-cache.js';
import { burnLines, type BurnLines } from '../../hydro/hand-tile-store.js';
import { lineSetFromFeatures } from '../../hydro/line-set.js';

const fileName = (l: { file: { path: string } }) => l.file.path;

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
