/**
 * The inputs of the file-read scores loaded from files given by name (`propintel scores` with input files,
 * or a library caller holding files rather than a dataset): records and vectors whole, rasters by window
 * around the subject, the heat surface when a land-cover raster is given. A file that fails to load becomes
 * an `unavailable` input (the score says so and is degraded), not a crash; a file not given is a
 * `not_integrated` input. {@link computeContextScores} (context-scores.ts) then computes the scores over them.
 */
import { basename, extname } from 'node:path';
import type { Feature, Geometry } from 'geojson';
import { LONLAT } from '../geo/crs.js';
import { destination } from '../geo/distance.js';
import { createWindow } from '../geo/window.js';
import { openRaster } from '../raster/geotiff-reader.js';
import { unavailableLayer, type MissingLayer, type RasterLayer } from '../score-kit/layer-input.js';
import { readHeatSurface, type HeatSurface } from '../surfaces/heat/heat-surface.js';
import { readGeoJsonLayer } from '../vector/geojson-reader.js';
import { readCsvRecords } from '../vector/records.js';
import { buildAnefLayer, type AnefCoverage } from './aircraft-noise/anef-contours.js';
import { buildBushfireLayers, type OfficialOverlayInput } from './bushfire/bushfire-layers.js';
import { buildContaminationRegister, contaminationSitesFromRows, type RegisterCoverage } from './contamination/contamination-register.js';
import type { ContextInputs } from './context-scores.js';
import { REGIONAL_RADIUS_M } from './heat-island/heat-island-score.js';
import {
  AMENITY_CSV_CATEGORIES,
  amenityPointsFromRows,
  buildWalkabilityIndexes,
  crossingPointsFromRows,
  layerSource,
  majorWaterGeometries,
  motorwayGeometries,
  schoolPointsFromRows,
  stopPointsFromRows,
  type AmenitySet,
  type BarrierInput,
  type CrossingInput,
} from './walkability/walkability-layers.js';

/** Every input file the context scores read (all optional; a missing one is not integrated). */
export interface ScoreInputFiles {
  /** Amenities CSV `amenity_id,lon,lat,name,amenity,shop,leisure,healthcare,crowd_sourced,source`. */
  amenities?: string;
  /** Public-transport stops CSV `stop_id,lon,lat,name,mode,source`. */
  stops?: string;
  /** Schools CSV `school_id,name,lon,lat,school_type,school_sector,year_levels,source`. */
  schools?: string;
  /** Roads GeoJSON with `road_class`. */
  roads?: string;
  /** Crossing points CSV `crossing_id,lon,lat,kind,source`. */
  crossings?: string;
  /** Major water GeoJSON with `major`. */
  water?: string;
  /** DEM GeoTIFF (Float32 metres). */
  dem?: string;
  /** Official bushfire overlays, one per state. */
  bushfireOverlays?: { state: string; file: string; coverage: 'complete' | 'partial' }[];
  /** Vegetation GeoJSON with `veg_class`. */
  vegetation?: string;
  /** Fire history GeoJSON with `fire_year`, `fire_type`. */
  fireHistory?: string;
  /** Land-surface temperature GeoTIFF (Float32 degrees C). */
  lst?: string;
  /** Land cover GeoTIFF (Uint8 WorldCover codes). */
  landcover?: string;
  ghi?: string;
  dni?: string;
  pvout?: string;
  tilt?: string;
  /** Contamination register CSV `site_id,lon,lat,name,status,register,state,source`. */
  contamination?: string;
  contaminationCoverage?: Record<string, RegisterCoverage>;
  /** ANEF contours GeoJSON. */
  anef?: string;
  anefCoverage?: Record<string, AnefCoverage>;
}

/** The loaded inputs, ready for the score functions. */
export type LoadedScoreInputs = ContextInputs;

/** A source id for a file the catalogue has not named: its base name without extension. */
export function fileSourceId(file: string): string {
  return basename(file, extname(file));
}

/** The lon/lat box of the disc of `radius` metres around (lon, lat). */
function discBox(lon: number, lat: number, radius: number): [number, number, number, number] {
  return [destination(lon, lat, radius, 270)[0], destination(lon, lat, radius, 180)[1], destination(lon, lat, radius, 90)[0], destination(lon, lat, radius, 0)[1]];
}

async function rasterAround(file: string | undefined, lon: number, lat: number, radius: number): Promise<RasterLayer | MissingLayer | null> {
  if (!file) return null;
  try {
    const r = await openRaster(file);
    try {
      const grid = await r.readBBox(discBox(lon, lat, radius), { crs: LONLAT });
      return grid ? { grid, source: fileSourceId(file) } : { status: 'unavailable', reason: `${file}: does not cover the subject` };
    } finally {
      await r.close();
    }
  } catch (err) {
    return unavailableLayer(err);
  }
}

async function attempt<T>(file: string | undefined, load: (file: string) => Promise<T>): Promise<T | MissingLayer | null> {
  if (!file) return null;
  try {
    return await load(file);
  } catch (err) {
    return unavailableLayer(err);
  }
}

async function csvRows(file: string): Promise<Record<string, string>[]> {
  return (await readCsvRecords(file)).rows;
}

async function features(file: string): Promise<Feature<Geometry>[]> {
  return (await readGeoJsonLayer(file)).features;
}

/** Loads every given file around the subject: records and vectors whole, rasters by window. */
export async function loadScoreInputs(files: ScoreInputFiles, lon: number, lat: number): Promise<ContextInputs> {
  const amenitySet = async (name: string, categories: AmenitySet['categories'], file: string | undefined, parse: (rows: Record<string, string>[], file: string) => AmenitySet['points']): Promise<AmenitySet> => ({
    name,
    categories,
    points: (await attempt(file, async (f) => parse(await csvRows(f), f))) ?? { status: 'not_integrated', reason: `no ${name} file given` },
  });
  const barrier = async (file: string | undefined, pick: (fs: Feature<Geometry>[]) => Geometry[]): Promise<BarrierInput | MissingLayer | null> =>
    attempt(file, async (f) => {
      const fs = await features(f);
      return { geometries: pick(fs), source: layerSource(fs, fileSourceId(f)) };
    });
  const window = createWindow(lon, lat);
  const [amenities, stops, schools, motorways, majorWater, crossings] = await Promise.all([
    amenitySet('amenities', AMENITY_CSV_CATEGORIES, files.amenities, amenityPointsFromRows),
    amenitySet('stops', ['public_transport'], files.stops, stopPointsFromRows),
    amenitySet('schools', ['school'], files.schools, schoolPointsFromRows),
    barrier(files.roads, motorwayGeometries),
    barrier(files.water, majorWaterGeometries),
    attempt(files.crossings, async (f): Promise<CrossingInput> => {
      const rows = await csvRows(f);
      return { points: crossingPointsFromRows(rows, f), source: [...new Set(rows.map((r) => r.source).filter(Boolean))].sort().join(',') || fileSourceId(f) };
    }),
  ]);
  const officialOverlays: Record<string, OfficialOverlayInput | MissingLayer> = {};
  for (const o of files.bushfireOverlays ?? []) {
    officialOverlays[o.state.toUpperCase()] = (await attempt(o.file, async (f) => ({ coverage: o.coverage, source: fileSourceId(f), features: await features(f) }))) as OfficialOverlayInput | MissingLayer;
  }
  const [vegetation, fireHistory, dem, lst, ghi, dni, pvout, tilt, contamination, anef] = await Promise.all([
    attempt(files.vegetation, async (f) => ({ features: await features(f), source: fileSourceId(f) })),
    attempt(files.fireHistory, async (f) => ({ features: await features(f), source: fileSourceId(f) })),
    rasterAround(files.dem, lon, lat, window.halfWidth * Math.SQRT2 + 100),
    rasterAround(files.lst, lon, lat, REGIONAL_RADIUS_M + 2000),
    rasterAround(files.ghi, lon, lat, 1000),
    rasterAround(files.dni, lon, lat, 1000),
    rasterAround(files.pvout, lon, lat, 3000),
    rasterAround(files.tilt, lon, lat, 10_000),
    attempt(files.contamination, async (f) => contaminationSitesFromRows(await csvRows(f), f)),
    attempt(files.anef, async (f) => ({ features: await features(f), file: f })),
  ]);
  const landCover = await attempt(files.landcover, async (f): Promise<HeatSurface> => {
    const r = await openRaster(f);
    try {
      return await readHeatSurface(r, window, fileSourceId(f));
    } finally {
      await r.close();
    }
  });
  return {
    window,
    walkability: buildWalkabilityIndexes({ amenitySets: [amenities, stops, schools], motorways, majorWater, crossings: crossings as CrossingInput | MissingLayer | null }),
    bushfire: buildBushfireLayers({ officialOverlays, vegetation, fireHistory }),
    dem,
    lst,
    landCover,
    solar: { ghi, dni, pvout, optimumTilt: tilt },
    contamination: buildContaminationRegister(contamination ?? [], files.contaminationCoverage ?? {}),
    anef: buildAnefLayer(anef ?? { features: [], file: 'none' }, files.anefCoverage ?? {}),
  };
}
