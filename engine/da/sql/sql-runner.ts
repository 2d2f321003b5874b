/**
 * Runs read-only SQL against the DA table (`POST /v1/sql`, the MCP tool `sql_query`): the text gate first
 * (sql-gate.ts), then the query in a child process on the SQL mirror (sql-mirror.ts, sql-child.ts). A query
 * still running at the time limit (10 s) is stopped by killing its process (SIGKILL), which always works,
 * unlike anything inside better-sqlite3; the answer is `query_timeout` and a fresh process takes its place.
 * The server's own thread never runs a user's statement, so it keeps answering meanwhile.
 *
 * Fair among tenants (the keys: every path counts, HTTP and each call of an MCP batch alike):
 * - up to `processes` queries run at once (default 3), each in its own child, and one tenant runs at most one
 *   of them, so a tenant at its limit always leaves the others room;
 * - a tenant may have one more query waiting ({@link SQL_PER_TENANT} in all); past that it is refused at once
 *   (`too_many_queries`, a 429), never queued behind itself;
 * - waiting counts against the query's own time limit: the 10 s run from when the query arrives, so nothing
 *   waits longer than its limit; a free process goes to the longest-waiting query of a tenant that has none
 *   running; more than `queue` waiting in all is `busy`.
 *
 * Bounded: each child runs under an operating-system data limit (`ulimit -d`, {@link SQL_MEMORY_BYTES} by
 * default), which covers SQLite's memory, its temporary tables and sorts (kept in memory, never on disk) and
 * the JavaScript heap alike. A query past it fails (SQLite's out-of-memory, or the child dies) and is
 * `query_too_large`, naming the limit; a fresh child takes a dead one's place. So the SQL processes hold at
 * most `processes` times the limit however many tenants try at once. (This build of SQLite keeps no memory
 * statistics, so its own heap limit would not be enforced; the process limit is.)
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../version.js';
import type { DaReader } from '../da-store.js';
import { gateSql } from './sql-gate.js';
import type { SqlReply, SqlRequest } from './sql-child.js';
import { SqlMirror } from './sql-mirror.js';

/** Rows returned at most (`truncated: true` past it). */
export const SQL_MAX_ROWS = 1000;
/** JSON bytes of rows returned at most. */
export const SQL_MAX_BYTES = 2 * 1024 * 1024;
/** The time limit of one query. */
export const SQL_TIMEOUT_MS = 10_000;
/** Parameters a query may take. */
export const SQL_MAX_PARAMS = 100;
/** Queries run at once by default. */
export const SQL_PROCESSES = 3;
/** A tenant's queries at once, running (one at most) and waiting together. */
export const SQL_PER_TENANT = 2;
/** Queries waiting in all at most. */
export const SQL_QUEUE = 32;
/** Memory a query's process may use (its data segment): 512 MiB. */
export const SQL_MEMORY_BYTES = 512 * 1024 * 1024;

/** Options of {@link SqlRunner}. */
export interface SqlRunnerOptions {
  /** The mirror file (created and kept in step with `das`). */
  mirror: string;
  /** The DA store the mirror copies. */
  das: () => DaReader;
  timeoutMs?: number;
  /** Queries run at once (default {@link SQL_PROCESSES}). */
  processes?: number;
  /** Queries waiting for a process at most, in all (default {@link SQL_QUEUE}). */
  queue?: number;
  /** A tenant's queries at once, running and waiting (default {@link SQL_PER_TENANT}). */
  perTenant?: number;
  /** Bytes a query's process may use (default {@link SQL_MEMORY_BYTES}); 0 sets no limit. */
  memoryBytes?: number;
  /** The mirror is this runner's own scratch file: {@link SqlRunner.close} removes it (and its -wal and -shm). */
  temporary?: boolean;
}

/** A finished query. */
export type SqlResult = Extract<SqlReply, { ok: true }>;

interface Slot {
  child: ChildProcess | null;
  busy: boolean;
}

/** A waiting query with less time left than this is not started. */
const MIN_RUN_MS = 50;

/** A query waiting for a process. */
interface Waiter {
  tenant: string;
  /** When its time limit ends (ms since the epoch). */
  deadline: number;
  /** Hands the waiter a process, or null when the runner closes. */
  take: (slot: Slot | null) => void;
}

/** Checks `params`: a list of JSON scalars (booleans become 1 and 0). */
export function sqlParams(params: unknown): unknown[] {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) throw new EngineError('INVALID_ARGUMENT', 'params must be a list of values for the query\'s ? placeholders', { parameter: 'params' });
  if (params.length > SQL_MAX_PARAMS) throw new EngineError('INVALID_ARGUMENT', `params has ${params.length} values; at most ${SQL_MAX_PARAMS}`, { parameter: 'params' });
  return params.map((v, i) => {
    if (v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    throw new EngineError('INVALID_ARGUMENT', `params[${i}] must be a string, number, boolean or null`, { parameter: 'params' });
  });
}

/** See the module comment. */
export class SqlRunner {
  private readonly mirror: SqlMirror;
  private readonly slots: Slot[];
  private waiting: Waiter[] = [];
  /** The time limit of one query, ms, from when it arrives. */
  readonly timeoutMs: number;
  /** A tenant's queries at once, running and waiting. */
  readonly perTenant: number;
  /** Bytes a query's process may use (0: no limit). */
  readonly memoryBytes: number;
  private readonly queue: number;
  /** Per tenant: queries running, and queries running or waiting. */
  private readonly running = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SqlRunnerOptions) {
    this.mirror = new SqlMirror(options.mirror);
    this.timeoutMs = options.timeoutMs ?? SQL_TIMEOUT_MS;
    this.queue = options.queue ?? SQL_QUEUE;
    this.perTenant = Math.max(1, options.perTenant ?? SQL_PER_TENANT);
    this.memoryBytes = options.memoryBytes ?? SQL_MEMORY_BYTES;
    this.slots = Array.from({ length: Math.max(1, options.processes ?? SQL_PROCESSES) }, () => ({ child: null, busy: false }));
  }

  /** Processes that run queries. */
  get processes(): number {
    return this.slots.length;
  }

  /** The process ids of the children now running (tests watch their memory). */
  childPids(): number[] {
    return this.slots.flatMap((s) => (s.child?.pid ? [s.child.pid] : []));
  }

  /**
   * Runs `query` with `params` for `tenant` (a key's id; default one shared tenant). Rejects with an
   * EngineError: INVALID_ARGUMENT (reason `invalid_sql`, `not_a_query`, `forbidden_sql`, `invalid_parameter`,
   * `query_failed`, `query_too_large`, naming `query` or `params`), `query_timeout` when the time limit passes
   * (waiting included); UNAVAILABLE `too_many_queries` when the tenant already has its share, `busy` when too
   * many queries wait.
   */
  async run(query: unknown, params: unknown, tenant = ''): Promise<SqlResult> {
    if (this.closed) throw new EngineError('UNAVAILABLE', 'the SQL runner is closed');
    const refusal = gateSql(query);
    if (refusal) throw new EngineError('INVALID_ARGUMENT', refusal.message, { parameter: 'query', reason: refusal.code });
    const values = sqlParams(params);
    const deadline = Date.now() + this.timeoutMs;
    const mine = this.inFlight.get(tenant) ?? 0;
    if (mine >= this.perTenant) {
      throw new EngineError('UNAVAILABLE', `this key already has ${mine} SQL queries running or waiting; at most ${this.perTenant} at once (one running)`, { reason: 'too_many_queries', limit: this.perTenant, retry_after_s: 1 });
    }
    this.mirror.sync(this.options.das());
    this.inFlight.set(tenant, mine + 1);
    try {
      const slot = await this.acquire(tenant, deadline);
      try {
        const reply = await this.send(slot, { id: this.nextId++, query: query as string, params: values, maxRows: SQL_MAX_ROWS, maxBytes: SQL_MAX_BYTES }, deadline);
        if (!reply.ok) throw new EngineError('INVALID_ARGUMENT', reply.code === 'query_too_large' ? this.tooLarge() : reply.message, { parameter: reply.parameter ?? 'query', reason: reply.code, ...(reply.code === 'query_too_large' ? { limit_bytes: this.memoryBytes } : {}) });
        return reply;
      } finally {
        this.release(slot, tenant);
      }
    } finally {
      const n = (this.inFlight.get(tenant) ?? 1) - 1;
      if (n > 0) this.inFlight.set(tenant, n);
      else this.inFlight.delete(tenant);
    }
  }

  /** The message of a query past the memory limit. */
  private tooLarge(): string {
    return `the query needed more than the ${Math.round(this.memoryBytes / 1048576)} MiB of memory a query may use (its rows, sorts and temporary tables together): narrow it, or aggregate before returning rows`;
  }

  /** Brings the mirror up to date now (the first build of a large store takes a while); returns rows copied. */
  sync(): number {
    return this.mirror.sync(this.options.das());
  }

  /** Stops every child; a {@link SqlRunnerOptions.temporary} mirror is removed. */
  close(): void {
    this.closed = true;
    for (const s of this.slots) {
      s.child?.kill('SIGKILL');
      s.child = null;
    }
    for (const w of this.waiting.splice(0)) w.take(null);
    if (this.options.temporary) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${this.mirror.path}${suffix}`, { force: true });
  }

  /** A process for `tenant`: at once when one is free and the tenant runs none, else in turn until `deadline`. */
  private acquire(tenant: string, deadline: number): Promise<Slot> {
    const free = this.slots.find((s) => !s.busy);
    if (free && !this.running.get(tenant)) return Promise.resolve(this.claim(free, tenant));
    if (this.waiting.length >= this.queue) {
      return Promise.reject(new EngineError('UNAVAILABLE', `${this.slots.length} SQL queries are running and ${this.waiting.length} waiting; try again shortly`, { reason: 'busy', retry_after_s: 2 }));
    }
    const waitedSince = Date.now();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        deadline,
        take: (slot) => {
          clearTimeout(timer);
          if (this.closed || !slot) return reject(new EngineError('UNAVAILABLE', 'the SQL runner is closed'));
          resolve(this.claim(slot, tenant));
        },
      };
      // The time limit runs while waiting too: past it the query is refused, never run late.
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== waiter);
        reject(new EngineError('INVALID_ARGUMENT', `the query waited ${((Date.now() - waitedSince) / 1000).toFixed(1)} s for a free SQL process and reached the ${this.timeoutMs / 1000} s limit without running`, { parameter: 'query', reason: 'query_timeout', limit_s: this.timeoutMs / 1000 }));
      }, Math.max(0, deadline - Date.now()));
      this.waiting.push(waiter);
    });
  }

  private claim(slot: Slot, tenant: string): Slot {
    slot.busy = true;
    this.running.set(tenant, (this.running.get(tenant) ?? 0) + 1);
    return slot;
  }

  private release(slot: Slot, tenant: string): void {
    slot.busy = false;
    const n = (this.running.get(tenant) ?? 1) - 1;
    if (n > 0) this.running.set(tenant, n);
    else this.running.delete(tenant);
    // Each free process to the longest-waiting query of a tenant that runs none and has time left to run
    // (one at its limit is refused by its own timer, as a query that waited its whole time).
    const now = Date.now();
    for (const free of this.slots.filter((s) => !s.busy)) {
      const next = this.waiting.findIndex((w) => !this.running.get(w.tenant) && w.deadline - now > MIN_RUN_MS);
      if (next < 0) break;
      const [w] = this.waiting.splice(next, 1);
      w.take(free);
    }
  }

  private spawn(): ChildProcess {
    const here = import.meta.url;
    const fromSource = here.endsWith('.ts');
    const entry = fileURLToPath(new URL(`./sql-child.${fromSource ? 'ts' : 'js'}`, here));
    const execArgv = fromSource ? ['--import', 'tsx'] : [];
    const options = { cwd: PACKAGE_ROOT, env: { ...process.env, PROPINTEL_SQL_CHILD: '1' }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc')[], serialization: 'advanced' as const };
    // The memory limit is the shell's `ulimit -d` (setrlimit RLIMIT_DATA) before it execs Node; where there is
    // no POSIX shell (Windows) the child runs without it.
    const child =
      this.memoryBytes > 0 && process.platform !== 'win32'
        ? spawn('/bin/sh', ['-c', `ulimit -d ${Math.ceil(this.memoryBytes / 1024)} && exec "$0" "$@"`, process.execPath, ...execArgv, entry, this.mirror.path], options)
        : fork(entry, [this.mirror.path], { ...options, execArgv });
    // Between queries the child has no listener of its own: errors then must not escape either.
    child.on('error', () => {});
    child.unref();
    (child as unknown as { channel?: { unref(): void } }).channel?.unref();
    return child;
  }

  /**
   * A stopped child's successor, started at once, so the next query does not wait for a process to start (a
   * start takes a good part of a second, more from TypeScript sources).
   */
  private replace(slot: Slot): void {
    slot.child = this.closed ? null : this.spawn();
  }

  private send(slot: Slot, req: SqlRequest, deadline: number): Promise<SqlReply> {
    if (!slot.child || slot.child.exitCode !== null || slot.child.signalCode !== null || !slot.child.connected) slot.child = this.spawn();
    const child = slot.child;
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (fn: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        fn();
      };
      const onMessage = (m: SqlReply) => {
        if (m.id === req.id) finish(() => resolve(m));
      };
      const onExit = (code: number | null, signal: string | null) => {
        this.replace(slot);
        // A child dies during a query when it runs out of memory (the data limit reached inside V8 or a library).
        finish(() => reject(new EngineError('INVALID_ARGUMENT', `${this.tooLarge()} (its process stopped: ${signal ?? `exit ${code}`})`, { parameter: 'query', reason: 'query_too_large', limit_bytes: this.memoryBytes })));
      };
      // A process that cannot start (no file descriptors or processes left) or a closed channel is an error
      // of this query, never an unhandled 'error' event that would stop the server.
      const onError = (err: Error) => {
        child.kill('SIGKILL');
        this.replace(slot);
        finish(() => reject(new EngineError('UNAVAILABLE', `the SQL process could not run the query: ${err.message}`, { reason: 'busy', retry_after_s: 2 })));
      };
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        this.replace(slot);
        finish(() => reject(new EngineError('INVALID_ARGUMENT', `the query ran past the ${this.timeoutMs / 1000} s limit (counted from its arrival, waiting included) and was stopped`, { parameter: 'query', reason: 'query_timeout', limit_s: this.timeoutMs / 1000 })));
      }, Math.max(0, deadline - Date.now()));
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.once('error', onError);
      child.send(req, (err) => {
        if (err) onError(err);
      });
    });
  }
}
