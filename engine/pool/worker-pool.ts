/**
 * The one place the engine creates its piscina pool.
 *
 * `run(name, input, { signal, transfer, timeoutMs })` sends `{ task, input }` to a worker (transferring the
 * listed buffers), and resolves to the task's output or rejects with an {@link EngineError}: the task's own
 * error code when it failed cleanly, `TIMEOUT` when it ran past its limit (the worker running it is
 * terminated), `ABORTED` when the caller's signal fired, and `WORKER_CRASHED` when the worker died. Callers
 * turn those into a degraded component, never a crashed request.
 *
 * The worker module is the built `workers/index.js` next to this file's build output; when the engine runs
 * from TypeScript sources (tests, tsx) it is `workers/index.ts`, loaded through a small bootstrap that
 * registers tsx inside the worker thread.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { deserializeError, EngineError } from '../errors.js';
import { START_WORKER, type AnyTaskMap, type TaskMessage, type TaskReply } from './protocol.js';

/** Options for {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** The task module (a URL or path) whose default export is the task table (see define-worker.ts). */
  module: URL | string;
  /** Worker threads; default the number of cores. */
  threads?: number;
  /** Default per-task time limit in ms; default 30,000. */
  taskTimeoutMs?: number;
  /** Idle workers are stopped after this many ms; default 60,000. */
  idleTimeoutMs?: number;
}

/** Options for one task. */
export interface RunOptions {
  /** Cancels the task (it fails with `ABORTED`). */
  signal?: AbortSignal;
  /** Buffers to transfer to the worker instead of copying; they are detached in the caller afterwards. */
  transfer?: readonly ArrayBuffer[];
  /** Time limit for this task in ms; overrides the pool's default. */
  timeoutMs?: number;
}

function isAbortError(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as Error).name === 'AbortError';
}

/**
 * What runs the tasks of `TM`: a pool of worker threads ({@link WorkerPool}), or the calling thread itself
 * (inline-pool.ts, inside an engine thread that is already off the answering thread).
 */
export interface TaskRunner<TM extends AnyTaskMap> {
  /** Worker threads running now (0 when tasks run in the calling thread). */
  readonly threads: number;
  /** Tasks waiting for a free worker. */
  readonly queueSize: number;
  /** Runs task `name` with `input`; rejects with an {@link EngineError} as {@link WorkerPool.run} describes. */
  run<K extends keyof TM & string>(name: K, input: TM[K][0], options?: RunOptions): Promise<TM[K][1]>;
  /** Stops; later runs fail with `UNAVAILABLE`. */
  destroy(): Promise<void>;
  /** Starts every worker now rather than when tasks first overlap (a pool of worker threads). */
  startWorkers?(): Promise<void>;
}

/** A typed pool of worker threads running the tasks of `TM`. */
export class WorkerPool<TM extends AnyTaskMap> implements TaskRunner<TM> {
  private readonly piscina: Piscina;
  private readonly timeoutMs: number;
  private destroyed = false;
  /** The most worker threads it runs. */
  readonly maxThreads: number;

  constructor(options: WorkerPoolOptions) {
    const mod = options.module;
    const href = mod instanceof URL ? mod.href : mod.startsWith('file:') ? mod : new URL(`file://${mod}`).href;
    const fromTs = href.endsWith('.ts');
    const threads = Math.max(1, options.threads ?? availableParallelism());
    this.maxThreads = threads;
    this.timeoutMs = options.taskTimeoutMs ?? 30_000;
    this.piscina = new Piscina({
      filename: fromTs ? new URL('../../workers/ts-bootstrap.mjs', import.meta.url).href : href,
      workerData: { taskModule: href },
      minThreads: Math.min(1, threads),
      maxThreads: threads,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
    });
    // A worker that dies is replaced by piscina; its task is rejected and reported by run().
    this.piscina.on('error', () => {});
  }

  /** Worker threads currently running. */
  get threads(): number {
    return this.piscina.threads.length;
  }

  /** Tasks waiting for a free worker. */
  get queueSize(): number {
    return this.piscina.queueSize;
  }

  /**
   * Starts every worker now. Piscina starts one and the others only when tasks first overlap, so the first
   * lookup that runs two tasks at once would wait for a worker to start (a quarter of a second on two cores).
   * One short message per thread, sent at once, makes it start them all; they stay until idle past the pool's
   * idle timeout.
   */
  async startWorkers(): Promise<void> {
    if (this.destroyed) return;
    await Promise.all(Array.from({ length: this.maxThreads }, () => this.piscina.run({ task: START_WORKER, input: { holdMs: 50 } })));
  }

  /** Runs task `name` with `input` on a worker. */
  async run<K extends keyof TM & string>(name: K, input: TM[K][0], options: RunOptions = {}): Promise<TM[K][1]> {
    if (this.destroyed) throw new EngineError('UNAVAILABLE', `worker pool is closed; cannot run ${name}`, { task: name });
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(), timeoutMs);
    handle.unref?.();
    const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
    const message: TaskMessage<K, TM[K][0]> = { task: name, input };
    let reply: TaskReply<TM[K][1]>;
    try {
      reply = await this.piscina.run(message, { signal, transferList: options.transfer as never });
    } catch (err) {
      if (timer.signal.aborted && !options.signal?.aborted) {
        throw new EngineError('TIMEOUT', `task ${name} exceeded its ${timeoutMs} ms limit and was stopped`, { task: name, timeoutMs });
      }
      if (options.signal?.aborted || isAbortError(err)) {
        throw new EngineError('ABORTED', `task ${name} was cancelled`, { task: name });
      }
      throw new EngineError('WORKER_CRASHED', `the worker running ${name} died: ${(err as Error)?.message ?? String(err)}`, { task: name });
    } finally {
      clearTimeout(handle);
    }
    if (!reply || typeof reply !== 'object' || !('ok' in reply)) {
      throw new EngineError('TASK_FAILED', `task ${name} returned a malformed reply`, { task: name });
    }
    if (!reply.ok) {
      const e = deserializeError(reply.error);
      e.details.task ??= name;
      throw e;
    }
    return reply.value;
  }

  /** Stops every worker; pending tasks fail with `ABORTED`. Safe to call twice. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.piscina.destroy();
  }
}

/** Creates a worker pool for the tasks of `TM` in `options.module` (threads default to the number of cores). */
export function createWorkerPool<TM extends AnyTaskMap>(options: WorkerPoolOptions): WorkerPool<TM> {
  return new WorkerPool<TM>(options);
}

/** The file path of a task module URL (for messages). */
export function taskModulePath(u: URL): string {
  return fileURLToPath(u);
}
