/**
 * A throwaway PostgreSQL cluster for tests (scripts/pg-cluster.sh: initdb in a temporary directory, a Unix
 * socket, no TCP), or the reason there is none, for the PostgreSQL half of a test to skip naming it.
 * Each test takes a fresh database of its own (`fresh()`), so tests never see each other's rows.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDatabase, PG_CLUSTER_SCRIPT, postgresMissing } from '../../server/store/pg/pg-local.js';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);
const SCRIPT = PG_CLUSTER_SCRIPT;

/** A running cluster. */
export interface TestPostgres {
  /** The URL of the cluster's `propintel` database. */
  url: string;
  /** A new empty database on the cluster; its URL. */
  fresh(): Promise<string>;
  /** Stops the server at once (the database is lost to its clients until `start`). */
  stop(): Promise<void>;
  /** Starts it again on the same directory and socket. */
  start(): Promise<void>;
}

let counter = 0;

/**
 * Starts a cluster before the file's tests and stops it after; the returned state holds it, or why there
 * is none (for `ctx.skip(state.missing)`).
 */
export function usePostgres(): { pg?: TestPostgres; missing: string } {
  const state: { pg?: TestPostgres; missing: string } = { missing: postgresMissing() };
  let dir = '';
  beforeAll(async () => {
    if (state.missing) return;
    dir = mkdtempSync(join(tmpdir(), 'propintel-pg-'));
    try {
      const { stdout } = await run(SCRIPT, ['start', dir]);
      const url = stdout.trim().split('\n').pop()!;
      state.pg = {
        url,
        fresh: () => createDatabase(url, `t${process.pid}_${++counter}`),
        stop: async () => {
          await run(SCRIPT, ['stop', dir]);
        },
        start: async () => {
          await run(SCRIPT, ['start', dir]);
        },
      };
    } catch (err) {
      state.missing = `the PostgreSQL test cluster did not start: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}`;
    }
  }, 120_000);
  afterAll(async () => {
    if (!dir) return;
    await run(SCRIPT, ['stop', dir]).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
  return state;
}
