/**
 * Every core (issue 46): the same loads on a server with 1 engine thread and with 2, side by side in one run
 * (the rounds alternate), on the sample world:
 *
 * - an uncached lookup alone: 60 first lookups one after another, p50 (the server's `--compute here`, the
 *   layout before engine threads, measured beside it);
 * - cold first lookups under load: 64 clients, 1,000 distinct addresses over eight states, each asked once
 *   (full payload, gzip): lookups/s, p50, p99; and the same load on `--compute here` with 2 pool threads;
 * - cached lookups: the same 1,000 asked again three times, 64 clients: requests/s;
 * - cold tiles: 64 clients, distinct map tiles (zones, parcels, roads, HAND, noise, contours) around each
 *   state's sandbox addresses, with no tile cache: tiles/s;
 * - batch: a server job of distinct Victorian addresses (full payload, no surfaces), submission to done: rows/s;
 * - the server's RSS after the loads, and CPU per thread from /proc (the answering thread, the engine threads,
 *   and the rest: GC helpers, libuv, uWebSockets.js) over the cold load;
 * - a projection for 4, 8 and 16 cores from the serial fraction the cold loads measure (Amdahl's law),
 *   labelled as a projection: no such machine was measured.
 *
 * The load client is leanLoad (bench/lib/load.ts): keep-alive connections that read only the status line and
 * Content-Length, so on this 2-core machine it takes a fraction of the CPU fetch() would from the server.
 *
 * Targets (issue 46, 2 cores): cold first lookups at least 90/s at 2 threads and at least 1.7x the 1-thread
 * figure of the same run, p99 under 1 s; batch at least 150 rows/s; an uncached lookup alone no slower than
 * before (p50 about 18 ms); cached lookups no slower; RSS at 2 threads at most 1.25x RSS at 1 thread.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { tileAt } from '../../engine/entry/tiles.js';
import { firstLookups, leanLoad, median, pct, startServerProcess, stop, type Server } from '../lib/load.js';
import { getDefaultMaxTime } from '../lib/measure.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

const CLIENTS = 64;
const STATES = ['vic', 'nsw', 'qld', 'wa', 'sa', 'tas', 'act', 'nt'];

/** `per` street addresses from each state's addresses.csv, from line `offset` on, spread through the file. */
function addresses(per: number, offset: number): string[] {
  const out: string[] = [];
  for (const st of STATES) {
    const lines = readFileSync(join(defaultDataDir(), st, 'addresses.csv'), 'utf8').trim().split('\n').slice(1);
    const step = Math.max(1, Math.floor(lines.length / per));
    for (let i = 0; i < per; i++) {
      const [, unit, number, street, type, suburb, state, postcode] = lines[(i * step + offset) % lines.length].split(',');
      out.push(`${unit ? `${unit}/` : ''}${number} ${street} ${type}, ${suburb} ${state} ${postcode}`);
    }
  }
  return out;
}

/** Interleaves the states (VIC, NSW, ... VIC, NSW, ...), as traffic from everywhere comes. */
function interleaved(list: string[], per: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < per; i++) for (let s = 0; s < STATES.length; s++) out.push(list[s * per + i]);
  return out;
}

/** CPU ms of each thread of process `pid` (utime + stime from /proc/PID/task/TID/stat, 10 ms ticks). */
function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(Number(tid), (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The engine threads' Linux thread ids, from /metrics. */
async function engineTids(s: Server): Promise<Set<number>> {
  const text = await (await fetch(`${s.ready.url}/metrics`)).text();
  return new Set([...text.matchAll(/propintel_engine_thread_info\{thread="\d+",tid="(\d+)"\}/g)].map((m) => Number(m[1])));
}

/** Distinct tile paths around each state's sandbox addresses: `n` per layer, 5 x 5 tiles at z15 and z16 (parcels, which start at z16: z16 and z17). */
function tilePaths(sandbox: { lat: number; lng: number }[], n: number): string[] {
  const layers = ['zones', 'parcels', 'roads', 'hand', 'noise', 'contours'];
  const out: string[] = [];
  for (const layer of layers) {
    const mine: string[] = [];
    for (const z of layer === 'parcels' ? [16, 17] : [15, 16]) {
      for (const p of sandbox) {
        const c = tileAt(p.lng, p.lat, z);
        for (let dx = -2; dx <= 2; dx++) for (let dy = -2; dy <= 2; dy++) mine.push(`/api/v1/tiles/${layer}/${z}/${c.x + dx}/${c.y + dy}.mvt`);
      }
    }
    out.push(...[...new Set(mine)].slice(0, n));
  }
  // Layers interleaved, so every kind of tile is asked for throughout.
  const by = layers.map((l) => out.filter((p) => p.includes(`/tiles/${l}/`)));
  const mixed: string[] = [];
  for (let i = 0; i < n; i++) for (const l of by) if (l[i]) mixed.push(l[i]);
  return mixed;
}

interface Round {
  single: number[];
  cold: Awaited<ReturnType<typeof leanLoad>>;
  cached: Awaited<ReturnType<typeof leanLoad>>;
  tiles: Awaited<ReturnType<typeof leanLoad>>;
  /** The server's RSS right after the cold load, and after every load. */
  rssCold: number;
  rss: number;
  /** CPU ms over the cold load: the answering thread, the engine threads, the rest. */
  cpu: { main: number; engine: number; engineEach: number[]; other: number };
}

/** Pins every thread of process `pid` (and those it starts later) to the cores in `list` (taskset). */
function pin(pid: number, list: string): void {
  const r = spawnSync('taskset', ['-a', '-p', '-c', list, String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset -a -p -c ${list} ${pid} failed: ${r.stderr || r.error}`);
}

/** Null when taskset can pin a server to chosen cores here, else why not. */
function pinning(): string | null {
  if (availableParallelism() < 2) return 'one core: nothing to pin apart';
  const r = spawnSync('taskset', ['-V'], { encoding: 'utf8' });
  return r.status === 0 ? null : 'taskset (util-linux) is not installed';
}

/**
 * One server: warmed, then an uncached lookup alone, the cold load, the cached load and the cold tiles (with
 * `coldOnly`, the cold load alone); with `cores`, every thread of the server pinned to those cores.
 */
async function serverRound(extra: string[], quick: boolean, options: { cores?: string; coldOnly?: boolean } = {}): Promise<Round> {
  const s = await startServerProcess('uws', 0, ['--tile-cache', 'none', ...extra]);
  try {
    if (options.cores) pin(s.child.pid!, options.cores);
    const auth = { authorization: `Bearer ${s.ready.key}` };
    const pid = s.child.pid!;
    // A running server has built its models: one lookup per sandbox address (every state) and a few more.
    await firstLookups([s.ready], s.ready.sandbox, 4);
    await firstLookups([s.ready], addresses(4, 1), 4);
    // An uncached lookup alone, one after another.
    const single: number[] = [];
    for (const a of options.coldOnly ? [] : addresses(quick ? 4 : 8, 2)) {
      const t0 = performance.now();
      const res = await fetch(`${s.ready.url}/api/v1/property?address=${encodeURIComponent(a)}`, { headers: { ...auth, 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`single lookup answered ${res.status}`);
      single.push(performance.now() - t0);
    }
    const per = quick ? 40 : 125;
    const paths = interleaved(addresses(per, 3), per).map((a) => `/api/v1/property?address=${encodeURIComponent(a)}`);
    const tids = await engineTids(s);
    const c0 = threadCpu(pid);
    const cold = await leanLoad(s.ready.url, paths, CLIENTS, { ...auth, 'accept-encoding': 'gzip' });
    const c1 = threadCpu(pid);
    const rssCold = rssMb(pid);
    const d = (tid: number) => (c1.get(tid) ?? 0) - (c0.get(tid) ?? 0);
    const engineEach = [...tids].map(d);
    const all = [...c1.keys()].reduce((a, t) => a + d(t), 0);
    const cpu = { main: d(pid), engine: engineEach.reduce((a, b) => a + b, 0), engineEach, other: 0 };
    cpu.other = all - cpu.main - cpu.engine;
    if (cold.failed) throw new Error(`cold lookups: ${JSON.stringify(cold.statuses)}`);
    if (options.coldOnly) return { single, cold, cached: cold, tiles: cold, rssCold, rss: rssCold, cpu };
    const cached = await leanLoad(s.ready.url, [...paths, ...paths, ...paths], CLIENTS, { ...auth, 'accept-encoding': 'gzip' });
    const tiles = await leanLoad(s.ready.url, tilePaths(s.ready.sandbox.length ? await sandboxPoints(s) : [], quick ? 20 : 60), CLIENTS, auth);
    return { single, cold, cached, tiles, rssCold, rss: rssMb(pid), cpu };
  } finally {
    await stop(s);
  }
}

/** The sandbox addresses' points (the server prints only their text). */
async function sandboxPoints(s: Server): Promise<{ lat: number; lng: number }[]> {
  const doc = (await (await fetch(`${s.ready.url}/api/v1/property/sandbox`)).json()) as { addresses: { lat: number; lng: number }[] };
  return doc.addresses;
}

/**
 * A server job of `rows` distinct Victorian addresses: rows/s from submission to done, and the p99 of
 * /healthz asked every 20 ms meanwhile (the answering thread's latency while the job computes).
 */
async function batchRound(threads: number, rows: number): Promise<{ rps: number; healthP99: number }> {
  const s = await startServerProcess('uws', 0, ['--compute', 'threads', '--threads', String(threads), '--batch', 'spatial']);
  try {
    const auth = { authorization: `Bearer ${s.ready.key}` };
    await firstLookups([s.ready], s.ready.sandbox, 4);
    const list = addresses(Math.ceil(rows / 8) * 8, 11).filter((a) => / VIC /.test(a)).slice(0, rows);
    const vic = list.length >= rows ? list : [...list, ...addresses(rows, 13).filter((a) => / VIC /.test(a))].slice(0, rows);
    const text = `address\n${vic.map((a) => `"${a}"`).join('\n')}\n`;
    const latencies: number[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const t = performance.now();
        await (await fetch(`${s.ready.url}/healthz`)).text();
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const healthP99 = async () => {
      polling = false;
      await poll;
      latencies.sort((a, b) => a - b);
      return latencies[Math.floor(latencies.length * 0.99)] ?? NaN;
    };
    const t0 = performance.now();
    const res = await fetch(`${s.ready.url}/v1/batch?components=das,poi,planning,hazards,environment,transport,utilities,administrative,public_housing,scores`, { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: text });
    if (res.status !== 202) throw new Error(`POST /v1/batch answered ${res.status}: ${await res.text()}`);
    const job = (await res.json()) as { id: string };
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const st = (await (await fetch(`${s.ready.url}/v1/batch/${job.id}`, { headers: auth })).json()) as { status: string; rows_done: number; rows_failed: number };
      if (st.status === 'done') {
        if (st.rows_failed) throw new Error(`the batch job finished with ${st.rows_failed} failed rows`);
        const rps = vic.length / ((performance.now() - t0) / 1000);
        return { rps, healthP99: await healthP99() };
      }
      if (st.status !== 'running' && st.status !== 'queued') throw new Error(`the batch job ended ${st.status}`);
    }
  } finally {
    await stop(s);
  }
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);

export const coresSuite: BenchSuite = {
  name: 'cores',
  description: 'every core: cold and cached lookups, tiles and batch at 1 and 2 engine threads side by side, CPU per thread, RSS, an Amdahl projection',
  async run() {
    const quick = getDefaultMaxTime() < 1;
    const rounds = quick ? 1 : 3;
    const runs: Record<'t1' | 't2' | 'here', Round[]> = { t1: [], t2: [], here: [] };
    for (let r = 0; r < rounds; r++) {
      runs.t1.push(await serverRound(['--compute', 'threads', '--threads', '1'], quick));
      runs.t2.push(await serverRound(['--compute', 'threads', '--threads', '2'], quick));
    }
    runs.here.push(await serverRound(['--compute', 'here', '--threads', '2'], quick));
    // Each server on as many cores as it has engine threads: the 1-thread server's GC helpers, libuv and
    // answering thread share its one core instead of borrowing the idle second one (the load client is not
    // pinned).
    const noPin = pinning();
    const pinned: Record<'t1' | 't2', Round[]> = { t1: [], t2: [] };
    if (!noPin) {
      const all = Array.from({ length: availableParallelism() }, (_, i) => i).join(',');
      for (let r = 0; r < rounds; r++) {
        // The load client (this process) keeps off the 1-thread server's core, so that core is the server's.
        pin(process.pid, '1');
        try {
          pinned.t1.push(await serverRound(['--compute', 'threads', '--threads', '1'], quick, { cores: '0', coldOnly: true }));
        } finally {
          pin(process.pid, all);
        }
        pinned.t2.push(await serverRound(['--compute', 'threads', '--threads', '2'], quick, { cores: '0,1', coldOnly: true }));
      }
    }
    const batchRows = quick ? 500 : 3000;
    const batch = { t1: await batchRound(1, batchRows), t2: await batchRound(2, batchRows) };

    // Each figure: the median of the rounds (the round whose cold rate is the median, for its companions).
    const mid = (rs: Round[]) => [...rs].sort((a, b) => a.cold.rps - b.cold.rps)[Math.floor(rs.length / 2)];
    const one = mid(runs.t1), two = mid(runs.t2), here = mid(runs.here);
    const speedup = two.cold.rps / one.cold.rps;
    // Amdahl: speedup(2) = 1 / (s + (1 - s) / 2), so the serial fraction s = 2 / speedup - 1; from the pinned
    // runs when there are (a core per thread: the unpinned 1-thread server borrows the idle core).
    const base = pinned.t1.length ? { one: mid(pinned.t1).cold.rps, two: mid(pinned.t2).cold.rps, how: 'pinned' } : { one: one.cold.rps, two: two.cold.rps, how: 'unpinned' };
    const serial = Math.min(1, Math.max(0, 2 / (base.two / base.one) - 1));
    const project = (n: number) => base.one / (serial + (1 - serial) / n);
    const cpuNote = (r: Round) => `CPU over the cold load: answering thread ${f1(r.cpu.main / r.cold.n)} ms a lookup, engine threads ${r.cpu.engineEach.map((c) => f1(c / r.cold.n)).join(' + ')} ms, the rest (GC helpers, libuv) ${f1(r.cpu.other / r.cold.n)} ms`;
    const rows: BenchRow[] = [
      {
        benchmark: 'uncached lookup alone, 2 engine threads',
        size: `${two.single.length} one after another`,
        msPerOp: median(two.single),
        reference: '--compute here (before), 2 pool threads',
        refMsPerOp: median(here.single),
        ratio: median(here.single) / median(two.single),
        note: `p50; 1 engine thread ${f1(median(one.single))} ms; target: no slower than before (about 18 ms)`,
      },
      {
        benchmark: 'cold first lookups under load, 2 engine threads',
        size: `${two.cold.n} distinct, ${CLIENTS} clients`,
        msPerOp: 1000 / two.cold.rps,
        itemsPerSec: two.cold.rps,
        reference: '1 engine thread, same run',
        refMsPerOp: 1000 / one.cold.rps,
        ratio: speedup,
        note: `p50 ${f0(two.cold.p50)} ms, p99 ${f0(two.cold.p99)} ms (1 thread: ${f1(one.cold.rps)}/s, p50 ${f0(one.cold.p50)}, p99 ${f0(one.cold.p99)}); rounds ${runs.t2.map((x) => f1(x.cold.rps)).join(', ')} vs ${runs.t1.map((x) => f1(x.cold.rps)).join(', ')}; targets >= 90/s, >= 1.7x, p99 < 1 s`,
      },
      noPin
        ? { benchmark: 'cold first lookups, each server on its threads\' cores (skipped)', size: '-', msPerOp: NaN, note: noPin }
        : (() => {
            const p1 = mid(pinned.t1), p2 = mid(pinned.t2);
            return {
              benchmark: 'cold first lookups, 2 engine threads on 2 cores',
              size: `${p2.cold.n} distinct, ${CLIENTS} clients`,
              msPerOp: 1000 / p2.cold.rps,
              itemsPerSec: p2.cold.rps,
              reference: '1 engine thread on 1 core (taskset), same run',
              refMsPerOp: 1000 / p1.cold.rps,
              ratio: p2.cold.rps / p1.cold.rps,
              note: `every thread of each server pinned (its GC helpers and answering thread included; the load client kept off the 1-thread server's core); p99 ${f0(p2.cold.p99)} ms (1 core: ${f1(p1.cold.rps)}/s, p99 ${f0(p1.cold.p99)}); rounds ${pinned.t2.map((x) => f1(x.cold.rps)).join(', ')} vs ${pinned.t1.map((x) => f1(x.cold.rps)).join(', ')}; target >= 1.7x`,
            } satisfies BenchRow;
          })(),
      {
        benchmark: 'cold first lookups under load, before (--compute here)',
        size: `${here.cold.n} distinct, ${CLIENTS} clients`,
        msPerOp: 1000 / here.cold.rps,
        itemsPerSec: here.cold.rps,
        reference: '2 engine threads, same run',
        refMsPerOp: 1000 / two.cold.rps,
        ratio: here.cold.rps / two.cold.rps,
        note: `p50 ${f0(here.cold.p50)} ms, p99 ${f0(here.cold.p99)} ms; lookups on the answering thread, heavy steps on 2 pool threads; ${cpuNote(here)}`,
      },
      { benchmark: 'CPU per cold lookup, 2 engine threads', size: `${two.cold.n} lookups`, msPerOp: (two.cpu.main + two.cpu.engine + two.cpu.other) / two.cold.n, note: cpuNote(two) },
      { benchmark: 'CPU per cold lookup, 1 engine thread', size: `${one.cold.n} lookups`, msPerOp: (one.cpu.main + one.cpu.engine + one.cpu.other) / one.cold.n, note: cpuNote(one) },
      {
        benchmark: 'cached lookups, 2 engine threads',
        size: `${two.cached.n} requests, ${CLIENTS} clients`,
        msPerOp: 1000 / two.cached.rps,
        itemsPerSec: two.cached.rps,
        reference: '1 engine thread, same run',
        refMsPerOp: 1000 / one.cached.rps,
        ratio: two.cached.rps / one.cached.rps,
        note: `p50 ${f1(two.cached.p50)} ms, p99 ${f1(two.cached.p99)} ms; before (--compute here) ${f0(here.cached.rps)}/s; answered by the response cache on the answering thread`,
      },
      {
        benchmark: 'cold tiles, 2 engine threads',
        size: `${two.tiles.n} distinct tiles, ${CLIENTS} clients`,
        msPerOp: 1000 / two.tiles.rps,
        itemsPerSec: two.tiles.rps,
        reference: '1 engine thread, same run',
        refMsPerOp: 1000 / one.tiles.rps,
        ratio: two.tiles.rps / one.tiles.rps,
        note: `zones, roads, HAND, noise and contours at z15-16, parcels at z16-17, no tile cache; p99 ${f0(two.tiles.p99)} ms; before (--compute here) ${f1(here.tiles.rps)}/s${two.tiles.failed ? `; ${JSON.stringify(two.tiles.statuses)}` : ''}`,
      },
      {
        benchmark: 'batch job, 2 engine threads',
        size: `${batchRows} distinct VIC addresses`,
        msPerOp: 1000 / batch.t2.rps,
        itemsPerSec: batch.t2.rps,
        reference: '1 engine thread, same run',
        refMsPerOp: 1000 / batch.t1.rps,
        ratio: batch.t2.rps / batch.t1.rps,
        note: `full payload without surfaces, submission to done; /healthz p99 meanwhile ${f0(batch.t2.healthP99)} ms (1 thread: ${f0(batch.t1.healthP99)} ms); target >= 150 rows/s, /healthz p99 < 100 ms`,
      },
      (() => {
        // The median of the rounds (RSS moves with the collector's timing by tens of MB from run to run).
        const m = (rs: Round[], f: (r: Round) => number) => median(rs.map(f));
        const [c1, c2, e1, e2] = [m(runs.t1, (r) => r.rssCold), m(runs.t2, (r) => r.rssCold), m(runs.t1, (r) => r.rss), m(runs.t2, (r) => r.rss)];
        return {
          benchmark: 'server RSS after the cold load, 2 engine threads',
          size: 'MB',
          msPerOp: NaN,
          itemsPerSec: c2,
          reference: '1 engine thread',
          ratio: c2 / c1,
          note: `${f0(c2)} MB against ${f0(c1)} MB; after the cached and tile loads too ${f0(e2)} against ${f0(e1)} MB (${(e2 / e1).toFixed(2)}x); before (--compute here) ${f0(here.rssCold)} / ${f0(here.rss)} MB; rounds ${runs.t2.map((r) => f0(r.rssCold)).join(', ')} vs ${runs.t1.map((r) => f0(r.rssCold)).join(', ')}; target: at most 1.25x`,
        } satisfies BenchRow;
      })(),
      ...[4, 8, 16].map(
        (n): BenchRow => ({
          benchmark: `PROJECTION, not measured: cold first lookups at ${n} cores`,
          size: `serial fraction ${serial.toFixed(3)}`,
          msPerOp: 1000 / project(n),
          itemsPerSec: project(n),
          note: `Amdahl's law from the ${base.how} 1- and 2-thread cold loads (speed-up ${(base.two / base.one).toFixed(2)}x at 2): ${f1(base.one)}/s / (s + (1 - s) / ${n}); assumes the load client and the answering thread keep pace`,
        }),
      ),
    ];
    return rows;
  },
};
