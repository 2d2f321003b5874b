/**
 * The DA listing at national scale (issue 15): a store of 1,000,000 synthetic DAs over the eight states
 * (datasets/da-feed.ts, 330 councils, about 4% without coordinates) plus the sample world's, built once and
 * cached in var/bench/, then:
 * - opening the store (schema check, the radius snapshot read) until the first radius query answers;
 * - a 100-row page of GET /v1/das (the library function the endpoint calls: count, page, JSON document) for
 *   each single filter and for state+category+since, each request with a different value (200 distinct
 *   values where the data has them, so cached counts do not flatter), p50 and p95; page 500 through `page`
 *   (an OFFSET stepped over a covering index) for the filters that match 50,000 or more, and through the
 *   keyset `cursor` that meta.pages.next carries;
 * - GET /v1/das/nearby, 5 km around central Sydney, Melbourne and Brisbane (the densest metros);
 * - /v1/councils and /v1/stats;
 * - beside each page row: the same SQL (COUNT(*) and the page's SELECT, same WHERE and ORDER BY) in the
 *   `sqlite3` shell with `.timer on`, the same 64 MB page cache and mmap, summed per request (CPU time: the
 *   shell's real time has 1 ms resolution);
 * - RSS: the DA store alone in a process after every query above, and `propintel serve` (the whole engine on
 *   the sample world plus this store) after DA requests.
 *
 * Targets (benchmark, not test): open < 2 s; pages p50 < 5 ms, p95 < 20 ms, also at page 500; nearby 5 km
 * in a dense metro p50 < 10 ms; server RSS < 500 MB with the store open.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { syntheticDaRows } from '../../datasets/da-feed.js';
import { DA_CATEGORIES, parseDaRows, DaStore, daStoreFromDirectory, STATUS_GROUPS } from '../../engine/entry/das.js';
import { daCouncilsDocument, daListDocument, daNearbyDocument, daStatsDocument } from '../../server/api/da-query.js';
import { STATES } from '../../engine/entry/data.js';
import { seededRandom } from '../../engine/entry/geo.js';
import { PACKAGE_ROOT } from '../../engine/entry/runtime.js';
import { getDefaultMaxTime, percentile, sink } from '../lib/measure.js';
import { ensureTool } from '../lib/reference-tools.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

/** Records in the fixture (PROPINTEL_BENCH_DAS overrides, for a quick look). */
const COUNT = Number(process.env.PROPINTEL_BENCH_DAS ?? 1_000_000);
/** Bump when the fixture's content or layout changes. */
const FIXTURE_VERSION = 1;
const FIRST_ID = 1_000_001;
const PER_PAGE = '100';

function fixturePath(): string {
  // Not named by the schema version: an older fixture is migrated in place when the store opens it.
  return join(PACKAGE_ROOT, 'var', 'bench', `das-${COUNT}-f${FIXTURE_VERSION}.sqlite`);
}

/** Builds the fixture once: the sample world's DAs, then the synthetic feed in batches, then compacted. */
export async function ensureFixture(): Promise<{ path: string; built: number | null }> {
  const path = fixturePath();
  if (existsSync(path)) return { path, built: null };
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.building`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  process.stdout.write(`  building the DA fixture (${COUNT.toLocaleString('en-AU')} records) in ${path} ...\n`);
  const t0 = performance.now();
  const dir = defaultDataDir();
  await ensureSampleWorld(dir);
  const store = await daStoreFromDirectory(dir, tmp);
  try {
    let batch: Record<string, unknown>[] = [];
    let done = 0;
    const flush = () => {
      const { drafts, rejected } = parseDaRows(batch, 'synthetic_da_feed');
      if (rejected.length) throw new Error(`the synthetic feed wrote a bad row: ${rejected[0].reason}`);
      store.upsert(drafts);
      done += batch.length;
      batch = [];
      if (done % 200_000 === 0) process.stdout.write(`    ${done.toLocaleString('en-AU')} ...\n`);
    };
    for (const row of syntheticDaRows({ count: COUNT, seed: 767_000, firstId: FIRST_ID })) {
      batch.push(row);
      if (batch.length === 20_000) flush();
    }
    if (batch.length) flush();
    store.compact();
  } finally {
    store.close();
  }
  // Fold the WAL in, so the file alone is the fixture.
  const db = new Database(tmp);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('journal_mode = DELETE');
  db.close();
  renameSync(tmp, path);
  return { path, built: performance.now() - t0 };
}

/** Milliseconds of each call of `fn` over `inputs`, in order. */
function timeEach<T>(inputs: readonly T[], fn: (x: T) => unknown): number[] {
  const out: number[] = [];
  for (const x of inputs) {
    const t0 = performance.now();
    sink.value = fn(x);
    out.push(performance.now() - t0);
  }
  return out;
}

const pct = percentile;

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** One kind of list request: its query parameters and the same filter as SQL. */
interface Probe {
  params: Record<string, string>;
  where: string;
}

interface Kind {
  name: string;
  probes: Probe[];
}

/** Per request CPU milliseconds of `sql` statements run in the sqlite3 shell, `perRequest` statements each. */
function sqliteShell(path: string, statements: string[], perRequest: number): number[] {
  const script = ['PRAGMA cache_size = -65536;', 'PRAGMA mmap_size = 1073741824;', '.output /dev/null', '.timer on', ...statements].join('\n');
  const r = spawnSync('sqlite3', ['-readonly', path], { input: script, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`sqlite3 failed: ${r.stderr}`);
  // The timer's lines go to stdout even with .output /dev/null (which swallows the rows).
  const text = r.stdout;
  const cpu = [...text.matchAll(/Run Time: real [\d.]+ user ([\d.]+) sys ([\d.]+)/g)].map((m) => (Number(m[1]) + Number(m[2])) * 1000);
  if (cpu.length !== statements.length) throw new Error(`sqlite3 timed ${cpu.length} of ${statements.length} statements`);
  const out: number[] = [];
  for (let i = 0; i < cpu.length; i += perRequest) out.push(cpu.slice(i, i + perRequest).reduce((s, x) => s + x, 0));
  return out;
}

function rssMb(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** The DA store alone in a fresh process (bench/lib/da-store-process.ts). */
function storeProcess(path: string): { openMs: number; rssMb: number; hwmMb: number } {
  const script = join(PACKAGE_ROOT, 'dist', 'bench', 'lib', 'da-store-process.js');
  return JSON.parse(execFileSync(process.execPath, [script, path], { encoding: 'utf8' })) as { openMs: number; rssMb: number; hwmMb: number };
}

/**
 * `propintel serve` on the sample world with `path` as its store (the fixture, or a fresh file holding only
 * the sample world's DAs): time to listening, and RSS after a few DA requests.
 */
async function serveRss(path: string): Promise<{ rss: number; hwm: number; startMs: number }> {
  const bin = join(PACKAGE_ROOT, 'bin', 'propintel.js');
  const made = JSON.parse(execFileSync(process.execPath, [bin, 'keys', 'create', '--db', path, '--components', 'none', '--da-daily-limit', '100000', '--label', 'bench:das'], { encoding: 'utf8' })) as { key: string };
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', path, '--no-dev-keys', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening: ${out}`)));
    });
    const startMs = performance.now() - t0;
    const get = async (p: string) => {
      const r = await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${made.key}` } });
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    for (const p of ['/v1/das?per_page=100', '/v1/das?state=NSW&per_page=100&page=500', '/v1/das/nearby?lat=-33.8688&lng=151.2093&radius_km=5', '/v1/councils', '/v1/stats', '/v1/categories']) await get(p);
    return { ...rssMb(child.pid!), startMs };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

export const dasSuite: BenchSuite = {
  name: 'das',
  description: 'the DA listing on a store of 1,000,000 DAs: open, filtered pages, deep pages, nearby, RSS; the same SQL in the sqlite3 shell',
  async run() {
    const rows: BenchRow[] = [];
    const { path, built } = await ensureFixture();
    const size = `${(COUNT / 1e6).toLocaleString('en-AU')}M DAs`;
    if (built !== null) rows.push({ benchmark: 'build the fixture once (sample world + feed, batched upserts, compact)', size, msPerOp: built, itemsPerSec: COUNT / (built / 1000), note: 'cached in var/bench/' });

    // Open: a fresh process each time would include Node's start; here a fresh connection, through the first radius answer.
    const opens = timeEach([0, 1, 2, 3, 4], () => {
      const s = DaStore.open(path);
      const n = s.nearbyHits(151.2093, -33.8688, 100).length;
      s.close();
      return n;
    });
    rows.push({ benchmark: 'open the store, through the first radius answer', size, msPerOp: pct(opens, 50), note: `median of 5; max ${pct(opens, 100).toFixed(0)} ms (target < 2 s)` });

    const store = DaStore.open(path);
    const total = store.count({});
    if (total < COUNT) throw new Error(`the fixture holds ${total} records, expected at least ${COUNT}`);
    // Values to rotate through, from records drawn at random.
    const raw = new Database(path, { readonly: true });
    const rnd = seededRandom(15);
    const sample = raw.prepare(`SELECT council_name, suburb_key, address_suburb, address_postcode, lodgement_date FROM das WHERE id IN (${Array.from({ length: 400 }, () => FIRST_ID + rnd.int(COUNT)).join(',')})`).all() as { council_name: string; suburb_key: string; address_suburb: string; address_postcode: string; lodgement_date: string }[];
    raw.close();
    const distinct = <T,>(xs: T[], key: (x: T) => string) => [...new Map(xs.map((x) => [key(x), x])).values()];
    const n = 200;
    const cycle = <T,>(xs: readonly T[]) => Array.from({ length: n }, (_, i) => xs[i % xs.length]);
    const dates = Array.from({ length: n }, (_, i) => new Date(Date.UTC(2019, 0, 1) + Math.floor(((i * 7919) % n) / n * 2870) * 86_400_000).toISOString().slice(0, 10));
    const kinds: Kind[] = [
      { name: 'state', probes: cycle(STATES).map((s) => ({ params: { state: s }, where: `state = ${q(s)}` })) },
      { name: 'council', probes: cycle(distinct(sample, (r) => r.council_name)).map((r) => ({ params: { council: r.council_name }, where: `council_name = ${q(r.council_name)}` })) },
      { name: 'category', probes: cycle(DA_CATEGORIES).map((c) => ({ params: { category: c }, where: `trade_category = ${q(c)}` })) },
      { name: 'suburb', probes: cycle(distinct(sample, (r) => r.suburb_key)).map((r) => ({ params: { suburb: r.address_suburb }, where: `suburb_key = ${q(r.suburb_key)}` })) },
      { name: 'postcode', probes: cycle(distinct(sample, (r) => r.address_postcode)).map((r) => ({ params: { postcode: r.address_postcode }, where: `address_postcode = ${q(r.address_postcode)}` })) },
      { name: 'since', probes: dates.map((d) => ({ params: { since: d }, where: `lodgement_date >= ${q(d)}` })) },
      { name: 'until', probes: dates.map((d) => ({ params: { until: d }, where: `lodgement_date <= ${q(d)}` })) },
      { name: 'status_group', probes: cycle(STATUS_GROUPS).map((g) => ({ params: { status_group: g }, where: `status_group = ${q(g)}` })) },
      { name: 'is_residential', probes: cycle(['true', 'false']).map((b) => ({ params: { is_residential: b }, where: `is_residential = ${b === 'true' ? 1 : 0}` })) },
      {
        name: 'state+category+since',
        probes: Array.from({ length: n }, (_, i) => {
          const s = STATES[i % 8], c = DA_CATEGORIES[(i * 5) % DA_CATEGORIES.length], d = dates[i];
          return { params: { state: s, category: c, since: d }, where: `state = ${q(s)} AND trade_category = ${q(c)} AND lodgement_date >= ${q(d)}` };
        }),
      },
    ];
    const shell = ensureTool('sqlite3', ['--version'], 'sqlite3');
    const order = 'ORDER BY lodgement_date DESC, id DESC';
    const listOf = (p: Record<string, string>) => daListDocument(store, new Map(Object.entries(p)), '/v1/das');
    // A first call of each kind compiles its statements; not counted.
    for (const k of kinds) listOf({ ...k.probes[0].params, per_page: PER_PAGE });

    for (const k of kinds) {
      for (const page of [1, 500]) {
        const probes = page === 1 ? k.probes : k.probes.filter((p) => store.count(toFilter(p.params)) >= 50_000);
        if (!probes.length) {
          rows.push({ benchmark: `GET /v1/das ${k.name}, page 500`, size, msPerOp: Number.NaN, note: 'no value of this filter matches 50,000 records: page 500 would be past the end' });
          continue;
        }
        const times = timeEach(probes, (p) => listOf({ ...p.params, per_page: PER_PAGE, ...(page > 1 ? { page: String(page) } : {}) }));
        const row: BenchRow = { benchmark: `GET /v1/das ${k.name}, 100 rows, page ${page}`, size, msPerOp: pct(times, 50), note: `p95 ${pct(times, 95).toFixed(2)} ms over ${probes.length} requests (${new Set(probes.map((p) => JSON.stringify(p.params))).size} values)` };
        if (shell.available) {
          const offset = page > 1 ? ` OFFSET ${(page - 1) * 100}` : '';
          const sql = probes.flatMap((p) => [`SELECT count(*) FROM das WHERE ${p.where};`, `SELECT * FROM das WHERE ${p.where} ${order} LIMIT 100${offset};`]);
          const ref = sqliteShell(path, sql, 2);
          row.reference = 'sqlite3 shell: COUNT + SELECT';
          row.refMsPerOp = pct(ref, 50);
          row.ratio = row.refMsPerOp / row.msPerOp;
          row.note += `; sqlite3 p95 ${pct(ref, 95).toFixed(2)} ms`;
        }
        rows.push(row);
      }
    }

    // Page 500 by the cursor meta.pages.next carries (keyset): follow next from page 1 once, then time page 500.
    let doc = listOf({ state: 'NSW', per_page: PER_PAGE });
    for (let pg = 1; pg < 499; pg++) {
      const next = (doc.meta as { pages: { next: string } }).pages.next;
      doc = listOf(Object.fromEntries(new URL(next, 'http://x').searchParams));
    }
    const at500 = Object.fromEntries(new URL((doc.meta as { pages: { next: string } }).pages.next, 'http://x').searchParams);
    const keyset = timeEach(Array.from({ length: 100 }, () => at500), (p) => listOf(p));
    rows.push({ benchmark: 'GET /v1/das state=NSW, 100 rows, page 500 by cursor (keyset)', size, msPerOp: pct(keyset, 50), note: `p95 ${pct(keyset, 95).toFixed(2)} ms; the same page each time` });

    // Nearby: 5 km around three CBDs, 20 and 100 rows; the count of hits is in the note.
    const centres: [string, number, number][] = [['Sydney', 151.2093, -33.8688], ['Melbourne', 144.9631, -37.8136], ['Brisbane', 153.0251, -27.4698]];
    for (const perPage of ['20', '100']) {
      const probes = Array.from({ length: 60 }, (_, i) => centres[i % 3]);
      const times = timeEach(probes, ([, lng, lat]) => daNearbyDocument(store, new Map([['lat', String(lat)], ['lng', String(lng)], ['radius_km', '5'], ['per_page', perPage]]), '/v1/das/nearby'));
      const hits = centres.map(([name, lng, lat]) => `${name} ${store.nearbyHits(lng, lat, 5000).length}`).join(', ');
      rows.push({ benchmark: `GET /v1/das/nearby 5 km, ${perPage} rows`, size, msPerOp: pct(times, 50), note: `p95 ${pct(times, 95).toFixed(2)} ms; records within 5 km: ${hits}` });
    }
    const filtered = timeEach(Array.from({ length: 60 }, (_, i) => centres[i % 3]), ([, lng, lat]) => daNearbyDocument(store, new Map([['lat', String(lat)], ['lng', String(lng)], ['radius_km', '5'], ['category', 'new_dwelling'], ['since', '2025-01-01']]), '/v1/das/nearby'));
    rows.push({ benchmark: 'GET /v1/das/nearby 5 km, category+since, 20 rows', size, msPerOp: pct(filtered, 50), note: `p95 ${pct(filtered, 95).toFixed(2)} ms` });
    if (shell.available) {
      // The same circle as plain SQL: a bounding box on latitude/longitude (no spatial index), then the distance.
      const [, lng, lat] = centres[0];
      const dLat = 5000 / 111_320, dLng = 5000 / (111_320 * Math.cos((lat * Math.PI) / 180));
      const sql = `SELECT id FROM das WHERE latitude BETWEEN ${lat - dLat} AND ${lat + dLat} AND longitude BETWEEN ${lng - dLng} AND ${lng + dLng} ORDER BY (latitude - ${lat}) * (latitude - ${lat}) + (longitude - ${lng}) * (longitude - ${lng}) * ${Math.cos((lat * Math.PI) / 180) ** 2} LIMIT 20;`;
      const ref = sqliteShell(path, Array(5).fill(sql), 1);
      const ours = timeEach(Array(20).fill(centres[0]), ([, x, y]) => daNearbyDocument(store, new Map([['lat', String(y)], ['lng', String(x)], ['radius_km', '5']]), '/v1/das/nearby'));
      rows.push({ benchmark: 'GET /v1/das/nearby 5 km Sydney, 20 rows', size, msPerOp: pct(ours, 50), reference: 'sqlite3 shell: bbox scan + ORDER BY', refMsPerOp: pct(ref, 50), ratio: pct(ref, 50) / pct(ours, 50), note: 'das has no index on coordinates: the plain-SQL way is a scan' });
    }

    const councils = timeEach(Array(20).fill(0), () => daCouncilsDocument(store));
    rows.push({ benchmark: 'GET /v1/councils', size, msPerOp: pct(councils, 50), note: `${store.councils().length} councils; p95 ${pct(councils, 95).toFixed(2)} ms` });
    const stats = timeEach(Array(20).fill(0), () => daStatsDocument(store));
    rows.push({ benchmark: 'GET /v1/stats', size, msPerOp: pct(stats, 50), note: `p95 ${pct(stats, 95).toFixed(2)} ms` });
    store.close();
    const alone = storeProcess(path);
    rows.push({ benchmark: 'the DA store alone in a fresh process: open + one of each request', size, msPerOp: alone.openMs, note: `RSS ${alone.rssMb.toFixed(0)} MB (peak ${alone.hwmMb.toFixed(0)} MB); ms/op is the open through the first radius answer` });

    if (getDefaultMaxTime() >= 0.5 || process.env.PROPINTEL_BENCH_DAS_SERVE) {
      const withStore = await serveRss(path);
      const baselineDb = join(dirname(path), `serve-baseline-${process.pid}.sqlite`);
      let baseline: { rss: number; hwm: number; startMs: number } | null = null;
      try {
        baseline = await serveRss(baselineDb);
      } finally {
        for (const f of [baselineDb, `${baselineDb}-wal`, `${baselineDb}-shm`]) rmSync(f, { force: true });
      }
      rows.push({ benchmark: 'propintel serve RSS: engine on the sample world + this DA store', size, msPerOp: withStore.startMs, note: `${withStore.rss.toFixed(0)} MB after DA requests (peak ${withStore.hwm.toFixed(0)} MB; target < 500 MB); ms/op is start to listening` });
      rows.push({ benchmark: 'propintel serve RSS: engine on the sample world, its own 2,517 DAs only', size: 'sample world', msPerOp: baseline.startMs, note: `${baseline.rss.toFixed(0)} MB after the same requests (peak ${baseline.hwm.toFixed(0)} MB): the difference is the 1M store` });
    }
    return rows;
  },
};

function toFilter(p: Record<string, string>): Parameters<DaStore['count']>[0] {
  return {
    state: p.state as never,
    council: p.council,
    category: p.category as never,
    suburb: p.suburb,
    postcode: p.postcode,
    since: p.since,
    until: p.until,
    status_group: p.status_group as never,
    is_residential: p.is_residential === undefined ? undefined : p.is_residential === 'true',
  };
}
