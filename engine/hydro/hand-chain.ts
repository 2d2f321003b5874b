/**
 * The whole hydro chain on one DEM grid: (optional burn-in) -> Priority-Flood+epsilon -> D8 -> flow
 * accumulation -> channels -> HAND, with the time each step took.
 */
import { performance } from 'node:perf_hooks';
import { invalidArgument } from '../errors.js';
import type { Grid } from '../raster/grid.js';
import { burnStreams, DEFAULT_BURN_DEPTH_M } from './burn-streams.js';
import { metricCellSize, type MetricCellSize } from './cell-size.js';
import { channelMask, DEFAULT_CHANNEL_THRESHOLD_KM2, thresholdCells } from './channels.js';
import { flowAccumulation } from './flow-accumulation.js';
import { d8FlowDirections } from './flow-direction.js';
import { heightAboveNearestDrainage } from './hand.js';
import { fillDepressions } from './priority-flood.js';

/** Options for {@link computeHand}. */
export interface HandChainOptions {
  /** Contributing area at which a channel starts, km2; default {@link DEFAULT_CHANNEL_THRESHOLD_KM2} (0.05). */
  thresholdKm2?: number;
  /** Cells of mapped watercourses (1 = burn), same size as the DEM; omit to burn nothing. */
  burnMask?: Uint8Array | null;
  /** Burn depth, metres; default {@link DEFAULT_BURN_DEPTH_M} (5). */
  burnDepth?: number;
}

/** Milliseconds spent in each step. */
export interface HandTimings {
  fill: number;
  directions: number;
  accumulation: number;
  channels: number;
  hand: number;
}

/** Everything the chain produced. */
export interface HandChainResult {
  /** The filled (epsilon) surface flow was routed on, metres. */
  filled: Grid<Float32Array>;
  /** D8 codes (see d8.ts). */
  directions: Grid<Uint8Array>;
  /** Cells draining through each cell, itself included. */
  accumulation: Grid<Uint32Array>;
  /** 1 = channel. */
  channels: Grid<Uint8Array>;
  /** HAND, metres; NaN where no channel is reached inside the grid. */
  hand: Grid<Float32Array>;
  /** Channel cell each cell drains to, or -1. */
  drainage: Int32Array;
  /** Every data cell once, upstream first (the accumulation's order), for further passes along the flow. */
  order: Int32Array;
  /** Data cells that leave the grid before reaching a channel. */
  unresolvedCells: number;
  /** Cells raised by the fill. */
  raisedCells: number;
  /** Metric cell size used for slopes and areas. */
  cellSize: MetricCellSize;
  /** The channel threshold used, km2 and cells. */
  thresholdKm2: number;
  thresholdCells: number;
  /** True when mapped watercourses were burned in. */
  burned: boolean;
  timings: HandTimings;
}

/** Runs the hydro chain on `dem` (Float32 metres, no-data NaN or the grid's no-data value). */
export function computeHand(dem: Grid<Float32Array>, options: HandChainOptions = {}): HandChainResult {
  const thresholdKm2 = options.thresholdKm2 ?? DEFAULT_CHANNEL_THRESHOLD_KM2;
  const cellSize = metricCellSize(dem);
  const minCells = thresholdCells(thresholdKm2, cellSize.x * cellSize.y);
  const burnMask = options.burnMask ?? null;
  if (burnMask && burnMask.length !== dem.data.length) throw invalidArgument('burn_mask', `burn mask has ${burnMask.length} cells, the DEM ${dem.data.length}`);
  const burned = !!burnMask && burnMask.some((v) => v !== 0);

  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const d = now - t;
    t = now;
    return d;
  };
  const source = burned ? burnStreams(dem, burnMask!, options.burnDepth ?? DEFAULT_BURN_DEPTH_M) : dem;
  const { filled, raisedCells } = fillDepressions(source, { epsilon: true });
  const fillMs = lap();
  const directions = d8FlowDirections(filled);
  const dirMs = lap();
  const { accumulation, order } = flowAccumulation(directions);
  const accMs = lap();
  const channels = channelMask(accumulation, minCells, burned ? burnMask : null);
  const chMs = lap();
  // Heights for HAND: the filled surface, with burned cells restored to their own elevation, so the burn
  // depth never shows up as height above drainage.
  let heights = filled;
  if (burned) {
    const z = Float32Array.from(filled.data);
    const orig = dem.data;
    for (let i = 0; i < z.length; i++) if (burnMask![i] && orig[i] > z[i]) z[i] = orig[i];
    heights = { ...filled, data: z };
  }
  const { hand, drainage, unresolvedCells } = heightAboveNearestDrainage(heights, directions, channels, { order });
  const handMs = lap();
  return {
    filled,
    directions,
    accumulation,
    channels,
    hand,
    drainage,
    order,
    unresolvedCells,
    raisedCells,
    cellSize,
    thresholdKm2,
    thresholdCells: minCells,
    burned,
    timings: { fill: fillMs, directions: dirMs, accumulation: accMs, channels: chMs, hand: handMs },
  };
}
