/**
 * Tasks run in the calling thread, with the pool's contract: the same task table, the same errors
 * (`EngineError` with the task's code; `TIMEOUT` past the limit; `ABORTED` when the signal fires), and the
 * same interface ({@link TaskRunner}). An engine thread (engine/threads/) is itself one of the threads that
 * compute, so its heavy steps run in place instead of being posted to yet another thread: no copy of the
 * inputs, no second isolate, and a lookup is one thread's work from start to end.
 *
 * A task that computes synchronously cannot be stopped part-way in its own thread: its time limit is applied
 * when it yields (an asynchronous read) or finishes. The engine thread's owner stops a thread stuck past its
 * call's limit as a whole (engine-threads.ts).
 */
import { deserializeError, EngineError, isEngineError, serializeError } from '../errors.js';
import type { AnyTaskMap } from './protocol.js';
import type { RunOptions, TaskRunner } from './worker-pool.js';

/** A task table: name -> function of its input. */
export type TaskTable<TM extends AnyTaskMap> = { [K in keyof TM]: (input: TM[K][0]) => TM[K][1] | Promise<TM[K][1]> };

/** Options of {@link InlinePool}. */
export interface InlinePoolOptions<TM extends AnyTaskMap> {
  /** Loads the task table (once, on the first task). */
  tasks: () => Promise<TaskTable<TM>>;
  /** Default per-task time limit in ms; default 30,000. */
  taskTimeoutMs?: number;
}

/** Runs the tasks of `TM` in this thread (see the module comment). */
export class InlinePool<TM extends AnyTaskMap> implements TaskRunner<TM> {
  readonly threads = 0;
  readonly queueSize = 0;
  private table?: Promise<TaskTable<TM>>;
  private destroyed = false;
  private readonly timeoutMs: number;

  constructor(private readonly options: InlinePoolOptions<TM>) {
    this.timeoutMs = options.taskTimeoutMs ?? 30_000;
  }

  async run<K extends keyof TM & string>(name: K, input: TM[K][0], options: RunOptions = {}): Promise<TM[K][1]> {
    if (this.destroyed) throw new EngineError('UNAVAILABLE', `worker pool is closed; cannot run ${name}`, { task: name });
    if (options.signal?.aborted) throw new EngineError('ABORTED', `task ${name} was cancelled`, { task: name });
    const table = await (this.table ??= this.options.tasks());
    const fn = table[name];
    if (typeof fn !== 'function') throw new EngineError('INVALID_ARGUMENT', `unknown task ${JSON.stringify(name)}`, { parameter: 'task' });
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let stop: ((err: EngineError) => void) | undefined;
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    const timer = setTimeout(() => stop!(new EngineError('TIMEOUT', `task ${name} exceeded its ${timeoutMs} ms limit and was stopped`, { task: name, timeoutMs })), timeoutMs);
    timer.unref?.();
    const onAbort = () => stop!(new EngineError('ABORTED', `task ${name} was cancelled`, { task: name }));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([Promise.resolve().then(() => fn(input)), stopped]);
    } catch (err) {
      if (isEngineError(err)) {
        err.details.task ??= name;
        throw err;
      }
      // What a worker would send back for a throw that is not an EngineError: TASK_FAILED with its message.
      const e = deserializeError(serializeError(err));
      e.details.task ??= name;
      throw e;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
  }
}
