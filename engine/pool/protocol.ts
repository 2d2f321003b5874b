/**
 * The message format between the pool and its workers. Workers never throw across the boundary: a custom
 * Error subclass does not survive `postMessage`, so they return `{ ok: false, error }` and the pool rebuilds
 * the {@link EngineError}.
 */
import type { SerializedError } from '../errors.js';

/** A task map: task name -> [input, output]. */
export type AnyTaskMap = { [name: string]: [unknown, unknown] };

/** What the pool sends a worker. */
/**
 * A message every worker answers without a task of its own: it holds its worker `input.holdMs` milliseconds and
 * answers null. The pool sends one per thread at once to start every worker ({@link WorkerPool.startWorkers}).
 */
export const START_WORKER = '__start_worker';

export interface TaskMessage<N extends string = string, I = unknown> {
  task: N;
  input: I;
}

/** What a worker sends back. */
export type TaskReply<O = unknown> = { ok: true; value: O } | { ok: false; error: SerializedError };
