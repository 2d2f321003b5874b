/**
 * The engine's worker pool: the generic pool (engine/pool/) typed with the engine's task map and running
 * the engine's task module (workers/index: built JS, or the TypeScript sources under the test runner); or,
 * inside an engine thread, the same tasks run in place (engine/pool/inline-pool.ts).
 */
import { InlinePool, type TaskTable } from '../pool/inline-pool.js';
import { createWorkerPool, type TaskRunner, type WorkerPoolOptions } from '../pool/worker-pool.js';
import type { TaskMap } from './task-map.js';

/** What runs the engine's tasks: a pool of worker threads, or the calling thread. */
export type EnginePool = TaskRunner<TaskMap>;

/** The engine's task module: the built workers/index.js, or workers/index.ts from sources. */
export function engineTaskModule(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(`../../workers/index.${fromSource ? 'ts' : 'js'}`, import.meta.url);
}

/** Creates a pool for the engine's tasks (threads default to the number of cores). */
export function createEnginePool(options: Omit<WorkerPoolOptions, 'module'> = {}): EnginePool {
  return createWorkerPool<TaskMap>({ ...options, module: engineTaskModule() });
}

/** The engine's tasks run in the calling thread (an engine thread's: it is already off the answering thread). */
export function createInlineEnginePool(options: { taskTimeoutMs?: number } = {}): EnginePool {
  // Loaded by URL, as a worker loads it: the engine never imports workers/ statically.
  const tasks = async () => ((await import(engineTaskModule().href)) as { TASKS: TaskTable<TaskMap> }).TASKS;
  return new InlinePool<TaskMap>({ tasks, taskTimeoutMs: options.taskTimeoutMs });
}
