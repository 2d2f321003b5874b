/**
 * A real Victorian (and one New South Wales) catalogue from the public files in `../shared/realdata`
 * (`propintel realdata`): Vicmap Planning zones and overlays of the City of Yarra (2019) and Greater Bendigo
 * (2024), Vicmap Transport roads around the Melbourne CBD, PTV stops, Victorian school locations, an inner
 * Melbourne DEM and the Merewether (Newcastle) 1 m DEM. Files the engine reads as published are copied as
 * they are; three are converted, and each conversion is stated in the source's notes:
 *
 * - roads: Vicmap Transport has no road hierarchy field in this extract, so `road_class` is inferred from
 *   the road type (FREEWAY and RAMP motorway, HIGHWAY arterial, ROAD, PARADE, BOULEVARD and ESPLANADE
 *   collector, other named types local; trails, walks, paths and foot bridges left out); no traffic volumes;
 * - schools: the School Locations CSV with `school_id` (School_No), `lon` (X) and `lat` (Y) named as the
 *   engine reads them;
 * - PTV stops: the GeoJSON points as a CSV of `stop_id`, `lon`, `lat`.
 *
 * Paths without a real source here (addresses, parcels, DAs, the environment layers, ...) are absent from
 * the catalogue, so lookups say `not_assessed` for them. The licences are those PROVENANCE.md states; several
 * files are for tests only, so the catalogue is written to a directory of the user's, never the repository.
 */
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import type { CatalogueSource } from '../engine/catalogue/catalogue.js';
import { csvField } from '../engine/vector/csv.js';
import { readRecords } from '../engine/vector/records.js';

/** The files the catalogue is built from, relative to the realdata folder. */
export const REALDATA_FILES = {
  yarraZones: 'zones/yarra_vicmap_plan_zone_2019.geojson',
  yarraOverlays: 'zones/yarra_vicmap_plan_overlay_2019.geojson',
  bendigoZones: 'zones/bendigo_vicplan_zones_2024.geojson',
  bendigoOverlays: 'zones/bendigo_vicplan_overlays_2024.geojson',
  roads: 'roads/melbourne_central_vicmap_roads.geojson',
  ptvStops: 'transport/melbourne_ptv_stops_2020.geojson',
  schools: 'schools/vic_school_locations_2025_secondary_and_p12.csv',
  melbourneDem: 'dem/inner_melbourne_mapdeck_mesh_20m_mga55.tif',
  merewetherDem: 'dem/merewether_nsw_1m_dem.tif',
  states: 'boundaries/australia_states_simplified.geojson',
  bendigoLga: 'boundaries/greater_bendigo_lga.geojson',
} as const;

/** Real points the command looks up, with what is there. */
export const REAL_POINTS = [
  { name: 'Fitzroy (Brunswick Street)', lat: -37.7985, lng: 144.9784 },
  { name: 'Collingwood (Smith Street)', lat: -37.8020, lng: 144.9838 },
  { name: 'Richmond (Swan Street)', lat: -37.8247, lng: 144.9937 },
  { name: 'Bendigo (Pall Mall)', lat: -36.7571, lng: 144.2794 },
  { name: 'Merewether, Newcastle NSW', lat: -32.9417, lng: 151.7421 },
] as const;

type Def = Omit<CatalogueSource, 'obligation_status' | 'geometry_redistribution' | 'licence'> & Partial<Pick<CatalogueSource, 'obligation_status' | 'geometry_redistribution' | 'licence'>>;

const VICMAP_PLANNING = 'Department of Transport and Planning, Victoria (Vicmap Planning)';

function src(d: Def): CatalogueSource {
  return { licence: 'CC BY 4.0', obligation_status: 'attribution_required', geometry_redistribution: true, ...d };
}

/** Where the two Vicmap Planning extracts come from (their attribution and currency). */
type PlanningOrigin = Pick<CatalogueSource, 'attribution' | 'currency'>;
const YARRA: PlanningOrigin = {
  attribution: 'Vicmap Planning (c) State of Victoria (Department of Transport and Planning), CC BY 4.0',
  currency: { last_fetched_at: '2019-03-14T00:00:00Z', established: 'Vicmap DataMart extract (Shapefile, GDA94) converted to GeoJSON', repull: 'not re-pulled (a 2019 snapshot)' },
};
const BENDIGO: PlanningOrigin = {
  attribution: 'VicPlan planning scheme zones and overlays (c) State of Victoria, CC BY 4.0',
  currency: { last_fetched_at: '2024-01-01T00:00:00Z', established: 'VicPlan layers exported by a third-party web map (qgis2web) and merged', repull: 'not re-pulled' },
};

/**
 * A Vicmap Planning source: zones (read with the `vicmap_planning_zone` schema) or overlays (the overlay
 * schema; LSIO, SBO and FO count as verified flood mapping: they are the gazetted planning controls).
 */
function planning(kind: 'zones' | 'overlays', id: string, title: string, origin: PlanningOrigin, file: string, notes: string): CatalogueSource {
  const zones = kind === 'zones';
  return src({
    id, title, ...origin, notes,
    paths: zones ? ['planning.zone', 'planning.zones_nearby'] : ['planning.overlay', 'hazards.flood', 'hazards.bushfire'],
    coverage: { VIC: 'partial' }, custodian: VICMAP_PLANNING, format: 'geojson',
    schema: zones ? 'vicmap_planning_zone' : 'vicmap_planning_overlay',
    ...(zones ? {} : { options: { flood_verified: true } }),
    files: [{ path: file, state: 'VIC' }],
  });
}

/** Vicmap road types mapped to the noise model's classes (module comment); null leaves a feature out. */
export function vicmapRoadClass(roadType: unknown, featureType: unknown): 'motorway' | 'arterial' | 'collector' | 'local' | null {
  if (featureType === 'foot_bridge') return null;
  const t = typeof roadType === 'string' ? roadType.toUpperCase() : '';
  if (!t || ['TRAIL', 'WALK', 'PATH', 'TRACK', 'ARCADE', 'WALKWAY', 'FOOTWAY'].includes(t)) return null;
  if (t === 'FREEWAY' || t === 'RAMP') return 'motorway';
  if (t === 'HIGHWAY') return 'arterial';
  if (['ROAD', 'PARADE', 'BOULEVARD', 'ESPLANADE'].includes(t)) return 'collector';
  return 'local';
}

interface Fc {
  type: 'FeatureCollection';
  features: { type: 'Feature'; properties: Record<string, unknown> | null; geometry: { type: string; coordinates: unknown } | null }[];
}

/** A polygon or multipolygon without its rings of fewer than four positions (and polygons left without an outer ring). */
export function dropCollapsedRings(g: { type: string; coordinates: unknown }): { type: string; coordinates: unknown } {
  const polygon = (rings: number[][][]) => {
    if (!rings.length || rings[0].length < 4) return null;
    return [rings[0], ...rings.slice(1).filter((r) => r.length >= 4)];
  };
  if (g.type === 'Polygon') return { type: 'Polygon', coordinates: polygon(g.coordinates as number[][][]) ?? [] };
  if (g.type === 'MultiPolygon') return { type: 'MultiPolygon', coordinates: (g.coordinates as number[][][][]).map(polygon).filter((p): p is number[][][] => p !== null) };
  return g;
}

/** What {@link buildRealCatalogue} wrote. */
export interface RealCatalogueReport {
  dir: string;
  sources: { id: string; paths: string[]; files: string[]; features?: number }[];
}

/**
 * Writes the catalogue and its files into `out` from the realdata folder `from`. Every missing input file is
 * named at once.
 */
export async function buildRealCatalogue(from: string, out: string): Promise<RealCatalogueReport> {
  const root = resolve(from);
  const missing = Object.values(REALDATA_FILES).filter((f) => !existsSync(join(root, f)));
  if (missing.length) throw new Error(`${root} lacks ${missing.length} file(s) the real catalogue needs: ${missing.join(', ')}`);
  const dir = resolve(out);
  mkdirSync(join(dir, 'vic'), { recursive: true });
  mkdirSync(join(dir, 'nsw'), { recursive: true });
  const copy = (rel: string, to: string) => {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(join(root, rel), join(dir, to));
    return to;
  };
  const report: RealCatalogueReport = { dir, sources: [] };

  // Roads: the noise model's fields, inferred from the road type.
  const roads = JSON.parse(readFileSync(join(root, REALDATA_FILES.roads), 'utf8')) as Fc;
  const kept = roads.features.flatMap((f, i) => {
    const p = f.properties ?? {};
    const cls = vicmapRoadClass(p.ROAD_TYPE, p.FTYPE_CODE);
    if (!cls || !f.geometry) return [];
    return [{ type: 'Feature', properties: { road_id: String(p.UFI ?? p.PFI ?? `road-${i}`), name: p.EZI_RDNAME ?? null, road_class: cls, vicmap_road_type: p.ROAD_TYPE ?? null, source: 'vic_vicmap_roads' }, geometry: f.geometry }];
  });
  writeFileSync(join(dir, 'vic/roads.geojson'), JSON.stringify({ type: 'FeatureCollection', features: kept }));

  // PTV stops and schools: CSVs with the engine's column names.
  const stops = JSON.parse(readFileSync(join(root, REALDATA_FILES.ptvStops), 'utf8')) as Fc;
  const stopLines = ['stop_id,lon,lat'];
  for (const f of stops.features) {
    const c = f.geometry?.type === 'Point' ? (f.geometry.coordinates as number[]) : null;
    if (c) stopLines.push(`${Number(f.properties?.stop_id ?? 0)},${c[0]},${c[1]}`);
  }
  writeFileSync(join(dir, 'vic/ptv_stops.csv'), `${stopLines.join('\n')}\n`);
  const schools = await readRecords(join(root, REALDATA_FILES.schools), { format: 'csv' });
  const ws = createWriteStream(join(dir, 'vic/schools.csv'));
  ws.write('school_id,name,school_type,sector,lga,lon,lat\n');
  let schoolRows = 0;
  for (const r of schools.rows) {
    const lon = Number(r.X), lat = Number(r.Y);
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) continue;
    ws.write(`${[r.School_No, r.School_Name, r.School_Type, r.Education_Sector, r.LGA_Name, lon, lat].map(csvField).join(',')}\n`);
    schoolRows++;
  }
  ws.end();
  await once(ws, 'finish');

  // State outlines: the simplification left some rings of two or three positions, which are not rings.
  const states = JSON.parse(readFileSync(join(root, REALDATA_FILES.states), 'utf8')) as Fc;
  mkdirSync(join(dir, 'national'), { recursive: true });
  writeFileSync(join(dir, 'national/states.geojson'), JSON.stringify({ ...states, features: states.features.map((f) => ({ ...f, geometry: f.geometry && dropCollapsedRings(f.geometry) })) }));

  const sources: CatalogueSource[] = [
    src({
      id: 'aus_states', title: 'State and territory boundaries (ABS, simplified)', paths: ['administrative.state'], coverage: { NSW: 'complete', VIC: 'complete', QLD: 'complete', SA: 'complete', WA: 'complete', TAS: 'complete', NT: 'complete', ACT: 'complete' },
      custodian: 'Australian Bureau of Statistics (ASGS state and territory boundaries)', attribution: 'Based on ABS ASGS boundaries, CC BY 4.0',
      currency: { last_fetched_at: '2016-01-01T00:00:00Z', established: 'a simplified GeoJSON of the ABS boundaries (rowanhogan/australian-states)', repull: 'not re-pulled' },
      format: 'geojson', files: [{ path: 'national/states.geojson' }],
      notes: 'Simplified outlines: they locate a point\'s state, a few hundred metres off at the coast and borders. Rings the simplification collapsed (fewer than four positions) are left out.',
    }),
    src({
      id: 'vic_bendigo_lga', title: 'Greater Bendigo local government area (ASGS 2024)', paths: ['administrative.lga'], coverage: { VIC: 'partial' },
      custodian: 'Australian Bureau of Statistics (ASGS LGA 2024)', attribution: 'Based on ABS ASGS LGA 2024 boundaries, CC BY 4.0',
      currency: { last_fetched_at: '2024-07-01T00:00:00Z', established: 'exported by a third-party web map (qgis2web)', repull: 'not re-pulled' },
      format: 'geojson', files: [{ path: copy(REALDATA_FILES.bendigoLga, 'vic/bendigo_lga.geojson'), state: 'VIC' }],
      notes: 'Greater Bendigo only: other council areas are not held.',
    }),
    planning('zones', 'vic_yarra_zones', 'Vicmap Planning zones, City of Yarra and 1 km around (2019 extract)', YARRA, copy(REALDATA_FILES.yarraZones, 'vic/yarra_zones.geojson'), 'Zones of the City of Yarra and 1 km around it only, as gazetted in March 2019.'),
    planning('overlays', 'vic_yarra_overlays', 'Vicmap Planning overlays, City of Yarra and 1 km around (2019 extract)', YARRA, copy(REALDATA_FILES.yarraOverlays, 'vic/yarra_overlays.geojson'), 'Overlays of the City of Yarra and 1 km around it, March 2019; LSIO, SBO and FO are the flood overlays, BMO the bushfire one.'),
    planning('zones', 'vic_bendigo_zones', 'VicPlan zones, Greater Bendigo (2024, incomplete)', BENDIGO, copy(REALDATA_FILES.bendigoZones, 'vic/bendigo_zones.geojson'), 'Greater Bendigo only, and without the C1Z, MUZ, NRZ, SUZ and ACZ zones, which the exporting map left out: a point in one of those zones finds no zone.'),
    planning('overlays', 'vic_bendigo_overlays', 'VicPlan overlays, Greater Bendigo (2024; no LSIO)', BENDIGO, copy(REALDATA_FILES.bendigoOverlays, 'vic/bendigo_overlays.geojson'), 'Greater Bendigo only; the LSIO layer is missing from the export, so flood coverage rests on SBO and FO.'),
    src({
      id: 'vic_vicmap_roads', title: 'Vicmap Transport roads, central Melbourne (about 5.7 km around the CBD)', paths: ['scores.noise.roads', 'surfaces.noise'], coverage: { VIC: 'partial' },
      custodian: 'Department of Transport and Planning, Victoria (Vicmap Transport)', attribution: 'Vicmap Transport (c) State of Victoria, CC BY 4.0 (via data.gov.au)',
      currency: { last_fetched_at: '2020-01-01T00:00:00Z', established: 'data.gov.au extract packaged with the mapdeck R package', repull: 'not re-pulled' },
      format: 'geojson', files: [{ path: 'vic/roads.geojson', state: 'VIC' }],
      notes: 'This extract has no road hierarchy or traffic volumes: road_class is inferred from the road type (FREEWAY and RAMP motorway, HIGHWAY arterial, ROAD, PARADE, BOULEVARD and ESPLANADE collector, other named streets local), and noise uses class-default traffic.',
    }),
    src({
      id: 'vic_ptv_stops', title: 'Public transport stops, Greater Melbourne (PTV GTFS, 2020)', paths: ['transport.pt_stop'], coverage: { VIC: 'partial' },
      custodian: 'Public Transport Victoria (GTFS)', attribution: 'PTV GTFS (c) State of Victoria, CC BY 4.0',
      currency: { last_fetched_at: '2020-01-01T00:00:00Z', established: 'GTFS stops (via matsim-melbourne), reprojected to lon/lat', repull: 'not re-pulled' },
      format: 'csv', files: [{ path: 'vic/ptv_stops.csv', state: 'VIC' }],
      notes: 'Stop ids and positions only: the extract keeps no stop names or modes.',
    }),
    src({
      id: 'vic_schools', title: 'School locations 2025, secondary and P-12 only', paths: ['poi.schools_500m'], coverage: { VIC: 'partial' },
      custodian: 'Department of Education, Victoria', attribution: 'School Locations 2025 (c) State of Victoria (Department of Education), CC BY 4.0',
      currency: { last_fetched_at: '2025-01-01T00:00:00Z', established: 'DataVic CSV, filtered to secondary and P-12 schools by a third party', repull: 'not re-pulled' },
      format: 'csv', files: [{ path: 'vic/schools.csv', state: 'VIC' }],
      notes: 'Secondary and P-12 schools only: primary schools are not held.',
    }),
    src({
      id: 'vic_dem_inner_melbourne', title: 'Inner Melbourne elevation, 20 m grid', paths: ['surfaces.contours', 'scores.flood.terrain', 'scores.view_quality'], coverage: { VIC: 'partial' },
      custodian: 'Unknown upstream (a TIN shipped with the mapdeck R package)', licence: 'uncertain: tests only', obligation_status: 'attribution_required',
      attribution: 'Elevation mesh from the mapdeck R package (SymbolixAU), source undocumented; gridded with gdal_grid',
      currency: { last_fetched_at: '2020-01-01T00:00:00Z', established: 'R mesh3d TIN interpolated to a 20 m grid (EPSG:28355)', repull: 'not re-pulled' },
      format: 'geotiff', files: [{ path: copy(REALDATA_FILES.melbourneDem, 'vic/inner_melbourne_dem_20m.tif'), state: 'VIC', crs: 'EPSG:28355' }],
      notes: 'A coarse, smoothed model (20 m, probably from web terrain tiles): contours and HAND show the valleys, not street-level detail.',
      options: { role: 'national_dem', floor_m: 1, resolution_m: 20 },
    }),
    src({
      id: 'nsw_dem_merewether', title: 'Merewether (Newcastle) 1 m elevation', paths: ['surfaces.contours', 'scores.flood.terrain', 'scores.view_quality'], coverage: { NSW: 'partial' },
      custodian: 'Water Research Laboratory, UNSW (ARR Project 15 benchmark, via Geoscience Australia ANUGA)', licence: 'publishable (topography1.lic); no CC licence: tests only', obligation_status: 'attribution_required',
      attribution: 'Merewether topography (c) Water Research Laboratory, UNSW; ARR Project 15 benchmark data',
      currency: { last_fetched_at: '2020-01-01T00:00:00Z', established: 'ESRI ASCII grid converted to GeoTIFF (EPSG:32756)', repull: 'not re-pulled' },
      format: 'geotiff', files: [{ path: copy(REALDATA_FILES.merewetherDem, 'nsw/merewether_dem_1m.tif'), state: 'NSW', crs: 'EPSG:32756' }],
      notes: 'About 320 x 420 m around an overland flow path in Merewether (the 2007 flash flood).',
      options: { role: 'national_dem', floor_m: 1, resolution_m: 1 },
    }),
  ];
  const catalogue = {
    catalogue_version: 1,
    name: 'propintel real data: inner Melbourne, Greater Bendigo and Merewether',
    description: 'Built by `propintel realdata` from public files (see each source). Several licences are uncertain: for testing, not redistribution.',
    sources,
  };
  writeFileSync(join(dir, 'catalogue.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
  for (const s of sources) report.sources.push({ id: s.id, paths: s.paths, files: s.files.map((f) => f.path), ...(s.id === 'vic_vicmap_roads' ? { features: kept.length } : s.id === 'vic_ptv_stops' ? { features: stopLines.length - 1 } : s.id === 'vic_schools' ? { features: schoolRows } : {}) });
  return report;
}
