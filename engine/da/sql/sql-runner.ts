/**
 * Runs read-only SQL against the DA table (`POST /v1/sql`, the MCP tool `sql_query`): the text gate first
 * (sql-gate.ts), then the query in a child process on the SQL mirror (sql-mirror.ts, sql-child.ts). A query
 * still running at the time limit (10 s) is stopped by killing its process (SIGKILL), which always works,
 * unlike anything inside better-sqlite3; the answer is `query_timeout` and a fresh process takes its place.
 * The server's own thread never runs a user's statement, so it keeps answering meanwhile.
 *
 * Processes: up to `processes` queries run at once (default 2), each in its own child; more wait in a short
 * queue (`queue`), beyond which the runner answers `busy`. A child that dies (out of memory, killed) is
 * replaced on the next query.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../version.js';
import type { DaStore } from '../da-store.js';
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

/** Options of {@link SqlRunner}. */
export interface SqlRunnerOptions {
  /** The mirror file (created and kept in step with `das`). */
  mirror: string;
  /** The DA store the mirror copies. */
  das: () => DaStore;
  timeoutMs?: number;
  /** Queries run at once (default 2). */
  processes?: number;
  /** Queries waiting for a process at most (default 8). */
  queue?: number;
  /** The mirror is this runner's own scratch file: {@link SqlRunner.close} removes it (and its -wal and -shm). */
  temporary?: boolean;
}

/** A finished query. */
export type SqlResult = Extract<SqlReply, { ok: true }>;

interface Slot {
  child: ChildProcess | null;
  busy: boolean;
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
  private readonly waiting: (() => void)[] = [];
  /** The time limit of one query, ms. */
  readonly timeoutMs: number;
  private readonly queue: number;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SqlRunnerOptions) {
    this.mirror = new SqlMirror(options.mirror);
    this.timeoutMs = options.timeoutMs ?? SQL_TIMEOUT_MS;
    this.queue = options.queue ?? 8;
    this.slots = Array.from({ length: options.processes ?? 2 }, () => ({ child: null, busy: false }));
  }

  /**
   * Runs `query` with `params`. Rejects with an EngineError: INVALID_ARGUMENT (reason `invalid_sql`,
   * `not_a_query`, `forbidden_sql`, `invalid_parameter`, `query_failed`, naming `query` or `params`),
   * `query_timeout` past the time limit, UNAVAILABLE `busy` when too many queries wait.
   */
  async run(query: unknown, params: unknown): Promise<SqlResult> {
    if (this.closed) throw new EngineError('UNAVAILABLE', 'the SQL runner is closed');
    const refusal = gateSql(query);
    if (refusal) throw new EngineError('INVALID_ARGUMENT', refusal.message, { parameter: 'query', reason: refusal.code });
    const values = sqlParams(params);
    this.mirror.sync(this.options.das());
    const slot = await this.acquire();
    try {
      const reply = await this.send(slot, { id: this.nextId++, query: query as string, params: values, maxRows: SQL_MAX_ROWS, maxBytes: SQL_MAX_BYTES });
      if (!reply.ok) throw new EngineError('INVALID_ARGUMENT', reply.message, { parameter: reply.parameter ?? 'query', reason: reply.code });
      return reply;
    } finally {
      this.release(slot);
    }
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
    for (const w of this.waiting.splice(0)) w();
    if (this.options.temporary) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${this.mirror.path}${suffix}`, { force: true });
  }

  private acquire(): Promise<Slot> {
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    if (this.waiting.length >= this.queue) {
      return Promise.reject(new EngineError('UNAVAILABLE', `${this.slots.length} SQL queries are running and ${this.waiting.length} waiting; try again shortly`, { reason: 'busy', retry_after_s: 2 }));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push(() => {
        if (this.closed) return reject(new EngineError('UNAVAILABLE', 'the SQL runner is closed'));
        const s = this.slots.find((x) => !x.busy)!;
        s.busy = true;
        resolve(s);
      });
    });
  }

  private release(slot: Slot): void {
    slot.busy = false;
    this.waiting.shift()?.();
  }

  private spawn(): ChildProcess {
    const here = import.meta.url;
    const fromSource = here.endsWith('.ts');
    const entry = fileURLToPath(new URL(`./sql-child.${fromSource ? 'ts' : 'js'}`, here));
    const child = fork(entry, [this.mirror.path], {
      cwd: PACKAGE_ROOT,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      env: { ...process.env, PROPINTEL_SQL_CHILD: '1' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    // Between queries the child has no listener of its own: errors then must not escape either.
    child.on('error', () => {});
    child.unref();
    (child as unknown as { channel?: { unref(): void } }).channel?.unref();
    return child;
  }

  private send(slot: Slot, req: SqlRequest): Promise<SqlReply> {
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
        slot.child = null;
        finish(() => reject(new EngineError('INVALID_ARGUMENT', `the query stopped its process (${signal ?? `exit ${code}`}): most likely it needed too much memory`, { parameter: 'query', reason: 'query_failed' })));
      };
      // A process that cannot start (no file descriptors or processes left) or a closed channel is an error
      // of this query, never an unhandled 'error' event that would stop the server.
      const onError = (err: Error) => {
        child.kill('SIGKILL');
        slot.child = null;
        finish(() => reject(new EngineError('UNAVAILABLE', `the SQL process could not run the query: ${err.message}`, { reason: 'busy', retry_after_s: 2 })));
      };
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        slot.child = null;
        finish(() => reject(new EngineError('INVALID_ARGUMENT', `the query ran past the ${this.timeoutMs / 1000} s limit and was stopped`, { parameter: 'query', reason: 'query_timeout', limit_s: this.timeoutMs / 1000 })));
      }, this.timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.once('error', onError);
      child.send(req, (err) => {
        if (err) onError(err);
      });
    });
  }
}
