/**
 * Which catalogue files the windowed store (windowed-store.ts) reads per window, and how far around a window
 * each must reach so that a lookup answers exactly as it does over the whole dataset.
 *
 * A path's reach is the farthest a feature or record can be from the subject point and still change any part
 * of the answer (traced through every consumer: engine/property/blocks/, the scores and surfaces, the domain
 * models). Paths whose consumers need a whole layer are held whole, as the in-memory store holds them:
 * - the noise model (roads, rail, counters, loggers, ANEF): one network per state, its MGA zone from the
 *   whole state, every logger of the state in its validation, counters that set a whole road's traffic;
 * - walkability inputs (amenities, stops, schools, crossings, water): the state's indexes, whose positions
 *   appear in the answer (`nearest_index`, fallback ids) and whose tree order breaks equal distances;
 * - schools (a catchment names its school, which may be far away), LGAs (the tile bounds, the state of a
 *   point), the national contamination register, transport and utility layers searched tens of km out;
 * - records without coordinates (census by suburb), contour footprints (`features[0]`), rasters (headers);
 * - any path not listed here.
 *
 * Contour line files are only named: the contour worker reads them itself around the subject. Address and DA
 * records are only stored ({@link STORED_PATHS}).
 *
 * A file feeding several paths is read by window only when every path is, with the largest reach. Covering
 * lookups reach as far as the parcel's farthest vertex; windows guarantee {@link COVERING_REACH_M}, and a
 * lookup on a larger parcel reads a window around that parcel instead (engine.ts).
 */
import type { CatalogueSource, SourceFile } from '../catalogue/catalogue.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';

/**
 * The parcel radius every window covers for covering lookups, metres (an urban lot's farthest vertex is
 * within 50 m of its address point); a larger parcel reads a window around it (property-lookup.ts).
 */
export const COVERING_REACH_M = 100;
/**
 * The nearby-zone radius every window covers (the default `nearby_zone_radius_m`); a lookup asking for more
 * reads a window around its parcel instead (property-lookup.ts).
 */
export const ZONES_NEARBY_REACH_M = 200;

/** Reach by path, metres, for the paths read by window (evidence in the module comment and the README). */
export const WINDOW_REACH_M: Partial<Record<PayloadPath, number>> = {
  'resolved.parcel': COVERING_REACH_M,
  // Zones nearby: the default radius beyond the parcel (a larger radius reads a window around the parcel).
  'planning.zone': ZONES_NEARBY_REACH_M + COVERING_REACH_M,
  'planning.zones_nearby': ZONES_NEARBY_REACH_M + COVERING_REACH_M,
  'planning.overlay': COVERING_REACH_M,
  'planning.heritage': COVERING_REACH_M,
  'planning.easement': COVERING_REACH_M,
  'planning.growth_area': COVERING_REACH_M,
  'hazards.flood': COVERING_REACH_M,
  // The bushfire block covers the parcel; the score asks only what contains the point.
  'hazards.bushfire': COVERING_REACH_M,
  'environment.protected_areas': COVERING_REACH_M,
  'environment.epbc_mnes': COVERING_REACH_M,
  'environment.aboriginal_heritage': COVERING_REACH_M,
  'environment.soils': COVERING_REACH_M,
  'environment.bioregions': COVERING_REACH_M,
  'environment.soil_regional': COVERING_REACH_M,
  'environment.landfill': COVERING_REACH_M,
  'environment.groundwater_restricted': COVERING_REACH_M,
  'environment.groundwater_vulnerability': COVERING_REACH_M,
  'environment.historical_business_nearby': 200 + COVERING_REACH_M,
  'environment.threatened_species': 1_000 + COVERING_REACH_M,
  'environment.landfill_nearby': 1_000 + COVERING_REACH_M,
  'environment.licensed_activity': COVERING_REACH_M,
  'environment.licensed_activity_nearby': 500 + COVERING_REACH_M,
  'poi.school_catchments': COVERING_REACH_M,
  'utilities.water_main': 2_000,
  'utilities.sewer_main': 2_000,
  'administrative.electorate': COVERING_REACH_M,
  'administrative.state': COVERING_REACH_M,
  'public_housing.sa2': COVERING_REACH_M,
  'public_housing.sa1': COVERING_REACH_M,
  'other_layers.sa2_approval': COVERING_REACH_M,
  // Bushfire score: vegetation within 700 m (BAL candidates 110 m), fire history within 2,000 m.
  'scores.bushfire.vegetation': 700,
  'scores.bushfire.fire_history': 2_000,
};

/** How the windowed store holds a file. */
export type FilePolicy = { mode: 'window'; reachM: number } | { mode: 'whole' } | { mode: 'named' } | { mode: 'stored' };

/**
 * Paths whose records only feed an index built from every row: the address index (its own file on disk,
 * engine/address/address-disk.ts) and the DA store. Their rows are kept in the layer file for those indexes
 * and windows list the files empty.
 */
export const STORED_PATHS: readonly PayloadPath[] = ['resolved.address', 'development_applications'];

/** The policy for one catalogue file (see the module comment). */
export function filePolicy(source: CatalogueSource, file: SourceFile): FilePolicy {
  const format = file.format ?? source.format;
  if (format === 'geotiff') return { mode: 'whole' };
  // A contour source's footprint is read as `features[0]`, wherever the subject is.
  if (file.layer === 'footprint') return { mode: 'whole' };
  // Contour lines: the contour worker reads the line files itself, around the subject; the store only names
  // them (held as empty layers, never read by the engine's thread).
  if (source.paths.length === 1 && source.paths[0] === 'surfaces.contours' && (format === 'geojson' || format === 'geopackage' || format === 'shapefile')) return { mode: 'named' };
  if (source.paths.length && source.paths.every((p) => STORED_PATHS.includes(p)) && (format === 'csv' || format === 'jsonl' || format === 'gnaf')) return { mode: 'stored' };
  let reach = 0;
  for (const p of source.paths) {
    const r = WINDOW_REACH_M[p];
    if (r === undefined) return { mode: 'whole' };
    reach = Math.max(reach, r);
  }
  return source.paths.length ? { mode: 'window', reachM: reach } : { mode: 'whole' };
}
