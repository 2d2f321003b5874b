/**
 * The national-scale benchmark's in-process parts (bench/suites/scale.ts), each in a process of its own so
 * its memory is its own:
 *
 *   node dist/bench/lib/scale-process.js convert WORLD LAYERFILE   write the layer file and the address index
 *   node dist/bench/lib/scale-process.js model WORLD LAYERFILE     open by window; build the whole-state models;
 *                                                                  what the layer file holds, per source; the
 *                                                                  memory report's bytes by state and model
 *   node dist/bench/lib/scale-process.js open WORLD LAYERFILE      open by window, timed by part (modules loaded,
 *                                                                  catalogue, fingerprint, layer file, layers,
 *                                                                  address index)
 *
 * Each prints one JSON line of times (ms), sizes (MB) and memory (RSS, peak RSS, heap; MB).
 */
import { rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createEngine } from '../../engine/index.js';
import { filePolicy } from '../../engine/entry/data.js';
import { engineInternals } from '../../engine/entry/runtime.js';

const mb = (bytes: number) => bytes / 1e6;
const memory = () => ({ rssMb: mb(process.memoryUsage().rss), maxRssMb: process.resourceUsage().maxRSS / 1024, heapMb: mb(process.memoryUsage().heapUsed) });
const addressFile = (layerFile: string) => `${layerFile.replace(/\.sqlite$/, '')}.addresses.sqlite`;

const [mode, world, layerFile] = process.argv.slice(2);
let out: Record<string, unknown>;
if (mode === 'open') {
  // performance.now() counts from the process's start: this far, node started and loaded the engine's modules.
  const modulesMs = performance.now();
  const t0 = performance.now();
  const engine = engineInternals(await createEngine({ datasets: world, layerFile, threads: 1, handTiles: false, tileCache: false }));
  const engineMs = performance.now() - t0;
  const t1 = performance.now();
  engine.addresses();
  const addressMs = performance.now() - t1;
  out = { modulesMs, engineMs, parts: engine.windows!.openParts, addressMs, wholeLayers: engine.windows!.wholeLayers(), ...memory() };
  await engine.close();
} else if (mode === 'convert') {
  // Both files written afresh, so their times are measured (the address index is otherwise kept while the data is unchanged).
  for (const f of [layerFile, addressFile(layerFile)]) rmSync(f, { force: true });
  const t0 = performance.now();
  const engine = engineInternals(await createEngine({ datasets: world, layerFile, threads: 1, handTiles: false, tileCache: false }));
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  const size = engine.addresses().size;
  const addressMs = performance.now() - t1;
  out = { convertMs: engine.windows!.convertMs, openMs, addressMs, addresses: size, layerFileMb: mb(statSync(layerFile).size), addressFileMb: mb(statSync(addressFile(layerFile)).size), ...memory() };
  await engine.close();
} else if (mode === 'model') {
  const base = memory();
  const t0 = performance.now();
  const engine = engineInternals(await createEngine({ datasets: world, layerFile, threads: 1, handTiles: false, tileCache: false }));
  const openMs = performance.now() - t0;
  const afterOpen = memory();
  const w = engine.windows!;
  // What the layer file holds, per source kind (its id without the sample_ prefix) and policy.
  const db = new Database(layerFile, { readonly: true });
  const rows = db.prepare("SELECT source, kind, count(*) AS files, sum(items) AS items, sum(bytes) AS bytes FROM files WHERE kind != 'raster' GROUP BY source, kind").all() as { source: string; kind: string; files: number; items: number; bytes: number }[];
  db.close();
  const policies = new Map<string, string>();
  for (const s of w.catalogue.sources) for (const f of s.files) policies.set(s.id, filePolicy(s, f).mode);
  const wholeFiles = w.base.files.filter((f) => f.kind !== 'raster').length;
  const rasters = w.base.files.filter((f) => f.kind === 'raster').length;
  const t1 = performance.now();
  const parts = await engine.buildIndexes();
  const modelsMs = performance.now() - t1;
  const afterModels = memory();
  const report = await engine.memoryReport();
  const byState: Record<string, Record<string, number>> = {};
  for (const r of report.models) (byState[r.state] ??= {})[r.model] = mb(r.bytes);
  const isWhole = (s: (typeof w.catalogue.sources)[number], f: (typeof s.files)[number]) => filePolicy(s, f).mode === 'whole' && (f.format ?? s.format) !== 'geotiff';
  out = {
    openMs, base, afterOpen, afterModels, modelsMs, parts, byState,
    layerFileMb: mb(statSync(layerFile).size), addressFileMb: mb(statSync(addressFile(layerFile)).size),
    wholeFiles, rasters, sources: w.catalogue.sources.length, files: w.catalogue.sources.reduce((n, s) => n + s.files.length, 0),
    held: rows.map((r) => ({ ...r, mode: policies.get(r.source) ?? '?' })),
    wholeBytes: w.catalogue.sources.filter((s) => s.files.some((f) => isWhole(s, f))).map((s) => ({ source: s.id, bytes: s.files.filter((f) => isWhole(s, f)).reduce((n, f) => n + statSync(`${w.catalogue.dir}/${f.path}`).size, 0) })),
  };
  await engine.close();
} else {
  throw new Error(`unknown mode ${mode}: convert, model or open`);
}
process.stdout.write(`${JSON.stringify(out)}\n`);
