/**
 * Opening what a server runs on: the store (keys, meter, caches) and an engine whose layer and score caches
 * persist in it. The CLI's `serve`, the server benchmark and the tests open it the same way.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { daTablesOfDirectory } from '../engine/entry/das.js';
import { createEngine, type Engine, type EngineOptions, VERSION } from '../engine/index.js';
import { PACKAGE_ROOT } from '../engine/entry/runtime.js';
import type { MaybePromise } from './maybe-promise.js';
import { DaReplica, loadDaTables } from './store/pg/da-replica.js';
import { isPostgresUrl } from './store/pg/pg-connect.js';
import { PgStore } from './store/pg/pg-store.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import type { ServerStore } from './store/store.js';
import type { Cache } from '../engine/entry/runtime.js';
import type { DaEventSource } from './store/sqlite/sqlite-webhook-store.js';

/** The store file when neither --db nor $PROPINTEL_DB says otherwise: var/propintel.sqlite in the package. */
export function defaultStorePath(): string {
  return process.env.PROPINTEL_DB || join(PACKAGE_ROOT, 'var', 'propintel.sqlite');
}

/**
 * Identifies a dataset directory's content: its catalogue and, when present, its manifest of file hashes.
 * Persistent caches are namespaced by it and by the engine version, so switching data or upgrading never
 * serves results computed from something else.
 */
export function datasetFingerprint(dir: string): string {
  const h = createHash('sha256');
  for (const f of ['catalogue.json', 'manifest.json']) {
    const p = join(dir, f);
    if (existsSync(p)) h.update(f).update(readFileSync(p));
  }
  return h.digest('hex').slice(0, 16);
}

/** Opens the store a `--db` value names: a `postgres://` URL (PostgreSQL, migrated) or a SQLite file. */
export async function openServerStore(db: string): Promise<ServerStore> {
  return isPostgresUrl(db) ? PgStore.open(db, { max: 4 }) : SqliteStore.open(db === ':memory:' ? db : resolve(db));
}

/** Options of {@link openStack}. */
export interface StackOptions {
  /** The dataset directory. */
  datasets: string;
  /** The store: a SQLite file, ':memory:', or a `postgres://` URL (several replicas sharing one database). */
  db: string;
  /**
   * On PostgreSQL: this replica's own directory, for its local copy of the DA records and its caches
   * (kept across restarts, so a restart catches up by the writes since). Default a temporary directory,
   * deleted at close.
   */
  replicaDir?: string;
  /** On PostgreSQL: connections in this replica's pool (default 16). */
  poolSize?: number;
  /** Threads that compute (default the number of cores): engine threads, or the worker pool with `compute: 'here'`. */
  threads?: number;
  /**
   * Where lookups, tiles, reports and batch parts run (engine option `compute`): `threads` (what `propintel
   * serve` uses) on engine threads, so the thread answering HTTP never computes; `here` (default) on the
   * thread that answers, with the heavy steps on the worker pool.
   */
  compute?: 'here' | 'threads';
  /** Keep the engine's caches in the store, surviving restarts (default true). */
  persistentCache?: boolean;
  /**
   * Read the dataset's layers per window from this layer file instead of holding them in memory (engine
   * option `layerFile`: written from the dataset on first start), for datasets larger than memory.
   */
  layerFile?: string;
  /** With `layerFile`: megabytes of windows kept in memory (default 64). */
  windowCacheMb?: number;
  /** Where finished contour, noise and HAND tiles are kept (engine option `tileCache`; `false`: memory only). */
  tileCache?: string | false;
  /** Megabytes the per-state models may hold across states (engine option `modelBudgetBytes`); default 512 by window, none in memory. */
  modelBudgetMb?: number;
}

/** An engine and its store. */
export interface Stack {
  engine: Engine;
  store: ServerStore;
  /** Where the DA events webhooks deliver are read: the engine's DA store, or the shared database's outbox. */
  events: () => DaEventSource;
  /** Options for startServer: on PostgreSQL, each request first brings the local DA copy up to date. */
  serverOptions: { beforeRequest?: () => MaybePromise<void>; webhooks?: { events: () => DaEventSource } };
  /** Where the SQL endpoint keeps its mirror of the DA table (beside the store). */
  sqlMirror: string;
  /** Closes the engine (its workers) and then the store. */
  close(): Promise<void>;
}

/** The engine options of a layer file read by window, when the stack has one. */
function windowOptions(options: StackOptions): Pick<EngineOptions, 'layerFile' | 'windowCacheBytes' | 'modelBudgetBytes' | 'compute' | 'tileCache'> {
  const budget = { ...(options.modelBudgetMb ? { modelBudgetBytes: options.modelBudgetMb * 1024 * 1024 } : {}), ...(options.tileCache !== undefined ? { tileCache: options.tileCache } : {}) };
  const cache = options.windowCacheMb ? { windowCacheBytes: options.windowCacheMb * 1024 * 1024 } : {};
  const compute = options.compute ? { compute: options.compute } : {};
  // Engine threads always read by window (from a layer file of their own when none is named).
  return options.layerFile ? { layerFile: options.layerFile, ...cache, ...budget, ...compute } : options.compute === 'threads' ? { ...cache, ...budget, ...compute } : { ...budget, ...compute };
}

/**
 * The engine's layer and score caches in `store`, namespaced by engine version and dataset fingerprint; the
 * namespaces of other versions or data are dropped.
 */
async function engineCaches(store: ServerStore, datasets: string): Promise<{ layers: Cache; scores: Cache; namespaces: { layers: string; scores: string } }> {
  const tag = `${VERSION}:${datasetFingerprint(datasets)}`;
  const layers = `layers:${tag}`, scores = `scores:${tag}`;
  await store.dropCachesExcept([layers, scores]);
  return { layers: store.cache(layers), scores: store.cache(scores), namespaces: { layers, scores } };
}

/**
 * The engine options of its caches: `caches` for an engine computing here; for engine threads, the SQLite
 * file and namespaces they open themselves (`cacheDatabase`; none for an in-memory store: each thread keeps
 * its own memory caches).
 */
function cacheOptions(options: StackOptions, caches: Awaited<ReturnType<typeof engineCaches>> | undefined, file: string): Pick<EngineOptions, 'caches' | 'cacheDatabase'> {
  if (!caches) return {};
  const { namespaces, ...objects } = caches;
  if (options.compute !== 'threads') return { caches: objects };
  return file === ':memory:' ? {} : { cacheDatabase: { file, ...namespaces } };
}

/** Opens the store and the engine on `datasets`. */
export async function openStack(options: StackOptions): Promise<Stack> {
  if (isPostgresUrl(options.db)) return openReplicaStack(options);
  const store = SqliteStore.open(options.db);
  try {
    const caches = options.persistentCache === false ? undefined : await engineCaches(store, options.datasets);
    // The DA store lives in the same file as the keys and the meter: `propintel das import --db FILE` writes
    // where the server reads, and the server sees an import at once.
    const engine = await createEngine({ datasets: options.datasets, threads: options.threads, ...cacheOptions(options, caches, options.db), daDatabase: options.db === ':memory:' ? undefined : options.db, ...windowOptions(options) });
    return {
      engine,
      store,
      events: () => engine.das(),
      serverOptions: {},
      sqlMirror: options.db === ':memory:' ? join(tmpdir(), `propintel-sql-mirror-${process.pid}.sqlite`) : `${options.db}.sql-mirror.sqlite`,
      close: async () => {
        await engine.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * One replica on a shared PostgreSQL database: keys, meter, limits, webhooks and the DA records in the
 * database; the dataset's DA files loaded into it once; a local copy of the DA records and the engine's
 * caches in the replica's own directory (server/store/pg/da-replica.ts says why).
 */
async function openReplicaStack(options: StackOptions): Promise<Stack> {
  const store = await PgStore.open(options.db, { max: options.poolSize });
  const ownDir = !options.replicaDir;
  const dir = options.replicaDir ?? mkdtempSync(join(tmpdir(), 'propintel-replica-'));
  let local: SqliteStore | undefined;
  let replica: DaReplica | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    await store.das.rederiveIfStale();
    await loadDaTables(store.das, await daTablesOfDirectory(options.datasets));
    const file = join(dir, 'replica.sqlite');
    replica = DaReplica.open(store.das, file);
    await replica.catchUp();
    local = SqliteStore.open(file);
    const caches = options.persistentCache === false ? undefined : await engineCaches(local, options.datasets);
    const engine = await createEngine({ datasets: options.datasets, threads: options.threads, ...cacheOptions(options, caches, file), daStore: replica.local, ...windowOptions(options) });
    const r = replica, l = local;
    return {
      engine,
      store,
      events: () => store.das,
      serverOptions: { beforeRequest: () => r.catchUp(), webhooks: { events: () => store.das } },
      sqlMirror: join(dir, 'sql-mirror.sqlite'),
      close: async () => {
        await engine.close();
        await l.close();
        await store.close();
        if (ownDir) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    replica?.local.close();
    await local?.close();
    await store.close();
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
