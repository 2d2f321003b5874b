/**
 * The engine's worker pool: the generic pool (engine/pool/) typed with the engine's task map and running
 * the engine's task module (workers/index: built JS, or the TypeScript sources under the test runner).
 */
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from '../pool/worker-pool.js';
import type { TaskMap } from './task-map.js';

/** A pool running the engine's tasks. */
export type EnginePool = WorkerPool<TaskMap>;

/** The engine's task module: the built workers/index.js, or workers/index.ts from sources. */
export function engineTaskModule(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(`../../workers/index.${fromSource ? 'ts' : 'js'}`, import.meta.url);
}

/** Creates a pool for the engine's tasks (threads default to the number of cores). */
export function createEnginePool(options: Omit<WorkerPoolOptions, 'module'> = {}): EnginePool {
  return createWorkerPool<TaskMap>({ ...options, module: engineTaskModule() });
}
