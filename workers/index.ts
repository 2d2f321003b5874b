/**
 * The engine's worker module: piscina loads this file in every worker thread. Each task is a thin adapter in
 * tasks/ that calls engine functions.
 */
import type { TaskMap } from '../engine/tasks/task-map.js';
import { defineWorker, type TaskImplementations } from './define-worker.js';
import { gridStatsTask } from './tasks/grid-stats.js';
import { noiseGridTask } from './tasks/noise-grid.js';
import { walkabilityTask } from './tasks/walkability.js';
import { handPointTask, handTileTask } from './tasks/hand.js';
import { contoursTask } from './tasks/contours.js';
import { heatSurfaceTask } from './tasks/heat-surface.js';
import { childcareReportTask } from './tasks/childcare-report.js';
import { terrainTileTask } from './tasks/terrain-tile.js';
import { contourTileTask } from './tasks/contour-tile.js';

/** The task table by name: piscina's workers dispatch to it, and an engine thread runs it in place (engine/pool/inline-pool.ts). */
export const TASKS = {
  'grid-stats': gridStatsTask,
  'noise-grid': noiseGridTask,
  walkability: walkabilityTask,
  'hand-point': handPointTask,
  'hand-tile': handTileTask,
  contours: contoursTask,
  'heat-surface': heatSurfaceTask,
  'childcare-report': childcareReportTask,
  'terrain-tile': terrainTileTask,
  'contour-tile': contourTileTask,
} satisfies TaskImplementations<TaskMap>;

export default defineWorker<TaskMap>(TASKS);
