/**
 * Portfolio batch (issue 37), on the sample world: a book of 10,000 distinct Victorian street addresses in a
 * random order (as a lender's book comes), the full payload without surfaces, on 2 worker threads:
 *
 * - `propintel batch` (the CLI, its own process), lookups in spatial (Hilbert) order within each chunk and
 *   in input order: rows/s as its progress line reports it (from the first lookup), the wall time from
 *   process start, and the process's peak RSS;
 * - a server job (POST /v1/batch to a server process with a batch worker), both orders: rows/s from
 *   submission to `done`;
 * - the reference measured in the same run: today's way, 64 clients making single first lookups
 *   (GET /api/v1/property) of 1,000 distinct NSW addresses in random order, lookups/s;
 * - memory over a 1,000,000-row job (the CLI; `components=administrative`, 10,000 addresses cycled, so it
 *   runs in minutes): the highest and lowest RSS sampled in the first 10% of rows, 10-50% and 50-100%
 *   (flat memory: the same band in each; V8 lets the heap grow between major collections, so the band is
 *   wide).
 *
 * Each run starts cold in its own process (no in-memory caches); a warm-up run first writes the VIC and NSW
 * HAND tiles to their disk store, which every later run then finds, so no run pays for them.
 * Target (issue 37): at least 100 rows/s in spatial order, 3x the single lookups' rate; memory flat.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { PACKAGE_ROOT } from '../../engine/entry/runtime.js';
import { firstLookups, startServerProcess, stop } from '../lib/load.js';
import { getDefaultMaxTime } from '../lib/measure.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

const DIR = join(PACKAGE_ROOT, 'var', 'bench', 'batch');
const BIN = fileURLToPath(new URL('../../../bin/propintel.js', import.meta.url));

/** Street addresses of `state` from the sample world's addresses.csv, formatted as the address index does. */
function addressesOf(state: string): string[] {
  const lines = readFileSync(join(defaultDataDir(), state, 'addresses.csv'), 'utf8').trim().split('\n').slice(1);
  const out = new Set<string>();
  for (const l of lines) {
    const [, unit, number, street, type, suburb, st, postcode] = l.split(',');
    out.add(`${unit ? `${unit}/` : ''}${number} ${street} ${type}, ${suburb} ${st} ${postcode}`);
  }
  return [...out];
}

/** A deterministic shuffle (mulberry32). */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let a = seed;
  const rnd = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const csv = (addresses: readonly string[]) => ['id,address', ...addresses.map((a, i) => `B${i + 1},"${a}"`)].join('\n');

/** Resident set of `pid` now, MB (Linux), or NaN. */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface CliRun {
  rowsPerSec: number;
  wallS: number;
  peakMb: number;
  /** Highest and lowest RSS sampled in each phase of the run: the first 10% of rows, 10-50%, 50-100%. */
  phases: { max: number; min: number }[];
}

/** Runs `propintel batch` in its own process, sampling its memory. */
function cli(input: string, out: string, args: string[], rows: number): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'batch', input, '--out', out, '--threads', '2', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d));
    let peak = 0;
    const phases = [0, 1, 2].map(() => ({ max: 0, min: Infinity }));
    const timer = setInterval(() => {
      const r = rssMb(child.pid!);
      if (!Number.isFinite(r)) return;
      peak = Math.max(peak, r);
      const done = [...err.matchAll(/ ([\d,]+)\/[\d,]+ rows/g)].pop();
      const n = done ? Number(done[1].replace(/,/g, '')) : 0;
      const ph = phases[n < 0.1 * rows ? 0 : n < 0.5 * rows ? 1 : 2];
      ph.max = Math.max(ph.max, r);
      if (n > 0) ph.min = Math.min(ph.min, r);
    }, 200);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`propintel batch exited ${code}: ${err.slice(-500)}`));
      const last = [...err.matchAll(/([\d.]+) rows\/s/g)].pop();
      resolve({ rowsPerSec: last ? Number(last[1]) : NaN, wallS: (performance.now() - t0) / 1000, peakMb: peak, phases });
    });
  });
}

/** A server process with a batch worker: submits `text` and waits for the job; rows/s from submission to done. */
async function serverJob(text: string, order: 'spatial' | 'input', rows: number): Promise<{ rowsPerSec: number; peakMb: number }> {
  const s = await startServerProcess('uws', 0, ['--threads', '2', '--batch', order]);
  try {
    const auth = { authorization: `Bearer ${s.ready.key}` };
    const t0 = performance.now();
    const res = await fetch(`${s.ready.url}/v1/batch`, { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: text });
    if (res.status !== 202) throw new Error(`POST /v1/batch answered ${res.status}: ${await res.text()}`);
    const job = (await res.json()) as { id: string };
    let peak = 0;
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      peak = Math.max(peak, rssMb(s.child.pid!) || 0);
      const st = (await (await fetch(`${s.ready.url}/v1/batch/${job.id}`, { headers: auth })).json()) as { status: string; rows_done: number; rows_failed: number };
      if (st.status === 'done') {
        if (st.rows_done !== rows || st.rows_failed !== 0) throw new Error(`the job finished with ${st.rows_done} rows, ${st.rows_failed} failed`);
        break;
      }
      if (st.status !== 'running' && st.status !== 'queued') throw new Error(`the job ended ${st.status}`);
    }
    return { rowsPerSec: rows / ((performance.now() - t0) / 1000), peakMb: peak };
  } finally {
    await stop(s);
  }
}

export const batchSuite: BenchSuite = {
  name: 'batch',
  description: 'portfolio batch: CLI and server jobs over 10,000 distinct addresses, spatial vs input order, against single first lookups; memory over 1,000,000 rows',
  async run() {
    const quick = getDefaultMaxTime() < 1;
    await ensureSampleWorld();
    mkdirSync(DIR, { recursive: true });
    const n = quick ? 2000 : 10_000;
    const million = quick ? 100_000 : 1_000_000;
    const vic = shuffled(addressesOf('vic'), 37);
    const nsw = shuffled(addressesOf('nsw'), 38);
    if (vic.length < n + 200) throw new Error(`the sample world has ${vic.length} VIC addresses; the bench needs ${n + 200}`);
    const book = vic.slice(0, n);
    const files = { book: join(DIR, `book-${n}.csv`), warm: join(DIR, 'warm.csv'), million: join(DIR, `rows-${million}.csv`) };
    writeFileSync(files.book, csv(book));
    writeFileSync(files.warm, csv([...vic.slice(n, n + 200), ...nsw.slice(1000, 1200)]));
    writeFileSync(files.million, csv(Array.from({ length: million }, (_, i) => book[i % book.length])));
    const rows: BenchRow[] = [];
    // The HAND tiles of both states written to disk once, for every run after.
    await cli(files.warm, join(DIR, 'warm-out.csv'), [], 400);

    const runs: Record<string, number> = {};
    for (const order of ['spatial', 'input'] as const) {
      const r = await cli(files.book, join(DIR, `out-${order}.csv`), ['--order', order], n);
      runs[`cli-${order}`] = r.rowsPerSec;
      rows.push({ benchmark: `CLI propintel batch, ${order} order`, size: `${n.toLocaleString('en-AU')} addresses`, msPerOp: 1000 / r.rowsPerSec, itemsPerSec: r.rowsPerSec, note: `wall ${r.wallS.toFixed(0)} s from process start; peak RSS ${r.peakMb.toFixed(0)} MB` });
    }
    const text = csv(book);
    for (const order of ['spatial', 'input'] as const) {
      const r = await serverJob(text, order, n);
      runs[`server-${order}`] = r.rowsPerSec;
      rows.push({ benchmark: `server job POST /v1/batch, ${order} order`, size: `${n.toLocaleString('en-AU')} addresses`, msPerOp: 1000 / r.rowsPerSec, itemsPerSec: r.rowsPerSec, note: `submission to done; server peak RSS ${r.peakMb.toFixed(0)} MB` });
    }
    // The reference: single first lookups under load, as a client would make them today.
    const ref = await startServerProcess('uws', 0, ['--threads', '2']);
    let single: Awaited<ReturnType<typeof firstLookups>>;
    try {
      single = await firstLookups([ref.ready], nsw.slice(0, quick ? 300 : 1000), 64);
    } finally {
      await stop(ref);
    }
    rows.push({ benchmark: 'reference: single GET /api/v1/property, 64 clients, random order', size: `${single.n.toLocaleString('en-AU')} NSW addresses`, msPerOp: 1000 / single.rps, itemsPerSec: single.rps, note: `p50 ${single.p50.toFixed(0)} ms, p99 ${single.p99.toFixed(0)} ms; ${single.failed} failed` });
    for (const r of rows.slice(0, 4)) {
      r.reference = 'single lookups under load';
      r.refMsPerOp = 1000 / single.rps;
      r.ratio = (r.itemsPerSec ?? 0) / single.rps;
    }
    rows.push({ benchmark: 'spatial over input order', size: 'CLI / server', msPerOp: NaN, note: `${(runs['cli-spatial'] / runs['cli-input']).toFixed(2)}x / ${(runs['server-spatial'] / runs['server-input']).toFixed(2)}x` });
    const m = await cli(files.million, join(DIR, 'out-million.csv'), ['--components', 'administrative'], million);
    rows.push({ benchmark: 'memory over a long job: CLI, components=administrative', size: `${million.toLocaleString('en-AU')} rows`, msPerOp: 1000 / m.rowsPerSec, itemsPerSec: m.rowsPerSec, note: `RSS high/low in rows 0-10% / 10-50% / 50-100%: ${m.phases.map((p) => `${p.max.toFixed(0)}/${Number.isFinite(p.min) ? p.min.toFixed(0) : '-'}`).join(' / ')} MB` });
    return rows;
  },
};
