/**
 * The scores of spec 2.6 at a point, each computed in isolation: noise from the state's network, flood from
 * HAND on a worker, and the context scores from the rasters and models their keys read (walkability on a
 * worker while this thread computes the others). A score that fails is listed in `degraded` and left out,
 * never a confident zero.
 */
import type { StateCode } from '../catalogue/states.js';
import type { DataStore } from '../data/dataset-store.js';
import { EngineError } from '../errors.js';
import { createWindow, type Window } from '../geo/window.js';
import type { HandPointInput, HandPointResult } from '../hydro/hand-at-point.js';
import { noiseScore } from '../noise/noise-score.js';
import type { TaskRunner } from '../pool/worker-pool.js';
import { floodInputFor } from '../property/inputs/domain-inputs.js';
import { rasterAt, type RasterCache } from '../property/inputs/raster-cache.js';
import { SCORE_KEYS, type ScoreKey } from '../scores/component.js';
import { computeContextScores, CONTEXT_SCORE_KEYS, type ContextInputs, type ContextScoreKey } from '../scores/context-scores.js';
import { assessFlood, type FloodAssessment } from '../scores/flood/assess-flood.js';
import { REGIONAL_RADIUS_M } from '../scores/heat-island/heat-island-score.js';
import { unavailableLayer } from '../scores/layer-input.js';
import type { Scores } from '../scores/score-types.js';
import { labelWalkability } from '../scores/walkability/walkability-labels.js';
import { SLOPE_RADIUS_M, walkSlopeFromDem, type WalkabilityScore } from '../scores/walkability/walkability-score.js';
import type { WalkabilityTaskInput } from '../scores/walkability/walkability-task-input.js';
import type { HeatSurface, HeatSurfaceTaskInput } from '../surfaces/heat/heat-surface.js';
import type { ScoresOptions, ScoresResult } from './engine-calls.js';
import type { StateModels } from './state-models.js';
import type { HandTileStore } from '../hydro/hand-tile-store.js';

/** What the scores read: the dataset, a pool that runs walkability and HAND, open rasters and the models. */
export interface ScoresContext {
  store: DataStore;
  pool: TaskRunner<{ walkability: [WalkabilityTaskInput, WalkabilityScore]; 'hand-point': [HandPointInput, HandPointResult]; 'heat-surface': [HeatSurfaceTaskInput, HeatSurface] }>;
  rasters: RasterCache;
  models: StateModels;
  /** Stored HAND tiles for the flood score; without, HAND is computed around each subject. */
  handTiles?: HandTileStore;
}

/**
 * Radius of the DEM read for view quality, metres: its 1,500 m openness radius plus a margin of cells for
 * interpolation (the read is the lon/lat box of the disc, so the grid's corners reach further still).
 */
const VIEW_DEM_RADIUS_M = 1500 + 200;
/**
 * Radius of the DEM read when bushfire is the widest user, metres: its terrain slope lattice (250 m at 25 m
 * spacing, one node of margin) and the effective-slope profiles (at most 120 m out), plus margin.
 */
const BUSHFIRE_DEM_RADIUS_M = 250 + 2 * 25 + 100;
/** Radius of the DEM read that also serves walkability's regional slope (its disc plus lattice margin), metres. */
const WALK_DEM_RADIUS_M = SLOPE_RADIUS_M + 150 + 100;

/**
 * The context scores' inputs around a subject, for the keys asked for only: a raster is read (and the
 * 300 x 300 heat surface built) only when a requested score reads it, and the DEM only as far out as the
 * widest requested score looks. Inputs no requested score reads are left null (never read as "not
 * integrated" because no score sees them). With no state the state-held models are not-integrated inputs
 * (engine/property/inputs/domain-inputs.ts), never another state's layers.
 */
async function contextInputs(ctx: ScoresContext, window: Window, state: StateCode | null, keys: ReadonlySet<ContextScoreKey>): Promise<ContextInputs> {
  const { lon, lat } = window;
  // One DEM read serves view quality and the terrain slope of bushfire and walkability, so the catalogue
  // names it once, under scores.view_quality.
  const reader = keys.has('view_quality') ? VIEW_DEM_RADIUS_M : keys.has('bushfire') ? BUSHFIRE_DEM_RADIUS_M : 0;
  // Walkability's slope comes from this read when the DEM is read anyway; alone, its worker reads the DEM.
  const demRadius = reader && keys.has('walkability') ? Math.max(reader, WALK_DEM_RADIUS_M) : reader;
  const demRef = demRadius ? rasterAt(ctx.store.rastersFor('scores.view_quality', state), lon, lat) : null;
  const heat = keys.has('heat_island');
  const lstRef = heat ? rasterAt(ctx.store.rastersFor('scores.heat_island', state).filter((r) => r.source.options?.unit === 'degC'), lon, lat) : null;
  const lcRef = heat ? rasterAt(ctx.store.rastersFor('surfaces.heat', state), lon, lat) : null;
  const solar = keys.has('solar');
  const solarRef = (layer: string) => (solar ? rasterAt(ctx.store.rastersFor('scores.solar', state, layer), lon, lat) : null);
  const [dem, lst, ghi, dni, pvout, optimumTilt, landCover] = await Promise.all([
    ctx.rasters.disc(demRef, lon, lat, demRadius),
    ctx.rasters.disc(lstRef, lon, lat, REGIONAL_RADIUS_M + 2000),
    ctx.rasters.disc(solarRef('ghi'), lon, lat, 1000),
    ctx.rasters.disc(solarRef('dni'), lon, lat, 1000),
    ctx.rasters.disc(solarRef('pvout'), lon, lat, 3000),
    ctx.rasters.disc(solarRef('tilt'), lon, lat, 10_000),
    heatSurface(ctx, window, lcRef ? { path: lcRef.path, source: lcRef.source.id } : null),
  ]);
  const built = ctx.models.built();
  return {
    window,
    bushfire: keys.has('bushfire') ? ctx.models.bushfireLayers(state) : undefined,
    dem,
    walkSlope: demRadius && keys.has('walkability') ? walkSlopeFromDem(dem, lon, lat) : undefined,
    lst,
    landCover,
    solar: { ghi, dni, pvout, optimumTilt },
    contamination: keys.has('contamination') ? ctx.models.contaminationRegister() : built.contamination,
    anef: keys.has('aircraft_noise') ? ctx.models.anefLayer() : built.anef,
  };
}

/**
 * `scores.walkability` on the worker pool (DESIGN.md: walkability bands run on the pool): the indexes travel
 * as SharedArrayBuffers (attached, not copied); the regional slope is the one worked out from the DEM read
 * for other scores, or (`slope` undefined) the worker reads the DEM window itself. The nearest amenities'
 * names are added back here. A failed task throws (the score is degraded, never cached).
 */
async function walkabilityOnPool(ctx: ScoresContext, lon: number, lat: number, state: StateCode | null, includeGeometry: boolean, slope: ContextInputs['walkSlope'], signal?: AbortSignal): Promise<WalkabilityScore> {
  const ix = ctx.models.walkability(state);
  const shared = ctx.models.sharedWalkability(state);
  const demRef = slope === undefined ? rasterAt(ctx.store.rastersFor('scores.view_quality', state), lon, lat) : null;
  const input: WalkabilityTaskInput = demRef
    ? { indexes: shared, lon, lat, includeGeometry, dem: { file: demRef.path, source: demRef.source.id } }
    : { indexes: shared, lon, lat, includeGeometry, slope: slope ?? null };
  return labelWalkability(await ctx.pool.run('walkability', input, { signal }), ix);
}

/** The heat surface of the subject's window, built on the pool (its land-cover read and resample are the heaviest main-thread work of a lookup otherwise). */
async function heatSurface(ctx: ScoresContext, window: Window, ref: { path: string; source: string } | null): Promise<HeatSurface | ReturnType<typeof unavailableLayer> | null> {
  if (!ref) return null;
  try {
    return await ctx.pool.run('heat-surface', { file: ref.path, source: ref.source, lon: window.lon, lat: window.lat });
  } catch (err) {
    return unavailableLayer(err);
  }
}

/**
 * The scores of spec 2.6 at a point: each computed in isolation, a failing one listed in `degraded` and
 * left out of `scores` (never a confident zero).
 */
export async function computeScores(ctx: ScoresContext, lon: number, lat: number, state: StateCode | null, options: ScoresOptions = {}): Promise<ScoresResult> {
  const only = new Set(options.only ?? SCORE_KEYS);
  const window = createWindow(lon, lat);
  const scores: Partial<Scores> = {};
  const degraded: string[] = [];
  let floodHazards: FloodAssessment['hazards'] | undefined;
  const guard = async (key: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (err) {
      if (options.signal?.aborted) throw err;
      degraded.push(`scores.${key}`);
    }
  };
  const jobs: Promise<void>[] = [];
  if (only.has('noise')) {
    jobs.push(guard('noise', async () => {
      const net = state ? await ctx.models.noiseNetwork(state) : null;
      if (!net) throw new EngineError('UNAVAILABLE', `no road network is held for ${state ?? 'an undetermined state'}`, { component: 'scores.noise' });
      scores.noise = noiseScore(net, lon, lat, { state, now: options.now, method: options.noiseMethod });
    }));
  }
  if (only.has('flood')) {
    jobs.push(guard('flood', async () => {
      if (!state) throw new EngineError('UNAVAILABLE', 'the flood score needs the subject\'s state', { component: 'scores.flood' });
      const r = await assessFlood(floodInputFor(ctx.store, state, lon, lat, !!options.includeGeometry), { pool: ctx.pool, signal: options.signal, handTiles: ctx.handTiles });
      scores.flood = r.score;
      floodHazards = r.hazards;
    }));
  }
  const contextKeys = CONTEXT_SCORE_KEYS.filter((k) => only.has(k));
  if (contextKeys.length) {
    jobs.push((async () => {
      const keys = new Set<ContextScoreKey>(contextKeys);
      let inputs: ContextInputs;
      try {
        inputs = await contextInputs(ctx, window, state, keys);
      } catch (err) {
        if (options.signal?.aborted) throw err;
        degraded.push(...contextKeys.map((k) => `scores.${k}`));
        return;
      }
      // Walkability runs on the pool while this thread computes the others.
      const walk = keys.has('walkability')
        ? guard('walkability', async () => {
          scores.walkability = await walkabilityOnPool(ctx, lon, lat, state, !!options.includeGeometry, inputs.walkSlope, options.signal);
        })
        : null;
      for (const key of keys) {
        if (key === 'walkability') continue;
        try {
          Object.assign(scores, computeContextScores(inputs, { lon, lat, state, identity: options.identity, only: [key], includeGeometry: options.includeGeometry }));
        } catch {
          degraded.push(`scores.${key}`);
        }
      }
      await walk;
    })());
  }
  await Promise.all(jobs);
  const ordered: Partial<Scores> = {};
  for (const k of SCORE_KEYS) if (k in scores) (ordered as Record<ScoreKey, unknown>)[k] = scores[k];
  return { state, scores: ordered, degraded: degraded.sort(), floodHazards };
}

