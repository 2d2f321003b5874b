/**
 * National scale across states (issue 39), on a world of four metro states: `sample-world --tiles
 * vic,nsw,qld,wa --extent-km 24` (VIC, NSW, QLD and WA at 24 x 24 km each, 64 sub-tiles, about 715,000
 * addresses), beside a one-state world of the same extent (`--tiles vic --extent-km 24`). Both are generated
 * once and cached in var/bench/, with their layer files and address indexes (written once, in a process of
 * their own). Then:
 *
 * - the open by window in fresh processes, by part (modules, catalogue, fingerprint, layer file, layers,
 *   address index), three times each, the two worlds alternating: the four-state open against the one-state;
 * - every state's models built in a fresh process: bytes by state and model (the memory report);
 * - servers: the four-state world by window (the model budget at its default) and the same world held in
 *   memory, both warmed, running at once and asked the same 800 distinct street addresses rotating over the
 *   four states, one request at a time, each address to both (which first alternates): p50/p95 of those
 *   uncached first lookups, and each server's RSS after them;
 * - restarts: process start to ready, three times for each world by window, and after a restart the first
 *   lookup in each state (it reads that state's whole layers and builds its models).
 *
 * Targets (issue 39): open under 1.5 s and no more than 1.2x the one-state open; RSS under 750 MB after the
 * 800 lookups; uncached p50 no more than 1.05x the in-memory p50.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSampleWorld } from '../../datasets/generator/generate.js';
import { layerFileFingerprint, layerFingerprint, loadCatalogue } from '../../engine/entry/data.js';
import { PACKAGE_ROOT } from '../../engine/entry/runtime.js';
import { median, pct, startServerProcess, stop, type Server } from '../lib/load.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';
import { child, processMemory, streetAddresses, worldCurrent } from './scale.js';

const EXTENT_KM = 24;
const STATES = ['vic', 'nsw', 'qld', 'wa'];
const LOOKUPS = 800;
const ROOT = join(PACKAGE_ROOT, 'var', 'bench');

interface World {
  tiles: string[];
  dir: string;
  layerFile: string;
}
const world = (tiles: string[]): World => {
  const name = `world-${tiles.join('-')}-${EXTENT_KM}km`;
  return { tiles, dir: join(ROOT, name), layerFile: join(ROOT, `${name}.layers`, 'layers.sqlite') };
};
const FOUR = world(STATES);
const ONE = world(['vic']);

type Convert = { convertMs: number | null; addressMs: number; addresses: number; layerFileMb: number; addressFileMb: number; maxRssMb: number };
type Open = { modulesMs: number; engineMs: number; parts: Record<string, number>; addressMs: number; wholeLayers: { read: number; total: number }; rssMb: number };
type Model = { byState: Record<string, Record<string, number>>; parts: Record<string, number>; afterOpen: { rssMb: number }; afterModels: { rssMb: number } };

/** Generates (once) and converts (once per layer-file fingerprint) `w`; the conversion's figures. */
async function prepare(w: World, rows: BenchRow[]): Promise<Convert & { cached: boolean }> {
  if (!worldCurrent(w.dir, w.tiles, EXTENT_KM)) {
    process.stdout.write(`  generating ${w.dir} (once) ...\n`);
    const g = await generateSampleWorld({ out: w.dir, tiles: w.tiles, extentKm: EXTENT_KM, onProgress: (l) => process.stdout.write(`  ${l}\n`) });
    rows.push({ benchmark: `sample-world --tiles ${w.tiles.join(',')} --extent-km ${EXTENT_KM}`, size: `${g.files.length} files`, msPerOp: g.ms, note: `${(g.files.reduce((s, f) => s + f.bytes, 0) / 1e6).toFixed(0)} MB; cached in var/bench/` });
  }
  const fingerprint = layerFingerprint(await loadCatalogue(w.dir));
  const json = join(w.layerFile, '..', 'convert.json');
  const held = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Convert & { fingerprint?: string }) : null;
  if (held?.fingerprint === fingerprint && layerFileFingerprint(w.layerFile) === fingerprint) return { ...held, cached: true };
  process.stdout.write(`  writing the layer file and address index of ${w.dir} (once) ...\n`);
  const conv = child<Convert>('scale-process.js', 'convert', w.dir, w.layerFile);
  mkdirSync(join(w.layerFile, '..'), { recursive: true });
  writeFileSync(json, JSON.stringify({ ...conv, fingerprint }));
  return { ...conv, cached: false };
}

/** The addresses.csv directories of each state of `w`. */
function addressDirs(w: World, state: string): string[] {
  const doc = JSON.parse(readFileSync(join(w.dir, 'catalogue.json'), 'utf8')) as { sources: { id: string; paths: string[]; files: { path: string }[] }[] };
  const src = doc.sources.find((s) => s.paths.includes('resolved.address') && s.id.includes(`_${state}_`))!;
  return src.files.map((f) => join(w.dir, f.path, '..'));
}

/** One uncached lookup: its latency, ms, and status. */
async function lookup(s: Server, address: string): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  const res = await fetch(`${s.ready.url}/api/v1/property?address=${encodeURIComponent(address)}`, { headers: { authorization: `Bearer ${s.ready.key}` } });
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status };
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

export const statesSuite: BenchSuite = {
  name: 'states',
  description: `four metro states (${STATES.join(', ')} at ${EXTENT_KM} km) read by window: open by part against one state, per-state model sizes, ${LOOKUPS} lookups rotating states against the same world in memory, RSS`,
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    mkdirSync(ROOT, { recursive: true });
    const conv4 = await prepare(FOUR, rows);
    const conv1 = await prepare(ONE, rows);
    const cachedNote = (c: { cached: boolean }) => (c.cached ? ' (measured when written; cached since)' : '');
    rows.push({ benchmark: 'layer file + address index written from the four-state world', size: `${conv4.addresses} addresses`, msPerOp: (conv4.convertMs ?? NaN) + conv4.addressMs, note: `layer file ${fmt(conv4.convertMs ?? NaN)}, ${conv4.layerFileMb.toFixed(0)} MB; address index ${fmt(conv4.addressMs)}, ${conv4.addressFileMb.toFixed(0)} MB; peak RSS ${Math.round(conv4.maxRssMb)} MB${cachedNote(conv4)}` });

    // Opens in fresh processes, alternating the worlds.
    const opens: Record<'one' | 'four', Open[]> = { one: [], four: [] };
    for (let k = 0; k < 3; k++) {
      opens.four.push(child<Open>('scale-process.js', 'open', FOUR.dir, FOUR.layerFile));
      opens.one.push(child<Open>('scale-process.js', 'open', ONE.dir, ONE.layerFile));
    }
    const med = (list: Open[], f: (o: Open) => number) => median(list.map(f));
    const total = (o: Open) => o.engineMs + o.addressMs;
    const parts = (list: Open[]) => ['catalogue', 'fingerprint', 'layer_file', 'layers'].map((p) => `${p} ${Math.round(med(list, (o) => o.parts[p]))}`).join(', ') + `, address index ${Math.round(med(list, (o) => o.addressMs))} ms`;
    const open4 = med(opens.four, total), open1 = med(opens.one, total);
    rows.push(
      { benchmark: 'open by window, four states (engine + address index, fresh process, median of 3)', size: `${conv4.addresses} addresses`, msPerOp: open4, reference: `one state (VIC, ${EXTENT_KM} km), same`, refMsPerOp: open1, ratio: open1 / open4, note: `target < 1,500 ms and ratio >= 0.83 (<= 1.2x); ${parts(opens.four)}; modules ${Math.round(med(opens.four, (o) => o.modulesMs))} ms before; RSS ${Math.round(med(opens.four, (o) => o.rssMb))} MB; whole layers read at open: ${opens.four[0].wholeLayers.read} of ${opens.four[0].wholeLayers.total}` },
      { benchmark: 'open by window, one state', size: `${conv1.addresses} addresses`, msPerOp: open1, note: `${parts(opens.one)}; RSS ${Math.round(med(opens.one, (o) => o.rssMb))} MB` },
    );

    // Every state's models, by state.
    const m = child<Model>('scale-process.js', 'model', FOUR.dir, FOUR.layerFile);
    for (const st of STATES.map((s) => s.toUpperCase())) {
      const b = m.byState[st] ?? {};
      const sum = Object.values(b).reduce((a, x) => a + x, 0);
      rows.push({ benchmark: `${st}: whole layers and models, built`, size: Object.entries(b).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '), msPerOp: NaN, note: `${sum.toFixed(1)} MB (estimate)` });
    }
    const nat = m.byState.national ?? {};
    rows.push({ benchmark: 'national: address index (on disk), DA radius index, contamination, ANEF', size: Object.entries(nat).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '), msPerOp: NaN, note: `process RSS ${Math.round(m.afterOpen.rssMb)} MB after open, ${Math.round(m.afterModels.rssMb)} MB with every model; build ms: ${Object.entries(m.parts).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}` });

    // Side by side: the four states by window and in memory, both running; each address to both. First, so
    // that the restarts below find the HAND tiles the warming computed on disk.
    const perState = STATES.map((s) => streetAddresses(addressDirs(FOUR, s), LOOKUPS / STATES.length + 10));
    const rotating: string[] = [];
    for (let k = 0; k < LOOKUPS / STATES.length; k++) for (const list of perState) rotating.push(list[k]);
    const windowed = await startServerProcess('uws', 0, ['--data', FOUR.dir, '--layer-file', FOUR.layerFile, '--warm']);
    let inMemory: Server | undefined;
    try {
      inMemory = await startServerProcess('uws', 0, ['--data', FOUR.dir, '--warm'], ['--max-old-space-size=8192']);
      // The processes warm, not on these addresses: one lookup in each state.
      for (const list of perState) for (const s of [windowed, inMemory]) await lookup(s, list[LOOKUPS / STATES.length + 5]);
      const lat = { w: [] as number[], m: [] as number[] };
      let failed = 0;
      for (const [k, a] of rotating.entries()) {
        const order = k % 2 ? [inMemory, windowed] : [windowed, inMemory];
        for (const s of order) {
          const r = await lookup(s, a);
          if (r.status !== 200) failed++;
          (s === windowed ? lat.w : lat.m).push(r.ms);
        }
      }
      const memW = processMemory(windowed.child.pid!), memM = processMemory(inMemory.child.pid!);
      const metrics = await (await fetch(`${windowed.ready.url}/metrics`)).text();
      const held = [...metrics.matchAll(/^propintel_model_held_bytes\{state="(\w+)"\} (\d+)/gm)].map((x) => `${x[1]} ${(Number(x[2]) / 1e6).toFixed(1)}`).join(', ');
      const budget = /^propintel_model_budget_bytes (\d+)/m.exec(metrics)?.[1];
      // Where the RSS goes, by /metrics: the heap and external memory, each cache's bytes.
      const gauge = (re: RegExp) => [...metrics.matchAll(re)].map((x) => `${x[1]} ${Math.round(Number(x[2]) / 1e6)}`).join(', ');
      const where = `process: ${gauge(/^propintel_process_memory_bytes\{kind="(\w+)"\} (\d+)/gm)}; caches: ${gauge(/^propintel_cache_memory_bytes\{cache="(\w+)"\} (\d+)/gm)}, response ${gauge(/^propintel_response_cache_(bytes) (\d+)/gm)}`;
      const p50w = pct(lat.w, 50), p50m = pct(lat.m, 50);
      rows.push(
        { benchmark: `uncached first lookups, four states by window, ${LOOKUPS} addresses rotating states (HTTP, one at a time)`, size: `${LOOKUPS} distinct addresses`, msPerOp: p50w, reference: 'the same world held in memory, same addresses, side by side', refMsPerOp: p50m, ratio: p50m / p50w, note: `target ratio >= 0.95 (p50 <= 1.05x); p95 ${pct(lat.w, 95).toFixed(1)} ms against ${pct(lat.m, 95).toFixed(1)} ms; ${failed} not 200; in memory ready after ${fmt(inMemory.ready.openMs ?? NaN)}, warmed in ${fmt(inMemory.ready.warmMs ?? NaN)}` },
        { benchmark: `server RSS after ${LOOKUPS} lookups rotating four states, by window`, size: `budget ${budget ? `${Number(budget) / 2 ** 20} MiB` : 'none'}`, msPerOp: NaN, note: `target < 750 MB: ${Math.round(memW.rssMb)} MB (peak ${Math.round(memW.peakMb)} MB); held by state (MB): ${held || 'none'}; ${where} (MB); the same world in memory: ${Math.round(memM.rssMb)} MB (peak ${Math.round(memM.peakMb)} MB)` },
      );
    } finally {
      await stop(windowed);
      if (inMemory) await stop(inMemory);
    }
    // Restarts: process start to ready, and each state's first lookup after it (HAND tiles on disk by now).
    const ready: Record<'one' | 'four', number[]> = { one: [], four: [] };
    const firsts: number[][] = [];
    // The first start writes each world's server store and DA store; the three measured are restarts.
    for (const w of [FOUR, ONE]) {
      const s = await startServerProcess('uws', 0, ['--data', w.dir, '--layer-file', w.layerFile, '--db', join(w.layerFile, '..', 'server.sqlite')]);
      await lookup(s, perState[0][LOOKUPS / STATES.length + 9]).finally(() => stop(s));
    }
    for (let k = 0; k < 3; k++) {
      for (const [name, w] of [['four', FOUR], ['one', ONE]] as const) {
        // A restarted replica: its store (keys, meter, the DA store) in a file, as `propintel serve` keeps it.
        const s = await startServerProcess('uws', 0, ['--data', w.dir, '--layer-file', w.layerFile, '--db', join(w.layerFile, '..', 'server.sqlite')]);
        try {
          ready[name].push(s.ready.openMs ?? NaN);
          if (name === 'four') {
            const out: number[] = [];
            for (const list of perState) out.push((await lookup(s, list[LOOKUPS / STATES.length + k])).ms);
            firsts.push(out);
          }
        } finally {
          await stop(s);
        }
      }
    }
    const ready4 = median(ready.four), ready1 = median(ready.one);
    rows.push(
      { benchmark: 'server restart to ready, four states by window (process start, median of 3)', size: `${conv4.addresses} addresses`, msPerOp: ready4, reference: 'one state by window', refMsPerOp: ready1, ratio: ready1 / ready4, note: `runs ${ready.four.map(Math.round).join(', ')} ms against ${ready.one.map(Math.round).join(', ')} ms; includes node's start and the server's modules` },
      { benchmark: 'after a restart: first lookup in each state (reads its whole layers, builds its models)', size: STATES.join(', '), msPerOp: median(firsts.flat()), note: STATES.map((s, i) => `${s} ${firsts.map((f) => Math.round(f[i])).join('/')}`).join('; ') + ' ms (three restarts)' },
    );

    return rows;
  },
};
