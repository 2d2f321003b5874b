/** Summary statistics of a grid's valid cells (no-data excluded). */
import type { Grid, TypedArray } from './grid.js';
import { isNoData } from './grid.js';

/** Count, min, max, mean and sum of a grid's valid cells. */
export interface GridStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  sum: number;
}

/** Statistics over the valid cells of `grid`; min, max and mean are NaN when no cell is valid. */
export function gridStats(grid: Pick<Grid<TypedArray>, 'data' | 'noData'>): GridStats {
  const { data } = grid;
  let count = 0, sum = 0, min = Infinity, max = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (isNoData(grid, v)) continue;
    count++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return count ? { count, min, max, mean: sum / count, sum } : { count: 0, min: NaN, max: NaN, mean: NaN, sum: 0 };
}
