/**
 * Several replicas on one PostgreSQL (issue 22), measured side by side in one run on a throwaway cluster
 * (scripts/pg-cluster.sh; skipped, naming why, where PostgreSQL is not installed):
 *
 * - cached property lookups: two server processes on PostgreSQL, 64 wrk connections split between them
 *   (32 each, both at once), against one process on SQLite at 64 connections;
 * - metered first lookups per second (distinct addresses, the `das` block) on each setup, 64 clients;
 * - the quota under a race: 300 first lookups by 64 clients split across the two replicas on a quota of
 *   100: the count charged (must be exactly 100);
 * - the DA radius search: PostGIS (`geography` with a GiST index, `ST_DWithin` ordered by distance) against
 *   a replica's local copy (SQLite plus the in-memory radius index) on the same records, and how fast a
 *   replica's copy catches up from the database. This is the measurement behind da-replica.ts's choice.
 *
 * On two cores the servers, wrk, PostgreSQL and this process share the machine: ratios are of this run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { syntheticDaRows } from '../../datasets/da-feed.js';
import { parseDaRows } from '../../engine/entry/das.js';
import { seededRandom } from '../../engine/entry/geo.js';
import { createKey } from '../../server/keys/key-admin.js';
import { DaReplica } from '../../server/store/pg/da-replica.js';
import { createDatabase, PG_CLUSTER_SCRIPT, postgresMissing } from '../../server/store/pg/pg-local.js';
import { PgStore } from '../../server/store/pg/pg-store.js';
import { firstLookups, median, pct, startServerProcess, stop, wrk, wrkAsync, wrkAvailable, type Server } from '../lib/load.js';
import { getDefaultMaxTime } from '../lib/measure.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

const SCRIPT = PG_CLUSTER_SCRIPT;

/** The radius search: PostGIS against a replica's local copy, on `count` synthetic records. */
async function radiusRows(url: string, dir: string, count: number, queries: number): Promise<BenchRow[]> {
  const dbUrl = await createDatabase(url, 'radius');
  const store = await PgStore.open(dbUrl, { max: 4 });
  const rows: BenchRow[] = [];
  try {
    const drafts = parseDaRows([...syntheticDaRows({ count, seed: 2207, councils: 330 })], 'bench', { requireId: true }).drafts;
    let t = performance.now();
    for (let i = 0; i < drafts.length; i += 20_000) await store.das.upsert(drafts.slice(i, i + 20_000));
    const importMs = performance.now() - t;
    rows.push({ benchmark: 'DA import into PostgreSQL (upsert, events, one write lock)', size: `${count} records`, msPerOp: importMs, itemsPerSec: count / (importMs / 1000), note: 'batches of 20,000, as `das import --db postgres://` writes' });
    t = performance.now();
    const replica = DaReplica.open(store.das, join(dir, 'radius-replica.sqlite'));
    await replica.catchUp();
    const syncMs = performance.now() - t;
    rows.push({ benchmark: 'a new replica\'s local copy catching up', size: `${count} records`, msPerOp: syncMs, itemsPerSec: count / (syncMs / 1000), note: 'rows read by position, written with summaries and the radius index, then compacted' });
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    try {
      const postgis = await c.query("SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'");
      if (!postgis.rows.length) {
        rows.push({ benchmark: 'DA radius: PostGIS (skipped)', size: '-', msPerOp: NaN, note: 'PostGIS is not installed (apt-get install postgresql-15-postgis-3)' });
        return rows;
      }
      await c.query('CREATE EXTENSION IF NOT EXISTS postgis');
      await c.query('ALTER TABLE das ADD COLUMN geog geography(Point, 4326)');
      await c.query('UPDATE das SET geog = ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography WHERE latitude IS NOT NULL');
      await c.query('CREATE INDEX das_geog ON das USING gist (geog)');
      await c.query('ANALYZE das');
      const local = replica.local;
      const rnd = seededRandom(99);
      const geocoded = drafts.filter((d) => d.lat !== null && d.lng !== null);
      const centres = Array.from({ length: queries }, () => geocoded[Math.floor(rnd.next() * geocoded.length)]);
      const radius = 2000;
      const sql = `SELECT id, ST_Distance(geog, p) AS d, count(*) OVER () AS total FROM das, (SELECT ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography AS p) q
        WHERE ST_DWithin(geog, p, $3) ORDER BY d, id LIMIT 20`;
      const pgTimes: number[] = [], ours: number[] = [];
      let agree = 0, totalHits = 0;
      for (const p of centres) {
        let t0 = performance.now();
        const r = await c.query<{ id: string; total: string }>(sql, [p.lng, p.lat, radius]);
        pgTimes.push(performance.now() - t0);
        t0 = performance.now();
        const page = local.nearbyPage(p.lng!, p.lat!, radius, {}, { limit: 20 });
        ours.push(performance.now() - t0);
        const pgTotal = Number(r.rows[0]?.total ?? 0);
        totalHits += page.total;
        // PostGIS measures on the spheroid, the index on the sphere: a record within a few metres of the
        // edge can fall on either side, so the totals are compared, not asserted.
        if (pgTotal === page.total) agree++;
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      rows.push({
        benchmark: 'DA radius 2 km, top 20 by distance + total: replica copy (in-memory index)',
        size: `${count} records, ${queries} queries`,
        msPerOp: mean(ours),
        reference: 'PostGIS ST_DWithin, geography + GiST',
        refMsPerOp: mean(pgTimes),
        ratio: mean(pgTimes) / mean(ours),
        note: `p50 ${pct(ours, 50).toFixed(3)} ms vs PostGIS p50 ${pct(pgTimes, 50).toFixed(3)} ms (Unix socket); ${(totalHits / queries).toFixed(0)} records in range on average; totals agree on ${agree} of ${queries} (the rest differ at the edge: sphere vs spheroid)`,
      });
    } finally {
      await c.end();
      replica.local.close();
    }
  } finally {
    await store.close();
  }
  return rows;
}

export const replicasSuite: BenchSuite = {
  name: 'replicas',
  description: 'two server processes on one PostgreSQL vs one on SQLite: cached lookups (wrk), metered first lookups, the quota under a race; PostGIS radius vs the replica copy',
  async run() {
    const missing = postgresMissing();
    if (missing) return [{ benchmark: 'replicas (skipped)', size: '-', msPerOp: NaN, note: missing }];
    const quick = getDefaultMaxTime() < 1;
    const seconds = quick ? 2 : 5;
    const rounds = quick ? 1 : 3;
    const firstN = quick ? 128 : 256;
    const raceN = 300;
    const dir = mkdtempSync(join(tmpdir(), 'propintel-bench-replicas-'));
    // The cluster in a directory of its own (as root, the postgres user must be able to reach it).
    const pgDir = mkdtempSync(join(tmpdir(), 'propintel-bench-pg-'));
    const rows: BenchRow[] = [];
    const started = spawnSync(SCRIPT, ['start', pgDir], { encoding: 'utf8' });
    if (started.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      rmSync(pgDir, { recursive: true, force: true });
      return [{ benchmark: 'replicas (skipped)', size: '-', msPerOp: NaN, note: `the PostgreSQL cluster did not start: ${started.stderr.split('\n')[0]}` }];
    }
    const url = started.stdout.trim().split('\n').pop()!;
    const procs: Server[] = [];
    try {
      const dbUrl = await createDatabase(url, 'replicas');
      const admin = await PgStore.open(dbUrl, { max: 2 });
      const { key } = await createKey(admin, { components: 'all', geometry: true, quota: 10_000_000 });
      const race = (await createKey(admin, { components: 'all', geometry: true, quota: 100 })).key;
      const addresses = firstN + raceN;
      const sqlite = await startServerProcess('uws', addresses);
      procs.push(sqlite);
      const a = await startServerProcess('uws', addresses, ['--db', dbUrl, '--replica-dir', join(dir, 'a'), '--key', key]);
      procs.push(a);
      const b = await startServerProcess('uws', addresses, ['--db', dbUrl, '--replica-dir', join(dir, 'b'), '--key', key]);
      procs.push(b);
      const replicas = [a, b];
      const list = sqlite.ready.addresses;

      const wrkMissing = wrkAvailable();
      if (wrkMissing) rows.push({ benchmark: 'cached lookups (skipped)', size: '-', msPerOp: NaN, note: wrkMissing });
      else {
        const path = `/api/v1/property?address=${encodeURIComponent(sqlite.ready.sandbox[0])}`;
        const h = (s: Server) => ({ 'accept-encoding': 'gzip', authorization: `Bearer ${s.ready.key}` });
        for (const s of procs) {
          const res = await fetch(`${s.ready.url}${path}`, { headers: h(s) });
          if (res.status !== 200) throw new Error(`warm-up on ${s.ready.url}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
          wrk(`${s.ready.url}${path}`, 1, h(s));
        }
        const one: number[] = [], two: number[] = [], p99s: number[] = [], p99One: number[] = [];
        let errors = 0;
        for (let r = 0; r < rounds; r++) {
          const x = wrk(`${sqlite.ready.url}${path}`, seconds, h(sqlite), 64);
          one.push(x.rps);
          p99One.push(x.p99);
          const both = await Promise.all(replicas.map((s) => wrkAsync(`${s.ready.url}${path}`, seconds, h(s), 32)));
          two.push(both[0].rps + both[1].rps);
          p99s.push(Math.max(both[0].p99, both[1].p99));
          errors += x.errors + both[0].errors + both[1].errors;
        }
        rows.push({
          benchmark: 'cached property lookup, 2 replicas on PostgreSQL',
          size: `64 conns (32 + 32), ${rounds}x${seconds}s`,
          msPerOp: 1000 / median(two),
          itemsPerSec: median(two),
          reference: '1 process on SQLite, 64 conns',
          refMsPerOp: 1000 / median(one),
          ratio: median(two) / median(one),
          note: `p99 ${median(p99s).toFixed(2)} ms (SQLite ${median(p99One).toFixed(2)} ms); each request reads the meter from PostgreSQL, and the DA head position (one read shared by the requests arriving meanwhile); keys come from memory${errors ? `; ${errors} errors` : ''}`,
        });
      }

      // Metered first lookups: the same distinct addresses on each setup (separate stores: first on both).
      const firsts = list.slice(0, firstN);
      const lite = await firstLookups([sqlite.ready], firsts, 64, '&components=das');
      const shared = await firstLookups(replicas.map((s) => s.ready), firsts, 64, '&components=das');
      rows.push({
        benchmark: 'metered first lookups (das block), 2 replicas on PostgreSQL',
        size: `${firstN} addresses, 64 clients`,
        msPerOp: 1000 / shared.rps,
        itemsPerSec: shared.rps,
        reference: '1 process on SQLite',
        refMsPerOp: 1000 / lite.rps,
        ratio: shared.rps / lite.rps,
        note: `p50 ${shared.p50.toFixed(1)} ms, p99 ${shared.p99.toFixed(1)} ms (SQLite p50 ${lite.p50.toFixed(1)}, p99 ${lite.p99.toFixed(1)})${shared.failed + lite.failed ? `; ${shared.failed + lite.failed} not 200` : ''}`,
      });

      // The quota under a race: a key with 100 left, 300 first lookups over both replicas at once.
      const racers = replicas.map((s) => ({ url: s.ready.url, key: race }));
      const raced = await firstLookups(racers, list.slice(firstN, firstN + raceN), 64, '&components=das');
      const raceId = race.split('_')[1];
      const period = (await admin.query<{ period_key: string; used: number }>('SELECT period_key, used FROM usage_counts WHERE key_id = $1', [raceId])).rows;
      const charged = raced.statuses[200] ?? 0;
      rows.push({
        benchmark: 'quota under a race, 2 replicas: first lookups charged',
        size: `${raceN} first lookups, quota 100`,
        msPerOp: 1000 / raced.rps,
        itemsPerSec: raced.rps,
        note: `${charged} answered 200 and charged, ${raced.statuses[429] ?? 0} refused 429; the meter holds ${period[0]?.used ?? 0} (must be exactly 100: ${charged === 100 && period[0]?.used === 100 ? 'exact' : 'NOT EXACT'})`,
      });
      await admin.close();
      for (const s of procs.splice(0)) await stop(s);
      rows.push(...(await radiusRows(url, dir, quick ? 50_000 : 200_000, quick ? 100 : 500)));
    } finally {
      for (const s of procs) await stop(s).catch(() => {});
      spawnSync(SCRIPT, ['stop', pgDir]);
      rmSync(dir, { recursive: true, force: true });
      rmSync(pgDir, { recursive: true, force: true });
    }
    return rows;
  },
};
