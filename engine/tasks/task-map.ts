/**
 * Every task the engine's workers run, with its input and output types. Task implementations live in
 * `workers/tasks/`, one file each; `workers/index.ts` registers them under these names. The pool itself
 * (engine/pool/) knows no task: the engine makes its pool with {@link createEnginePool}.
 */
import type { Grid } from '../raster/grid.js';
import type { GridStats } from '../raster/grid-stats.js';
import type { NoiseGridInput, NoiseGridOutput } from '../noise/noise-grid-task.js';
import type { WalkabilityTaskInput } from '../scores/walkability/walkability-task-input.js';
import type { WalkabilityScore } from '../scores/walkability/walkability-score.js';
import type { HandPointInput, HandPointResult } from '../hydro/hand-at-point.js';
import type { HandTileInput, HandTileResult } from '../hydro/hand-tile-store.js';
import type { ContoursRequest } from '../surfaces/contours/contours-surface.js';
import type { PackedContoursLayer } from '../surfaces/contours/contours-layer.js';
import type { HeatSurface, HeatSurfaceTaskInput } from '../surfaces/heat/heat-surface.js';
import type { ReportJob } from '../childcare/report/report.js';
import type { ContourTile, ContourTileInput } from '../tiles/contour-tiles.js';
import type { TerrainTileInput } from '../tiles/terrain-tiles.js';

/** Input of the `grid-stats` task: a Float32 grid, transferred, copied or shared. */
export interface GridStatsInput {
  grid: Grid<Float32Array>;
  /** Send the grid back with the result (moved, not copied), so a transferred buffer can be reused. */
  returnGrid?: boolean;
}

/** Output of the `grid-stats` task. */
export interface GridStatsOutput {
  stats: GridStats;
  grid?: Grid<Float32Array>;
}

export type { TerrainTileInput } from '../tiles/terrain-tiles.js';

/** The engine's task map. Later modules add their tasks here. */
export type TaskMap = {
  /** Statistics of a grid's valid cells (used by the transfer benchmark and the pool's own tests). */
  'grid-stats': [GridStatsInput, GridStatsOutput];
  /** Lden energy of every road and rail segment at every node of a noise grid (engine/noise/noise-grid.ts). */
  'noise-grid': [NoiseGridInput, NoiseGridOutput];
  /** `scores.walkability` for one subject over indexes shared by buffer. */
  walkability: [WalkabilityTaskInput, WalkabilityScore];
  /** HAND at a point: reads the DEM window, runs fill -> D8 -> accumulation -> channels -> HAND (cached per tile). */
  'hand-point': [HandPointInput, HandPointResult];
  /** One HAND tile of a DEM, computed with its margin and written to its file (engine/hydro/hand-tile-store.ts). */
  'hand-tile': [HandTileInput, HandTileResult];
  /**
   * The contours layer for one subject (spec 2.7): the source choice, the DEM read or line selection, the
   * isolines and the limits. The lines come back packed in typed arrays (moved, not cloned); turn them into
   * GeoJSON with `unpackContours`.
   */
  contours: [ContoursRequest, PackedContoursLayer];
  /** The heat land-cover surface of a subject's window (engine/surfaces/heat/heat-surface.ts), read and classed off the main thread. */
  'heat-surface': [HeatSurfaceTaskInput, HeatSurface];
  /** A childcare report (PDF or HTML) rendered from its prepared blocks and map drawing (engine/childcare/report/). */
  'childcare-report': [ReportJob, Uint8Array];
  /** A terrain tile's Terrarium PNG: its pixel centres' heights from its DEMs (engine/tiles/terrain-tiles.ts). */
  'terrain-tile': [TerrainTileInput, Uint8Array];
  /** One contour tile traced, clipped and encoded as MVT (engine/tiles/contour-tiles.ts). */
  'contour-tile': [ContourTileInput, ContourTile];
};

/** A task name of the engine's task map. */
export type TaskName = keyof TaskMap & string;
