/**
 * Opening what a server runs on: the store (keys, meter, caches) and an engine whose layer and score caches
 * persist in it. The CLI's `serve`, the server benchmark and the tests open it the same way.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, type Engine } from '../engine/engine.js';
import { PACKAGE_ROOT, VERSION } from '../engine/version.js';
import { SqliteStore } from './store/sqlite-store.js';

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

/** Options of {@link openStack}. */
export interface StackOptions {
  /** The dataset directory. */
  datasets: string;
  /** The store file, or ':memory:'. */
  db: string;
  /** Worker threads (default the number of cores). */
  threads?: number;
  /** Keep the engine's caches in the store, surviving restarts (default true). */
  persistentCache?: boolean;
}

/** An engine and its store. */
export interface Stack {
  engine: Engine;
  store: SqliteStore;
  /** Closes the engine (its workers) and then the store. */
  close(): Promise<void>;
}

/** Opens the store and the engine on `datasets`. */
export async function openStack(options: StackOptions): Promise<Stack> {
  const store = SqliteStore.open(options.db);
  try {
    let caches;
    if (options.persistentCache !== false) {
      const tag = `${VERSION}:${datasetFingerprint(options.datasets)}`;
      const layers = `layers:${tag}`, scores = `scores:${tag}`;
      await store.dropCachesExcept([layers, scores]);
      caches = { layers: store.cache(layers), scores: store.cache(scores) };
    }
    // The DA store lives in the same file as the keys and the meter: `propintel das import --db FILE` writes
    // where the server reads, and the server sees an import at once.
    const engine = await createEngine({ datasets: options.datasets, threads: options.threads, caches, daDatabase: options.db === ':memory:' ? undefined : options.db });
    return {
      engine,
      store,
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
