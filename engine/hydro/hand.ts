/**
 * Height Above the Nearest Drainage (HAND; Rennó et al. 2008, "HAND, a new terrain descriptor using
 * SRTM-DEM: Mapping terra-firme rainforest environments in Amazonia", Remote Sensing of Environment
 * 112:3469-3481; Nobre et al. 2011, "Height Above the Nearest Drainage - a hydrologically relevant new
 * terrain model", Journal of Hydrology 404:13-29): each cell's elevation minus the elevation of the first
 * channel cell its D8 flow path reaches. The drainage cell's index is kept, so the "nearest drainage" can be
 * reported (where it is, how high, how large its catchment).
 *
 * Cells are visited downstream-first (the accumulation order backwards), so a cell's receiver already knows
 * its drainage: one pass, no path following. A cell whose path leaves the grid before reaching a channel
 * has no drainage inside the grid: HAND is NaN and the drainage index -1 (the edge effect that the wider
 * buffered analysis window of hand-at-point.ts keeps away from the subject).
 */
import { invalidArgument } from '../errors.js';
import type { Grid } from '../raster/grid.js';
import { d8Offsets } from './d8.js';
import { flowAccumulation } from './flow-accumulation.js';

/** The result of {@link heightAboveNearestDrainage}. */
export interface HandResult {
  /** HAND, metres (Float32, NaN on no-data and where no channel is reached). */
  hand: Grid<Float32Array>;
  /** For each cell, the flat index of the channel cell it drains to, or -1. */
  drainage: Int32Array;
  /** Data cells whose flow path leaves the grid before reaching a channel. */
  unresolvedCells: number;
}

/** Options for {@link heightAboveNearestDrainage}. */
export interface HandOptions {
  /** The upstream-first order from {@link flowAccumulation}; computed when absent. */
  order?: Int32Array;
}

/**
 * HAND of every cell: `heights[i] - heights[drainage[i]]`, clamped at 0 (a cell can sit below its drainage
 * only when a mapped watercourse was burned in above the true valley floor; it is then at drainage level).
 * `heights` is normally the filled surface, so the value is never negative without burning.
 */
export function heightAboveNearestDrainage(heights: Grid<Float32Array>, directions: Grid<Uint8Array>, channels: Grid<Uint8Array>, options: HandOptions = {}): HandResult {
  const { width: w, height: h } = directions;
  const n = w * h;
  for (const [name, g] of [['heights', heights], ['channels', channels]] as const) {
    if (g.width !== w || g.height !== h || g.data.length !== n) throw invalidArgument(name, `${name} grid is ${g.width} x ${g.height}, the directions ${w} x ${h}`);
  }
  const order = options.order ?? flowAccumulation(directions).order;
  const dir = directions.data;
  const ch = channels.data;
  const z = heights.data;
  const off = d8Offsets(w);
  const drainage = new Int32Array(n).fill(-1);
  const hand = new Float32Array(n).fill(NaN);
  let unresolved = 0;
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k];
    let d: number;
    if (ch[i] === 1) d = i;
    else {
      const c = dir[i];
      d = c < 8 ? drainage[i + off[c]] : -1;
    }
    drainage[i] = d;
    if (d >= 0) {
      const v = z[i] - z[d];
      hand[i] = v > 0 ? v : 0;
    } else {
      unresolved++;
    }
  }
  return {
    hand: { width: w, height: h, data: hand, noData: NaN, transform: directions.transform, crs: directions.crs },
    drainage,
    unresolvedCells: unresolved,
  };
}
