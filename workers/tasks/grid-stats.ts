/** Task `grid-stats`: statistics of a grid's valid cells, optionally handing the grid back. */
import type { GridStatsInput, GridStatsOutput } from '../../engine/tasks/task-map.js';
import { gridStats } from '../../engine/raster/grid-stats.js';

export function gridStatsTask(input: GridStatsInput): GridStatsOutput {
  const stats = gridStats(input.grid);
  return input.returnGrid ? { stats, grid: input.grid } : { stats };
}
