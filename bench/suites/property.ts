/**
 * engine.property on every sandbox address of the sample world (issue 8 targets: an uncached full payload
 * without surfaces p50 under 30 ms; with all three surfaces under 150 ms; cached under 2 ms). Rows report p50
 * as ms/op with p50 and p95 in the note:
 * - first lookup: a fresh engine, each address once (indexes built and rasters decoded on demand; HAND tiles
 *   already on disk from an earlier run are read, missing ones computed);
 * - first lookup after engine.warm(): what a server's first visitors see once `serve` has warmed up;
 * - uncached: an engine whose caches store nothing, so every lookup computes every block and score, with the
 *   process warm (indexes built, raster blocks in memory), as a running server sees a new address;
 * - with surfaces: the same, plus noise, heat and contour surfaces;
 * - cached: repeat lookups served from the score and layer caches (DAs are never cached, so they still run).
 */
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import type { Cache } from '../../engine/entry/runtime.js';
import { createEngine, type Engine } from '../../engine/index.js';
import type { PropertyOptions } from '../../engine/entry/property.js';
import { sink } from '../lib/measure.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

const NO_CACHE: Cache = { get: () => undefined, set: () => undefined, delete: () => undefined, clear: () => undefined };

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function times(engine: Engine, addresses: string[], rounds: number, options: PropertyOptions = {}): Promise<number[]> {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const a of addresses) {
      const t = performance.now();
      sink.value = await engine.property({ address: a }, options);
      out.push(performance.now() - t);
    }
  }
  return out;
}

function row(benchmark: string, xs: number[], target: string): BenchRow {
  return { benchmark, size: `${xs.length} lookups`, msPerOp: pct(xs, 50), note: `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms; target ${target}` };
}

export const propertySuite: BenchSuite = {
  name: 'property',
  description: 'engine.property on the twelve sandbox addresses: first, uncached, with surfaces, cached (p50/p95)',
  async run() {
    const dir = defaultDataDir();
    await ensureSampleWorld(dir);
    const rows: BenchRow[] = [];
    const fresh = await createEngine({ datasets: dir });
    const addresses = (await fresh.sandbox()).map((s) => s.address);
    try {
      rows.push(row('first lookup, fresh engine, no surfaces', await times(fresh, addresses, 1), 'none (process cold)'));
      rows.push(row('cached repeat, no surfaces', await times(fresh, addresses, 5), '< 2 ms'));
      await times(fresh, addresses, 1, { include_surfaces: true });
      rows.push(row('cached repeat, all three surfaces', await times(fresh, addresses, 3, { include_surfaces: true }), '< 2 ms'));
    } finally {
      await fresh.close();
    }
    // What `propintel serve` does before traffic: engine.warm() builds every model and HAND tile (tiles already on
    // disk are found, not recomputed); then each address once, as a server's first visitors.
    const warmed = await createEngine({ datasets: dir });
    try {
      const t0 = performance.now();
      await warmed.warm();
      const warmMs = performance.now() - t0;
      const first = await times(warmed, addresses, 1);
      rows.push({ ...row('first lookup after engine.warm(), no surfaces', first, 'p95 < 500 ms'), note: `${row('', first, 'p95 < 500 ms').note}; warm() took ${Math.round(warmMs)} ms` });
    } finally {
      await warmed.close();
    }
    const uncached = await createEngine({ datasets: dir, caches: { layers: NO_CACHE, scores: NO_CACHE } });
    try {
      await times(uncached, addresses, 1, { include_surfaces: true }); // warm the process, not the caches
      rows.push(row('uncached, no surfaces', await times(uncached, addresses, 3), 'p50 < 30 ms, p95 < 80 ms'));
      rows.push(row('uncached, all three surfaces', await times(uncached, addresses, 2, { include_surfaces: true }), 'p50 < 100 ms'));
      rows.push(row('uncached core variant', await times(uncached, addresses, 3, { variant: 'core' }), 'none'));
    } finally {
      await uncached.close();
    }
    return rows;
  },
};
