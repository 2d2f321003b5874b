/**
 * A PostgreSQL cluster on this machine, for tests, benchmarks and trying `--db postgres://...`:
 * scripts/pg-cluster.sh starts a throwaway one (Debian's `postgresql` packages) on a Unix socket. These are
 * the pieces the tests and the benchmark share around it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { PACKAGE_ROOT } from '../../../engine/entry/runtime.js';

/** The cluster script. */
export const PG_CLUSTER_SCRIPT = join(PACKAGE_ROOT, 'scripts', 'pg-cluster.sh');

/** Why a local cluster cannot be started here ('' when it can): PostgreSQL's server programs are absent. */
export function postgresMissing(): string {
  const root = '/usr/lib/postgresql';
  const found = existsSync(root) && readdirSync(root).some((v) => existsSync(join(root, v, 'bin', 'initdb')));
  return found ? '' : 'PostgreSQL is not installed (apt-get install postgresql postgresql-15-postgis-3; .ci/run installs them)';
}

/** Creates database `name` on the server of `url` (a cluster script URL); returns the new database's URL. */
export async function createDatabase(url: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  return url.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${name}`);
}
