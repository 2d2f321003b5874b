/**
 * `propintel scores`: the context scores of one point (walkability, bushfire, heat island, solar, view
 * quality, contamination, aircraft noise), printed as JSON, from one of two sources:
 *
 * - a dataset directory (`--data DIR`, default the sample world, generated when absent as `lookup` does):
 *   the engine's `scores(lon, lat, { only })` over the catalogue, exactly what the property service serves;
 * - explicit input files (any file flag): loaded by {@link loadScoreInputs}, with the heat surface when
 *   `--landcover` is given. A file that fails to load becomes an `unavailable` input (the score says so and is
 *   degraded), not a crash; a flag left out is a `not_integrated` input.
 */
import { basename, extname, resolve } from 'node:path';
import type { Feature, Geometry } from 'geojson';
import { destination, LONLAT, createWindow } from '../../engine/entry/geo.js';
import { openRaster } from '../../engine/entry/raster.js';
import { buildAnefLayer, type AnefCoverage, buildBushfireLayers, type OfficialOverlayInput, type SubjectIdentity, TABLE_FDIS, type TableFdi, buildContaminationRegister, contaminationSitesFromRows, type RegisterCoverage, REGIONAL_RADIUS_M, unavailableLayer, type MissingLayer, type RasterLayer, AMENITY_CSV_CATEGORIES, amenityPointsFromRows, buildWalkabilityIndexes, crossingPointsFromRows, layerSource, majorWaterGeometries, motorwayGeometries, schoolPointsFromRows, stopPointsFromRows, type AmenitySet, type BarrierInput, type CrossingInput, readHeatSurface, type HeatSurface, SCORES, computeContextScores, type ContextInputs, type ContextScoreKey, type ScoreRegistry } from '../../engine/entry/scores.js';
import { readGeoJsonLayer, readCsvRecords, isStateCode, STATES } from '../../engine/entry/data.js';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/index.js';
import { numberFlag, parseFlags, POINT_FLAGS, requirePointFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

export { CONTEXT_SCORE_KEYS, computeContextScores, type ContextScoreKey } from '../../engine/entry/scores.js';

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

function coverageMap<V extends string>(flag: string, value: string | undefined, allowed: readonly V[]): Record<string, V> {
  const out: Record<string, V> = {};
  for (const part of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [state, cov] = part.split('=');
    if (!state || !allowed.includes(cov as V)) throw new UsageError(`--${flag} takes STATE=${allowed.join('|')} pairs, got ${JSON.stringify(part)}`);
    out[state.toUpperCase()] = cov as V;
  }
  return out;
}

function overlayFlag(v: string): { state: string; file: string; coverage: 'complete' | 'partial' } {
  const m = /^([A-Za-z]+)=(.+?)(?::(complete|partial))?$/.exec(v);
  if (!m) throw new UsageError(`--bushfire-overlay takes STATE=FILE[:complete|partial], got ${JSON.stringify(v)}`);
  return { state: m[1].toUpperCase(), file: m[2], coverage: (m[3] as 'complete' | 'partial' | undefined) ?? 'complete' };
}

const FILE_FLAGS = ['amenities', 'stops', 'schools', 'roads', 'crossings', 'water', 'dem', 'vegetation', 'fire-history', 'lst', 'landcover', 'ghi', 'dni', 'pvout', 'tilt', 'contamination', 'anef'] as const;

const USAGE = [
  'propintel scores [--data DIR] --lon X --lat Y [--state S] [--only KEY,...]',
  'propintel scores --lon X --lat Y [--state S] [--only KEY,...] input files ...',
  '',
  'Prints the context scores of one point as JSON (walkability, bushfire, heat_island, solar, view_quality,',
  'contamination, aircraft_noise). Without input files they come from a dataset directory (--data DIR,',
  `default: the sample world in ${defaultDataDir()}, generated when absent), with the state determined from`,
  'the LGA layers unless --state is given. With input files, a score whose inputs are not given reports them',
  'as not integrated, a file that fails to load is reported unavailable, and --landcover adds surfaces.heat.',
  '',
  '  --data DIR                 dataset directory (not with input files)',
  '  --lon X, --lat Y           the subject, degrees (--lng is accepted for --lon)',
  '  --state S                  VIC, NSW, QLD, WA, SA, TAS, ACT or NT (FDI, registers, overlays)',
  '  --only KEYS                comma-separated score keys (default: all)',
  '  --address TEXT             a resolved address (bushfire subject identity); --on-parcel if on its parcel',
  '  --include-geometry         add walkability walking_areas',
  '  --fdi N                    override the state FDI for the indicative BAL (100, 80, 50 or 40; files only)',
  '  --amenities F  --stops F  --schools F  --crossings F       CSV records',
  '  --roads F  --water F  --vegetation F  --fire-history F  --anef F   GeoJSON layers',
  '  --dem F  --lst F  --landcover F  --ghi F  --dni F  --pvout F  --tilt F   GeoTIFF rasters',
  '  --bushfire-overlay STATE=F[:complete|partial]   official overlay (repeatable; files only)',
  '  --contamination F          register CSV; --contamination-coverage VIC=complete,WA=not_integrated',
  '  --anef-coverage VIC=complete,...   which states\' ANEFs are held',
].join('\n');

/**
 * The command over a list of scores: the registry's (`scoresCommand`), or a list with scores of a library
 * user's own (test/engine/scores/registry.test.ts adds one and sees it here).
 */
export function scoresCommandWith(registry: ScoreRegistry = SCORES): Command {
  return {
  name: 'scores',
  summary: 'compute the context scores of one point from a dataset directory or input files',
  usage: USAGE,
  async run(args, io) {
      const { values } = parseFlags(args, {
        data: { type: 'string' },
        ...POINT_FLAGS,
        state: { type: 'string' },
        only: { type: 'string' },
        address: { type: 'string' },
        'on-parcel': { type: 'boolean' },
        'parcel-id': { type: 'string' },
        'include-geometry': { type: 'boolean' },
        fdi: { type: 'string' },
        'bushfire-overlay': { type: 'string', multiple: true },
        'contamination-coverage': { type: 'string' },
        'anef-coverage': { type: 'string' },
        ...(Object.fromEntries(FILE_FLAGS.map((f) => [f, { type: 'string' as const }])) as Record<(typeof FILE_FLAGS)[number], { type: 'string' }>),
      });
      const { lon, lat } = requirePointFlags(values);
      const only = values.only ? values.only.split(',').map((s) => s.trim()).filter(Boolean) : registry.filter((d) => d.fromFiles).map((d) => d.key);
      const known = registry.map((d) => d.key);
      const unknown = only.filter((k) => !known.includes(k));
      if (unknown.length) throw new UsageError(`unknown score key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; choose from ${known.join(', ')}`);
      const fdi = values.fdi === undefined ? undefined : numberFlag('fdi', values.fdi, 100, { integer: true });
      if (fdi !== undefined && !(TABLE_FDIS as readonly number[]).includes(fdi)) throw new UsageError(`--fdi must be one of ${TABLE_FDIS.join(', ')}, got ${fdi}`);
      const identity: SubjectIdentity | undefined = values.address ? { kind: 'address', address: values.address, parcelId: values['parcel-id'] ?? null, onParcel: !!values['on-parcel'] } : undefined;
      const fileFlags = [...FILE_FLAGS, 'bushfire-overlay', 'contamination-coverage', 'anef-coverage', 'fdi'].filter((k) => values[k as keyof typeof values] !== undefined);
      if (values.data !== undefined && fileFlags.length) throw new UsageError(`--data reads the dataset catalogue; it cannot be combined with --${fileFlags.join(', --')}`);
      if (!FILE_FLAGS.some((k) => values[k] !== undefined)) {
        if (fileFlags.length) throw new UsageError(`--${fileFlags.join(', --')} only apply with input files; the dataset catalogue says what is held`);
        const stateFlag = values.state?.toUpperCase();
        if (stateFlag !== undefined && !isStateCode(stateFlag)) throw new UsageError(`--state must be one of ${STATES.join(', ')}, got ${JSON.stringify(values.state)}`);
        const dir = resolve(values.data ?? defaultDataDir());
        if (values.data === undefined) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
        const engine = await createEngine({ datasets: dir, ...(registry === SCORES ? {} : { scores: registry }) });
        try {
          const r = await engine.scores(lon, lat, { only: only as ContextScoreKey[], state: stateFlag, identity, includeGeometry: values['include-geometry'] });
          io.stdout(`${JSON.stringify({ query: { lon, lat, state: r.state }, scores: r.scores, degraded: r.degraded }, null, 2)}\n`);
        } finally {
          await engine.close();
        }
        return EXIT_OK;
      }
      const files: ScoreInputFiles = {
        amenities: values.amenities,
        stops: values.stops,
        schools: values.schools,
        roads: values.roads,
        crossings: values.crossings,
        water: values.water,
        dem: values.dem,
        vegetation: values.vegetation,
        fireHistory: values['fire-history'],
        lst: values.lst,
        landcover: values.landcover,
        ghi: values.ghi,
        dni: values.dni,
        pvout: values.pvout,
        tilt: values.tilt,
        contamination: values.contamination,
        anef: values.anef,
        bushfireOverlays: (values['bushfire-overlay'] ?? []).map(overlayFlag),
        contaminationCoverage: coverageMap('contamination-coverage', values['contamination-coverage'], ['complete', 'partial', 'not_integrated'] as const),
        anefCoverage: coverageMap('anef-coverage', values['anef-coverage'], ['complete', 'partial', 'not_integrated'] as const),
      };
      const dataOnly = only.filter((k) => !registry.find((d) => d.key === k)?.fromFiles);
      if (dataOnly.length) throw new UsageError(`${dataOnly.join(', ')} ${dataOnly.length > 1 ? 'are' : 'is'} computed from a dataset only (--data), not from input files`);
      const inputs = await loadScoreInputs(files, lon, lat);
      const state = values.state?.toUpperCase() ?? null;
      const scores = await computeContextScores(inputs, { lon, lat, state, identity, only: only as ContextScoreKey[], includeGeometry: values['include-geometry'], fdi: fdi as TableFdi | undefined }, registry);
      const heat = inputs.landCover && 'class_legend' in inputs.landCover ? inputs.landCover : null;
      const surfaces = heat ? { heat } : undefined;
      io.stdout(`${JSON.stringify({ query: { lon, lat, state }, scores, ...(surfaces ? { surfaces } : {}) }, null, 2)}\n`);
      return EXIT_OK;
    },
  };
}

/** `propintel scores` over the registry's scores. */
export const scoresCommand = scoresCommandWith();
