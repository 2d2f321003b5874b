/**
 * The scores of spec 2.6 at a point: each requested descriptor of the registry (engine/scores/registry.ts)
 * computed in isolation over one run that reads the dataset for it (each raster once, the DEM once at the
 * widest radius any requested score asks for, the heat surface once, on the pool). A score that fails is
 * listed in `degraded` and left out, never a confident zero.
 */
import type { StateCode } from '../catalogue/states.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { DataStore } from '../data/dataset-store.js';
import { createWindow, type Window } from '../geo/window.js';
import type { HandPointInput, HandPointResult } from '../hydro/hand-at-point.js';
import type { HandTileStore } from '../hydro/hand-tile-store.js';
import type { TaskRunner } from '../pool/worker-pool.js';
import { floodInputFor } from '../property/inputs/domain-inputs.js';
import { rasterAt, type RasterCache } from '../property/inputs/raster-cache.js';
import { SCORES, type ScoreModelsNeeded, type ScoreOptionsNeeded, type ScoreRegistry } from '../scores/registry.js';
import type { AnyScoreDescriptor, RasterPick, ScoreRaster, ScoreRun } from '../score-kit/descriptor.js';
import { unavailableLayer } from '../score-kit/layer-input.js';
import type { Scores } from '../scores/score-types.js';
import type { WalkabilityScore } from '../scores/walkability/walkability-score.js';
import type { WalkabilityTaskInput } from '../scores/walkability/walkability-task-input.js';
import type { HeatSurface, HeatSurfaceTaskInput } from '../surfaces/heat/heat-surface.js';
import type { FloodAssessment } from '../scores/flood/assess-flood.js';
import type { ScoresOptions, ScoresResult } from '../property/engine-calls.js';
import type { StateModels } from './state-models.js';

/** What the scores read: the dataset, a pool that runs walkability and HAND, open rasters and the models. */
export interface ScoresContext {
  store: DataStore;
  pool: TaskRunner<{ walkability: [WalkabilityTaskInput, WalkabilityScore]; 'hand-point': [HandPointInput, HandPointResult]; 'heat-surface': [HeatSurfaceTaskInput, HeatSurface] }>;
  rasters: RasterCache;
  models: StateModels;
  /** Stored HAND tiles for the flood score; without, HAND is computed around each subject. */
  handTiles?: HandTileStore;
  /** The scores this engine computes (default the registry's). */
  registry?: ScoreRegistry;
}

/** How far out the DEM is read for the requested scores, metres (0: not read). */
function demRadius(asked: readonly AnyScoreDescriptor[]): number {
  const own = Math.max(0, ...asked.filter((d) => d.dem && !d.dem.shared).map((d) => d.dem!.radiusM));
  // A shared reader widens a read another score makes; alone, it reads its own window.
  return own ? Math.max(own, ...asked.filter((d) => d.dem?.shared).map((d) => d.dem!.radiusM)) : 0;
}

/** Reads once per run: the first call starts the read, later calls share it. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= read());
}

/**
 * The engine's run for one subject: reads by payload path from the catalogue, for the subject's state (with no
 * state, the state-held models are not-integrated inputs, never another state's layers).
 */
function engineRun(ctx: ScoresContext, window: Window, state: StateCode | null, asked: readonly AnyScoreDescriptor[], options: ScoresOptions): ScoreRun<ScoreModelsNeeded, ScoreOptionsNeeded> {
  const { lon, lat } = window;
  const refOf = (path: PayloadPath, pick?: RasterPick) => rasterAt(ctx.store.rastersFor(path, state, pick?.layer).filter((r) => !pick?.unit || r.source.options?.unit === pick.unit), lon, lat);
  const radius = demRadius(asked);
  // One DEM read serves view quality and the terrain slope of bushfire and walkability, so the catalogue
  // names it once, under scores.view_quality.
  const dem = once(async (): Promise<ScoreRaster | undefined> => (radius ? ctx.rasters.disc(refOf('scores.view_quality'), lon, lat, radius) : undefined));
  const heat = once(async () => {
    const ref = refOf('surfaces.heat');
    if (!ref) return null;
    try {
      // Built on the pool: its land-cover read and resample are the heaviest main-thread work of a lookup otherwise.
      return await ctx.pool.run('heat-surface', { file: ref.path, source: ref.source.id, lon, lat }, { signal: options.signal });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      return unavailableLayer(err);
    }
  });
  const models: ScoreModelsNeeded = {
    noiseNetwork: (s) => ctx.models.noiseNetwork(s),
    floodInput: (s, x, y, geometry) => floodInputFor(ctx.store, s, x, y, geometry),
    pool: ctx.pool,
    handTiles: ctx.handTiles,
  };
  return {
    lon,
    lat,
    state,
    window,
    options,
    dem,
    raster: (path, radiusM, pick) => ctx.rasters.disc(refOf(path, pick), lon, lat, radiusM),
    rasterFile: (path) => {
      const ref = refOf(path);
      return ref ? { file: ref.path, source: ref.source.id } : null;
    },
    heatSurface: heat,
    model: (kind) => ctx.models.get(kind, state),
    models,
    aside: {},
  };
}

/**
 * The scores of spec 2.6 at a point: each computed in isolation, a failing one listed in `degraded` and
 * left out of `scores` (never a confident zero).
 */
export async function computeScores(ctx: ScoresContext, lon: number, lat: number, state: StateCode | null, options: ScoresOptions = {}): Promise<ScoresResult> {
  const registry = (ctx.registry ?? SCORES) as readonly AnyScoreDescriptor[];
  const only = options.only ? new Set<string>(options.only) : null;
  const asked = registry.filter((d) => !only || only.has(d.key));
  const run = engineRun(ctx, createWindow(lon, lat), state, asked, options);
  const scores: Record<string, unknown> = {};
  const degraded: string[] = [];
  await Promise.all(asked.map(async (d) => {
    try {
      scores[d.key] = await d.score(run);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      degraded.push(`scores.${d.key}`);
    }
  }));
  const ordered: Record<string, unknown> = {};
  for (const d of asked) if (d.key in scores) ordered[d.key] = scores[d.key];
  return { state, scores: ordered as Partial<Scores>, degraded: degraded.sort(), floodHazards: run.aside.floodHazards as FloodAssessment['hazards'] | undefined };
}
