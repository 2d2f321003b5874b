/**
 * The HAND chain (Priority-Flood+epsilon fill, D8, accumulation, channels, HAND) on seeded synthetic
 * terrain of 600x600 (a buffered 3 km window at 5 m), 2000x2000 and 4000x4000 cells (the last left out of
 * --quick), reporting each step's cells per second; then on the real DEMs in ../shared/realdata/dem when
 * present. Side by side in the same run, on the same GeoTIFF, as whole processes (start, read, compute,
 * write): `propintel hand` against GRASS GIS (r.in.gdal + r.stream.extract with D8, mexp=0, + r.out.gdal)
 * and SAGA's Wang & Liu fill (ta_preprocessor 4), with the ratio, and the agreement of our channel network
 * with GRASS's: the share of channel cells in common (intersection over union) and the share within one
 * cell of the other network (D8 on a filled surface and GRASS's least-cost routing through depressions
 * place a few channels one cell apart).
 *
 * Two fresh-point flood-score rows time the "< 60 ms for a window not cached" target: assessFlood with HAND
 * in this thread on a synthetic DEM (the chain and the DEM read only), and engine.scores(..., { only:
 * ['flood'] }) on the sample world through a one-thread worker pool, at points around the sandbox addresses
 * that no earlier lookup computed (the real path). Each gives the median and p95 and says which analysis
 * window answered (the 600 m first stage or the full 1,500 m window, see assess-flood.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { metricCellSize, thresholdCells, computeHand, type HandChainResult, DEFAULT_BUFFER_FRACTION, handTileCache, syntheticTerrain } from '../../engine/entry/hydro.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { seededRandom, getTransformer } from '../../engine/entry/geo.js';
import { createEngine } from '../../engine/index.js';
import { assessFlood } from '../../engine/entry/scores.js';
import { openRaster, writeGeoTiff } from '../../engine/entry/raster.js';
import type { Grid, TypedArray } from '../../engine/entry/raster.js';
import { sink } from '../lib/measure.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';

const QUICK = process.argv.includes('--quick');
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const REALDATA = process.env.PROPINTEL_REALDATA ?? join(ROOT, '..', 'shared', 'realdata');

/** Real DEMs and the channel threshold each is run with (km2), chosen for its cell size and extent. */
const REAL_DEMS = [
  { file: 'dem/merewether_nsw_1m_dem.tif', label: 'Merewether NSW 1 m', thresholdKm2: 0.005, why: '0.13 km2 tile: 0.005 km2 keeps a network inside it' },
  { file: 'dem/inner_melbourne_mapdeck_mesh_20m_mga55.tif', label: 'inner Melbourne 20 m', thresholdKm2: 0.1, why: '20 m cells: 0.1 km2 = 250 cells' },
  { file: 'dem/central_qld_srtm1s_dem.tif', label: 'central QLD SRTM 1"', thresholdKm2: 0.5, why: 'SRTM ~30 m smears small channels: 0.5 km2' },
];

const STEPS = ['fill', 'directions', 'accumulation', 'channels', 'hand'] as const;
const STEP_LABEL: Record<(typeof STEPS)[number], string> = {
  fill: 'fill (Priority-Flood+eps)',
  directions: 'D8 directions',
  accumulation: 'flow accumulation',
  channels: 'channel mask',
  hand: 'HAND',
};

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The p-th percentile (nearest rank) of `v`. */
function percentile(v: number[], p: number): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Cells on a side of the computed HAND area for an analysis half-width (metres) on a 5 m DEM, with the buffer. */
function analysisCells(halfWidthM: number): number {
  return Math.round((2 * halfWidthM * (1 + DEFAULT_BUFFER_FRACTION)) / 5);
}

/** Which analysis windows answered, e.g. "600 m analysis (336x336 cells) 7 of 8, 1500 m (840x840) 1 of 8". */
function windowsAnswered(answered: (number | null)[]): string {
  const counts = new Map<number | null, number>();
  for (const a of answered) counts.set(a, (counts.get(a) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => (a[0] ?? Infinity) - (b[0] ?? Infinity))
    .map(([hw, n]) => (hw === null ? `no HAND ${n} of ${answered.length}` : `${hw} m analysis (${analysisCells(hw)}x${analysisCells(hw)} cells) ${n} of ${answered.length}`))
    .join(', ');
}

/** A fresh-point row: median as ms/op; p95, the analysis windows that answered and each one's median in the note. */
function freshPointRow(benchmark: string, size: string, times: number[], answered: (number | null)[], what: string): BenchRow {
  const m = median(times);
  const byWindow = new Map<number | null, number[]>();
  answered.forEach((hw, i) => byWindow.set(hw, [...(byWindow.get(hw) ?? []), times[i]]));
  const perWindow = [...byWindow.entries()]
    .sort((a, b) => (a[0] ?? Infinity) - (b[0] ?? Infinity))
    .map(([hw, t]) => `${hw === null ? 'no HAND' : `${hw} m`} median ${median(t).toFixed(1)} ms`)
    .join(', ');
  return {
    benchmark,
    size: `${size}; ${windowsAnswered(answered)}`,
    msPerOp: m,
    itemsPerSec: 1000 / m,
    note: `median ${m.toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms of ${times.length} points (${perWindow}); ${what}; target < 60 ms`,
  };
}

/**
 * A fresh point through the engine: engine.scores(lon, lat, { only: ['flood'] }) on the sample world, on a
 * one-thread pool (HAND on the worker, with the overlays, water, rainfall and studies of the real path), at
 * points jittered 300-1,000 m around the sandbox addresses so that each falls in a HAND tile not computed
 * before (tiles are snapped to 200 m and cached per thread). The addresses themselves are looked up first to
 * warm the process (DEM headers, overlay indexes, JIT), not the points measured.
 */
async function engineFreshPoints(perAddress: number, tiles: boolean): Promise<BenchRow[]> {
  const data = defaultDataDir();
  if (!existsSync(join(data, 'catalogue.json'))) return [{ benchmark: 'engine.scores flood, fresh point', size: 'sample world', msPerOp: NaN, note: `no sample world in ${data}; run propintel sample-world` }];
  // With stored tiles (the engine's default) warm() computes or finds every DEM's HAND tiles first, as serve does.
  const engine = await createEngine({ datasets: data, threads: 1, ...(tiles ? {} : { handTiles: false as const }) });
  try {
    const sandbox = await engine.sandbox();
    if (tiles) await engine.warm();
    for (const s of sandbox) await engine.scores(s.lng, s.lat, { state: s.state, only: ['flood'] });
    const times: number[] = [];
    const answered: (number | null)[] = [];
    const random = seededRandom(6);
    for (let j = 0; j < perAddress; j++) {
      for (const s of sandbox) {
        // A distinct ring position per round: 300-1,000 m away, so no two points share a snapped tile.
        const angle = ((j + random.next() * 0.5) / perAddress) * 2 * Math.PI;
        const dist = 300 + 700 * random.next();
        const lat = s.lat + (dist * Math.cos(angle)) / 111_320;
        const lon = s.lng + (dist * Math.sin(angle)) / (111_320 * Math.cos((s.lat * Math.PI) / 180));
        const t0 = performance.now();
        const r = await engine.scores(lon, lat, { state: s.state, only: ['flood'] });
        times.push(performance.now() - t0);
        const f = r.scores.flood as { method: { analysis_half_width_m: number | null } } | undefined;
        sink.value = f;
        answered.push(f?.method.analysis_half_width_m ?? null);
      }
    }
    if (tiles) {
      const m = median(times);
      return [{ benchmark: 'engine.scores flood, fresh point, HAND from stored tiles (sample world)', size: `${times.length} points`, msPerOp: m, itemsPerSec: 1000 / m, note: `median ${m.toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms; a cell read from the DEM's HAND tile + overlays, water, rainfall, studies; target < 20 ms` }];
    }
    return [freshPointRow('engine.scores flood, fresh point, HAND per request (handTiles: false)', `${times.length} points, 12 tiles`, times, answered, 'HAND on a 1-thread pool + overlays, water, rainfall, studies')];
  } finally {
    await engine.close();
  }
}

/** Runs the chain `reps` times and returns the median ms of each step and of the whole. */
function timeChain(dem: Grid<Float32Array>, reps: number, thresholdKm2?: number): { steps: Record<string, number>; total: number; last: HandChainResult } {
  const per: Record<string, number[]> = { fill: [], directions: [], accumulation: [], channels: [], hand: [], total: [] };
  let last!: HandChainResult;
  for (let r = 0; r < reps; r++) {
    last = computeHand(dem, { thresholdKm2 });
    sink.value = last.hand.data[last.hand.data.length >> 1];
    let total = 0;
    for (const s of STEPS) {
      per[s].push(last.timings[s]);
      total += last.timings[s];
    }
    per.total.push(total);
  }
  const steps: Record<string, number> = {};
  for (const s of STEPS) steps[s] = median(per[s]);
  return { steps, total: median(per.total), last };
}

/** Finds a command, installing its Debian package when missing and running as root. */
function haveTool(cmd: string, pkg: string): { ok: boolean; note?: string } {
  const found = () => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  if (found()) return { ok: true };
  if (process.getuid?.() === 0) {
    process.stdout.write(`  ${cmd} missing: apt-get install -y ${pkg} ...\n`);
    spawnSync('apt-get', ['install', '-y', pkg], { stdio: 'ignore', timeout: 600_000 });
    if (found()) return { ok: true };
  }
  return { ok: false, note: `${cmd} not installed (apt-get install ${pkg}); comparison skipped` };
}

function wallMs(cmd: string, args: string[], reps: number, cwd?: string): number {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    const res = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr?.toString().slice(-400)}`);
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function readMask(file: string, isChannel: (v: number) => boolean): Promise<{ mask: Uint8Array; width: number; height: number }> {
  const r = await openRaster(file);
  try {
    const g: Grid<TypedArray> = await r.readPixelsNative([0, 0, r.info.width, r.info.height]);
    const mask = new Uint8Array(g.data.length);
    for (let i = 0; i < mask.length; i++) mask[i] = isChannel(Number(g.data[i])) ? 1 : 0;
    return { mask, width: g.width, height: g.height };
  } finally {
    await r.close();
  }
}

/** Intersection over union, and the mean share of each network's cells within one cell of the other. */
function agreement(a: Uint8Array, b: Uint8Array, w: number, h: number): { iou: number; near: number } {
  let both = 0;
  let either = 0;
  const within = (m: Uint8Array, i: number) => {
    const x = i % w;
    const y = (i - x) / w;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      const yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h && m[yy * w + xx]) return true;
    }
    return false;
  };
  let na = 0, nearA = 0, nb = 0, nearB = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) both++;
    if (a[i] || b[i]) either++;
    if (a[i]) {
      na++;
      if (within(b, i)) nearA++;
    }
    if (b[i]) {
      nb++;
      if (within(a, i)) nearB++;
    }
  }
  return { iou: either ? both / either : 1, near: na && nb ? (nearA / na + nearB / nb) / 2 : 0 };
}

/** Whole-process comparison on one GeoTIFF: propintel hand vs GRASS and SAGA. */
async function compareTools(file: string, label: string, thresholdKm2: number, dir: string, reps: number, tools: { grass: { ok: boolean; note?: string }; saga: { ok: boolean; note?: string } }): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const r = await openRaster(file);
  const { width, height, crs, transform } = r.info;
  await r.close();
  const cells = width * height;
  const size = `${width}x${height} ${label}`;
  const cs = metricCellSize({ transform, crs, height });
  const tcells = thresholdCells(thresholdKm2, cs.x * cs.y);
  const oursOut = join(dir, 'hand.tif');
  const oursCh = join(dir, 'channels.tif');
  const cli = join(ROOT, 'bin', 'propintel.js');
  const ours = wallMs(process.execPath, [cli, 'hand', '--dem', file, '--out', oursOut, '--channels', oursCh, '--threshold-km2', String(thresholdKm2)], reps);
  rows.push({ benchmark: 'propintel hand (whole process)', size, msPerOp: ours, itemsPerSec: cells / (ours / 1e3), note: `node start + read + chain + write HAND and channels; threshold ${thresholdKm2} km2 (${tcells} cells)` });
  if (tools.grass.ok) {
    const streams = join(dir, 'grass-streams.tif');
    const script = `r.in.gdal input=${file} output=dem --quiet --overwrite && g.region raster=dem && r.stream.extract elevation=dem threshold=${tcells} mexp=0 stream_raster=streams --quiet --overwrite && r.out.gdal input=streams output=${streams} type=Int32 --quiet --overwrite -c`;
    const grass = wallMs('grass', ['--tmp-location', file, '--exec', 'bash', '-c', script], reps, dir);
    const a = await readMask(oursCh, (v) => v === 1);
    const b = await readMask(streams, (v) => v > 0 && v !== -2147483648);
    const ag = agreement(a.mask, b.mask, a.width, a.height);
    rows.push(
      compared(
        { benchmark: 'GRASS r.stream.extract (whole process)', size, msPerOp: ours, itemsPerSec: cells / (ours / 1e3), reference: 'GRASS 8 r.in.gdal+r.stream.extract+r.out.gdal', note: `channels in common ${(100 * ag.iou).toFixed(1)} % (IoU), within one cell ${(100 * ag.near).toFixed(1)} %; GRASS does no HAND` },
        grass,
      ),
    );
  } else rows.push({ benchmark: 'GRASS r.stream.extract (whole process)', size, msPerOp: NaN, note: tools.grass.note });
  if (tools.saga.ok) {
    const saga = wallMs('saga_cmd', ['ta_preprocessor', '4', '-ELEV', file, '-FILLED', join(dir, 'saga-filled.sdat')], reps, dir);
    rows.push(compared({ benchmark: 'SAGA Fill Sinks Wang & Liu (whole process)', size, msPerOp: ours, itemsPerSec: cells / (ours / 1e3), reference: 'SAGA ta_preprocessor 4', note: 'SAGA fills only; ours runs the whole chain' }, saga));
  } else rows.push({ benchmark: 'SAGA Fill Sinks (whole process)', size, msPerOp: NaN, note: tools.saga.note });
  return rows;
}

export const handSuite: BenchSuite = {
  name: 'hand',
  description: 'HAND chain per step on 600^2-4000^2 synthetic and real DEMs; GRASS and SAGA side by side',
  async run() {
    const rows: BenchRow[] = [];
    const sizes = QUICK ? [600, 2000] : [600, 2000, 4000];
    const dir = mkdtempSync(join(tmpdir(), 'propintel-bench-hand-'));
    try {
      let demFor2000: string | null = null;
      for (const n of sizes) {
        const dem = syntheticTerrain(n, n, { seed: 2024, cellNoise: 0.02 });
        const reps = n >= 4000 ? 3 : QUICK ? 3 : 7;
        computeHand(dem); // warm-up (JIT)
        const t = timeChain(dem, reps);
        const cells = n * n;
        const size = `${n}x${n} synthetic 5 m`;
        for (const s of STEPS) rows.push({ benchmark: STEP_LABEL[s], size, msPerOp: t.steps[s], itemsPerSec: cells / (t.steps[s] / 1e3) });
        rows.push({ benchmark: 'whole chain (sum of steps)', size, msPerOp: t.total, itemsPerSec: cells / (t.total / 1e3), note: `median of ${reps}; ${t.last.raisedCells} cells raised, ${t.last.thresholdCells}-cell channels; target >= 5M cells/s` });
        if (n === 2000) {
          demFor2000 = join(dir, 'synthetic-2000.tif');
          await writeGeoTiff(demFor2000, dem);
        }
      }
      // A fresh point: scores.flood on a 5 m DEM with nothing cached (each point in a new snapped tile),
      // HAND in this thread, the DEM only (no overlays, water or studies).
      {
        const big = syntheticTerrain(2400, 2400, { seed: 99, cellNoise: 0.02 });
        const file = join(dir, 'synthetic-12km.tif');
        await writeGeoTiff(file, big);
        const toLonLat = getTransformer('EPSG:7855', 'EPSG:4326');
        const times: number[] = [];
        const answered: (number | null)[] = [];
        const points = QUICK ? 8 : 16;
        for (let k = 0; k < points + 1; k++) {
          handTileCache().clear();
          const [lon, lat] = toLonLat.forward(320000 + 2500 + (k % 4) * 1700, 5812000 - 2500 - Math.floor(k / 4) * 1500);
          const t0 = performance.now();
          const r = await assessFlood({ lon, lat, state: 'VIC', dem: { file, source: 'synthetic' } });
          sink.value = r.score.score;
          if (k > 0) {
            // the first one warms the JIT
            times.push(performance.now() - t0);
            answered.push(r.score.method.analysis_half_width_m);
          }
        }
        rows.push(freshPointRow('scores.flood, fresh point, HAND in-thread (DEM only)', '5 m synthetic DEM', times, answered, 'HAND in this thread incl. DEM read'));
      }
      rows.push(...(await engineFreshPoints(QUICK ? 3 : 6, true)));
      rows.push(...(await engineFreshPoints(QUICK ? 3 : 6, false)));
      for (const d of REAL_DEMS) {
        const file = join(REALDATA, d.file);
        if (!existsSync(file)) {
          rows.push({ benchmark: 'whole chain', size: d.label, msPerOp: NaN, note: `${file} not present; skipped` });
          continue;
        }
        const r = await openRaster(file);
        const dem = await r.readPixels([0, 0, r.info.width, r.info.height]);
        await r.close();
        computeHand(dem, { thresholdKm2: d.thresholdKm2 });
        const t = timeChain(dem, QUICK ? 3 : 7, d.thresholdKm2);
        const cells = dem.width * dem.height;
        rows.push({
          benchmark: 'whole chain',
          size: `${dem.width}x${dem.height} ${d.label}`,
          msPerOp: t.total,
          itemsPerSec: cells / (t.total / 1e3),
          note: `fill ${t.steps.fill.toFixed(0)} / D8 ${t.steps.directions.toFixed(0)} / acc ${t.steps.accumulation.toFixed(0)} / HAND ${t.steps.hand.toFixed(0)} ms; ${d.thresholdKm2} km2: ${d.why}`,
        });
      }
      const tools = { grass: haveTool('grass', 'grass-core'), saga: haveTool('saga_cmd', 'saga') };
      const reps = QUICK ? 1 : 3;
      const targets = REAL_DEMS.map((d) => ({ file: join(REALDATA, d.file), label: d.label, t: d.thresholdKm2 })).filter((d) => existsSync(d.file));
      if (demFor2000) targets.push({ file: demFor2000, label: 'synthetic 5 m', t: 0.05 });
      for (const d of targets) rows.push(...(await compareTools(d.file, d.label, d.t, dir, reps, tools)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

