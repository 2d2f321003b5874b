/**
 * The engine threads: N worker threads, each holding an engine of its own over the same data (read by window
 * from one layer file and one address index through the page cache every thread shares), and each running
 * whole calls (a property lookup, a batch part, a tile, a report) from start to end. The thread that owns
 * them (the one answering HTTP) only posts calls and receives answers.
 *
 * - **Dispatch**: a call goes to the ready thread with the fewest calls in flight, at most
 *   `callsPerThread` each (a thread interleaves its calls where they wait on a read); the rest queue here,
 *   in arrival order, so a free thread never sits idle while another has a backlog.
 * - **Cancel**: a call's AbortSignal sends the thread a cancel (its own signal fires); the caller gets
 *   `ABORTED` at once, and the slot is free when the thread answers.
 * - **Time limit**: a call past `callTimeoutMs` fails with `TIMEOUT` and is cancelled; a thread that has not
 *   answered it `stuckGraceMs` later is stuck in a computation and is stopped (and replaced).
 * - **A thread that dies** (an exit, an uncaught error, out of memory) is replaced; its calls are sent again
 *   to another thread (once: every call is a read, answered the same anywhere), and a call that already had
 *   its retry fails with `WORKER_CRASHED` (the server answers 503 with Retry-After). The process never dies
 *   with it.
 * - **Close** waits for the calls in flight (up to a grace period), then stops every thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { deserializeError, EngineError, type SerializedError } from '../errors.js';
import { BlockHub } from './thread-blocks.js';
import type { FromThread, ToThread } from './thread-protocol.js';

/** Options of {@link EngineThreads.start}. */
export interface EngineThreadsOptions {
  /** Threads (default the number of cores). */
  threads?: number;
  /**
   * What each thread opens its engine with (plain data, copied to the thread), or a function giving each
   * slot's (a replacement gets its slot's again).
   */
  engine: Record<string, unknown> | ((slot: number) => Record<string, unknown>);
  /** Calls a thread works on at once (default 4); more wait here for the first free thread. */
  callsPerThread?: number;
  /** A call's time limit, ms (default 120,000). */
  callTimeoutMs?: number;
  /** How long a thread may take to answer a call cancelled at its time limit before it is stopped, ms (default 10,000). */
  stuckGraceMs?: number;
  /** Told when a thread dies or is stopped, and when it is replaced. */
  log?: (line: string) => void;
  /** Bytes of decoded raster blocks the threads share (thread-blocks.ts); default 64 MiB. */
  blockCacheBytes?: number;
  /**
   * The module each thread runs: the engine's (engine/runtime/engine-thread.ts, which the runtime gives), or in
   * tests one that speaks the same messages (thread-protocol.ts) to check the dispatch on its own.
   */
  module: URL;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Buffers moved to the thread instead of copied (a call with any is not sent again after a thread dies). */
  transfer?: readonly ArrayBuffer[];
  /** Time limit, ms (default the threads' `callTimeoutMs`). */
  timeoutMs?: number;
  /**
   * The thread this call would rather run on (affinity.ts: the one owning its state, whose caches hold its
   * area). A preference: another thread takes it rather than sit idle.
   */
  prefer?: number;
}

/** What one thread did, for /metrics and the benchmark's CPU per thread. */
export interface ThreadStats {
  /** The thread's slot (0 to threads - 1). */
  slot: number;
  /** Its Linux thread id (for /proc/self/task/TID/stat), when known. */
  tid: number | null;
  inFlight: number;
  calls: number;
  failed: number;
  /** Times this slot's thread died or was stopped and was replaced. */
  restarts: number;
}

interface Pending {
  id: number;
  method: string;
  args: unknown[];
  transfer?: readonly ArrayBuffer[];
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** Times sent to a thread. */
  sends: number;
  /** Answered to the caller already (cancelled or timed out): the thread's answer is dropped. */
  settled: boolean;
  timeoutMs: number;
  prefer?: number;
  /** When it was queued (performance.now()). */
  queuedAt: number;
  timer?: NodeJS.Timeout;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  index: number;
  worker: Worker;
  tid: number | null;
  ready: boolean;
  /** Exited (or being stopped): nothing more is sent to it. */
  gone: boolean;
  inFlight: Map<number, Pending>;
  calls: number;
  failed: number;
  restarts: number;
  stuckTimer?: NodeJS.Timeout;
  /** The threads whose calls this one has taken (it holds their areas' models now too). */
  served: Set<number>;
}

/** How long a thread may take to close its engine and end before it is stopped, ms. */
const CLOSE_WAIT_MS = 5_000;

/** How long a call waits for its own thread before a thread that has not served its area takes it, ms. */
const TAKE_AFTER_MS = 100;

/** How far down the queue a thread with room looks for a call that prefers it. */
const PREFER_SCAN = 32;

/**
 * The URL a thread is started from: the built entry, or through the tsx bootstrap for a TypeScript module
 * (the engine's sources, under the test runner).
 */
function threadEntry(entry: URL): { file: URL; taskModule: string } {
  return entry.href.endsWith('.ts') ? { file: new URL('../../workers/ts-bootstrap.mjs', import.meta.url), taskModule: entry.href } : { file: entry, taskModule: entry.href };
}

/** See the module comment. */
export class EngineThreads {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closing = false;
  private readonly callsPerThread: number;
  private readonly callTimeoutMs: number;
  private readonly stuckGraceMs: number;
  /** Consecutive threads that failed to open their engine (past 3, replacements stop and calls fail). */
  private failedStarts = 0;
  private lastFailure: SerializedError | null = null;
  private drained: (() => void) | null = null;
  /** The decoded raster blocks every thread reads. */
  private readonly blocks: BlockHub;

  private constructor(private readonly options: EngineThreadsOptions) {
    this.blocks = new BlockHub(
      options.blockCacheBytes ?? 64 * 1024 * 1024,
      (order, except) => {
        for (const s of this.slots) if (s && s.index !== except && !s.gone) s.worker.postMessage(order satisfies ToThread);
      },
      (slot, order) => {
        const s = this.slots[slot];
        if (s && !s.gone) s.worker.postMessage(order satisfies ToThread);
      },
    );
    this.callsPerThread = Math.max(1, options.callsPerThread ?? 4);
    this.callTimeoutMs = options.callTimeoutMs ?? 120_000;
    this.stuckGraceMs = options.stuckGraceMs ?? 10_000;
  }

  /** Starts the threads and resolves once every one has opened its engine (rejects with the first failure). */
  static async start(options: EngineThreadsOptions): Promise<EngineThreads> {
    const t = new EngineThreads(options);
    const n = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
    const started = Array.from({ length: n }, (_, i) => t.spawn(i, 0));
    try {
      await Promise.all(started);
    } catch (err) {
      await t.close(0);
      throw err;
    }
    return t;
  }

  /** Threads running. */
  get threads(): number {
    return this.slots.filter((s) => !s.gone).length;
  }

  /** Calls waiting for a free thread. */
  get queued(): number {
    return this.queue.length;
  }

  /** Calls being worked on. */
  get inFlight(): number {
    return this.slots.reduce((a, s) => a + s.inFlight.size, 0);
  }

  /** The decoded raster blocks the threads share. */
  get sharedBlocks(): { blocks: number; bytes: number } {
    return this.blocks.stats;
  }

  /** Each thread's counts. */
  stats(): ThreadStats[] {
    return this.slots.map((s) => ({ slot: s.index, tid: s.tid, inFlight: s.inFlight.size, calls: s.calls, failed: s.failed, restarts: s.restarts }));
  }

  /**
   * Runs `method` with `args` on a thread (see the module comment); rejects with the thread's EngineError,
   * `ABORTED`, `TIMEOUT`, `WORKER_CRASHED` or `UNAVAILABLE` (closed).
   */
  call<T>(method: string, args: unknown[], options: CallOptions = {}): Promise<T> {
    if (this.closing) return Promise.reject(new EngineError('UNAVAILABLE', `the engine is closed; cannot run ${method}`, { component: 'engine' }));
    if (options.signal?.aborted) return Promise.reject(new EngineError('ABORTED', `${method} was cancelled`, { task: method }));
    if (this.failedStarts > 3) return Promise.reject(this.startFailure(method));
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, method, args, transfer: options.transfer, resolve: resolve as (v: unknown) => void, reject, sends: 0, settled: false, timeoutMs: options.timeoutMs ?? this.callTimeoutMs, signal: options.signal, prefer: options.prefer, queuedAt: performance.now() };
      if (options.signal) {
        p.onAbort = () => this.cancel(p, new EngineError('ABORTED', `${method} was cancelled`, { task: method }));
        options.signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.queue.push(p);
      this.pump();
    });
  }

  /** Runs `method` on every thread at once (warming each one's models); resolves to each thread's answer. */
  async callEach<T>(method: string, args: unknown[]): Promise<T[]> {
    const live = this.slots.filter((s) => s.ready && !s.gone);
    return Promise.all(live.map((slot) => new Promise<T>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, method, args, resolve: resolve as (v: unknown) => void, reject, sends: 1, settled: false, timeoutMs: this.callTimeoutMs, queuedAt: performance.now() };
      this.send(slot, p);
    })));
  }

  /**
   * Stops thread `slot` at once, as the system would (out of memory, a fatal error): its calls are sent again
   * to the others and it is replaced. For tests and for an operator's last resort.
   */
  async kill(slot: number): Promise<void> {
    const s = this.slots[slot];
    if (!s || s.gone) return;
    await s.worker.terminate();
  }

  /**
   * Stops taking calls, waits up to `graceMs` for those in flight, then stops every thread; calls still
   * queued or in flight fail with `UNAVAILABLE`.
   */
  async close(graceMs = 10_000): Promise<void> {
    this.closing = true;
    clearTimeout(this.wakeTimer);
    for (const p of this.queue.splice(0)) this.settle(p, new EngineError('UNAVAILABLE', `the engine closed before ${p.method} ran`, { component: 'engine' }));
    if (this.inFlight > 0 && graceMs > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, graceMs);
        this.drained = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
    this.drained = null;
    await Promise.all(this.slots.map((s) => this.stop(s)));
  }

  private startFailure(method: string): EngineError {
    const e = this.lastFailure;
    return new EngineError('UNAVAILABLE', `no engine thread could open its engine, so ${method} cannot run${e ? `: ${e.message}` : ''}`, { component: 'engine' });
  }

  /** Starts the thread of slot `index` (its `restarts`th replacement); resolves when it is ready. */
  private spawn(index: number, restarts: number): Promise<void> {
    const { file, taskModule } = threadEntry(this.options.module);
    const engine = typeof this.options.engine === 'function' ? this.options.engine(index) : this.options.engine;
    const worker = new Worker(file, { workerData: { taskModule, engine } });
    const slot: Slot = { index, worker, tid: null, ready: false, gone: false, inFlight: new Map(), calls: 0, failed: 0, restarts, served: new Set([index]) };
    const old = this.slots[index];
    if (old) {
      slot.calls = old.calls;
      slot.failed = old.failed;
    }
    this.slots[index] = slot;
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (m: FromThread) => {
        if (m.type === 'block' || m.type === 'touch') this.blocks.heard(index, m);
        else if (m.type === 'ready') {
          slot.ready = true;
          slot.tid = m.tid;
          // A thread started late (a replacement) reads the blocks the others decoded.
          const held = this.blocks.entries();
          if (held.length) worker.postMessage({ type: 'blocks', entries: held } satisfies ToThread);
          this.failedStarts = 0;
          resolve();
          this.pump();
        } else if (m.type === 'failed') {
          this.failedStarts++;
          this.lastFailure = m.error;
          reject(deserializeError(m.error));
          void this.stop(slot);
        } else if (m.type === 'result') this.answered(slot, m);
      });
      worker.on('error', (err) => {
        this.options.log?.(`engine thread ${index} failed: ${err.message}`);
        if (!slot.ready) {
          this.failedStarts++;
          this.lastFailure = { code: 'WORKER_CRASHED', message: err.message };
          reject(new EngineError('WORKER_CRASHED', `engine thread ${index} failed while opening its engine: ${err.message}`, { component: 'engine' }));
        }
      });
      worker.on('exit', (code) => this.exited(slot, code));
    });
  }

  /**
   * Sends what the queue holds to threads with room: each call to the thread it prefers when that one has
   * room, else to the least busy. A thread with room takes the first queued call that prefers it (looking
   * {@link PREFER_SCAN} calls ahead); failing that, the oldest call, if it is of an area the thread has taken
   * calls of before or has waited {@link TAKE_AFTER_MS} (a thread taking another's area builds that area's
   * models too: under a steady mix each keeps to its own, and a backlog of one area still reaches every thread).
   */
  private pump(): void {
    while (this.queue.length) {
      const free = this.slots.filter((s) => s.ready && !s.gone && s.inFlight.size < this.callsPerThread);
      if (!free.length) return;
      let slot: Slot | undefined;
      let at = -1;
      const head = this.queue[0];
      const own = head.prefer === undefined ? undefined : free.find((s) => s.index === head.prefer);
      if (own || head.prefer === undefined) {
        slot = own ?? free.reduce((a, b) => (b.inFlight.size < a.inFlight.size ? b : a));
        at = 0;
      } else {
        // The head's thread is full: a free thread takes a call of its own if one is near the front of the
        // queue, else the head when it may (see above).
        const waited = performance.now() - head.queuedAt;
        for (const s of free.sort((a, b) => a.inFlight.size - b.inFlight.size)) {
          const n = Math.min(this.queue.length, PREFER_SCAN);
          for (let i = 1; i < n && at < 0; i++) if (this.queue[i].prefer === s.index) at = i;
          if (at < 0 && (s.served.has(head.prefer!) || waited >= TAKE_AFTER_MS)) at = 0;
          if (at >= 0) {
            slot = s;
            break;
          }
        }
        if (!slot) {
          // Every free thread would take another's area: look again once the head has waited long enough.
          this.wakeAt(head.queuedAt + TAKE_AFTER_MS);
          return;
        }
      }
      const [p] = this.queue.splice(at, 1);
      if (p.settled) continue;
      if (p.prefer !== undefined) slot.served.add(p.prefer);
      p.sends++;
      this.send(slot, p);
    }
  }

  private wakeTimer?: NodeJS.Timeout;

  /** Pumps the queue again at `at` (performance.now() time), once. */
  private wakeAt(at: number): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, Math.max(1, at - performance.now()));
    this.wakeTimer.unref?.();
  }

  private send(slot: Slot, p: Pending): void {
    slot.inFlight.set(p.id, p);
    clearTimeout(p.timer);
    p.timer = setTimeout(() => this.timedOut(slot, p), p.timeoutMs);
    p.timer.unref?.();
    const msg: ToThread = { type: 'call', id: p.id, method: p.method, args: p.args };
    try {
      slot.worker.postMessage(msg, (p.transfer ?? []) as ArrayBuffer[]);
    } catch (err) {
      // Not cloneable (a function in the arguments): the caller's mistake, not the thread's.
      slot.inFlight.delete(p.id);
      this.settle(p, new EngineError('INVALID_ARGUMENT', `${p.method}'s arguments cannot be sent to an engine thread: ${(err as Error).message}`, { parameter: p.method }));
    }
  }

  private answered(slot: Slot, m: Extract<FromThread, { type: 'result' }>): void {
    const p = slot.inFlight.get(m.id);
    if (!p) return;
    slot.inFlight.delete(m.id);
    slot.calls++;
    if (!m.ok) slot.failed++;
    if (m.ok) this.settle(p, null, m.value);
    else if (m.plain) this.settle(p, new Error(m.error.message));
    else this.settle(p, deserializeError(m.error));
    if (!slot.inFlight.size) clearTimeout(slot.stuckTimer);
    this.afterAnswer();
  }

  private afterAnswer(): void {
    if (this.drained && this.inFlight === 0) this.drained();
    this.pump();
  }

  /** Answers the caller once (later answers for the same call are dropped). */
  private settle(p: Pending, err: unknown, value?: unknown): void {
    clearTimeout(p.timer);
    if (p.settled) return;
    p.settled = true;
    if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
    if (err) p.reject(err);
    else p.resolve(value);
  }

  /** The caller gave up on `p`: answered now, and the thread (if it has the call) asked to stop it. */
  private cancel(p: Pending, err: EngineError): void {
    this.settle(p, err);
    const qi = this.queue.indexOf(p);
    if (qi >= 0) {
      this.queue.splice(qi, 1);
      return;
    }
    for (const s of this.slots) {
      if (s.inFlight.has(p.id) && !s.gone) s.worker.postMessage({ type: 'cancel', id: p.id } satisfies ToThread);
    }
  }

  private timedOut(slot: Slot, p: Pending): void {
    if (!slot.inFlight.has(p.id)) return;
    this.cancel(p, new EngineError('TIMEOUT', `${p.method} exceeded its ${p.timeoutMs} ms limit and was stopped`, { task: p.method, timeoutMs: p.timeoutMs }));
    // A thread that does not answer even the cancel is busy in a computation that never yields: stopped
    // (its other calls are sent again to another thread) and replaced.
    clearTimeout(slot.stuckTimer);
    slot.stuckTimer = setTimeout(() => {
      if (slot.inFlight.has(p.id) && !slot.gone) {
        this.options.log?.(`engine thread ${slot.index} did not stop ${p.method} within ${this.stuckGraceMs} ms of its time limit; replacing it`);
        void slot.worker.terminate();
      }
    }, this.stuckGraceMs);
    slot.stuckTimer.unref?.();
  }

  /** A thread ended: its calls are sent again (once) or failed, and it is replaced unless closing. */
  private exited(slot: Slot, code: number): void {
    slot.gone = true;
    slot.ready = false;
    clearTimeout(slot.stuckTimer);
    const orphans = [...slot.inFlight.values()];
    slot.inFlight.clear();
    if (this.slots[slot.index] !== slot) return;
    if (!this.closing) this.options.log?.(`engine thread ${slot.index} exited (code ${code}) with ${orphans.length} call(s) in flight; replacing it`);
    for (const p of orphans) {
      if (p.settled) continue;
      if (!this.closing && p.sends < 2 && !p.transfer?.length) this.queue.unshift(p);
      else this.settle(p, new EngineError('WORKER_CRASHED', `the engine thread running ${p.method} died (exit code ${code})${p.sends >= 2 ? ', twice' : ''}`, { task: p.method }));
    }
    if (this.closing) {
      this.afterAnswer();
      return;
    }
    if (this.failedStarts > 3) {
      for (const p of this.queue.splice(0)) this.settle(p, this.startFailure(p.method));
      return;
    }
    this.spawn(slot.index, slot.restarts + 1).catch((err) => this.options.log?.(`engine thread ${slot.index} could not be replaced: ${(err as Error).message}`));
    this.afterAnswer();
  }

  /** Has a thread close its engine and end; stops it after {@link CLOSE_WAIT_MS} if it has not. */
  private async stop(slot: Slot): Promise<void> {
    if (slot.worker.threadId < 0) return;
    slot.gone = true;
    const ended = new Promise<void>((resolve) => slot.worker.once('exit', () => resolve()));
    try {
      slot.worker.postMessage({ type: 'close' } satisfies ToThread);
    } catch {
      // Already gone.
    }
    const t = setTimeout(() => void slot.worker.terminate(), CLOSE_WAIT_MS);
    await ended;
    clearTimeout(t);
  }
}
