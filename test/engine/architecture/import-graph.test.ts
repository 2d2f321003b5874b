// The engine's module graph (issue 21): no import cycle anywhere in engine/, and the generic worker pool
// (engine/pool/) knows no task: only the engine's own pool factory (engine/tasks/) and the engine itself
// reach the domain task map.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../../helpers/import-graph.js';

const graph = importGraph(fileURLToPath(new URL('../../../engine', import.meta.url)));

/** Every module `from` reaches by imports, itself excluded. */
function reach(from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(graph.get(from) ?? [])];
  while (stack.length) {
    const m = stack.pop()!;
    if (seen.has(m)) continue;
    seen.add(m);
    stack.push(...(graph.get(m) ?? []));
  }
  return seen;
}

describe('the engine module graph', () => {
  it('reads every module (the helper finds the imports it should)', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('runtime/engine.ts')).toEqual(expect.arrayContaining(['tasks/engine-pool.ts', 'property/property-lookup.ts']));
    expect(graph.get('index.ts')).toContain('runtime/engine.ts');
  });

  it('keeps engine.ts to starting, closing and answering: models, scores and surfaces are modules of their own', () => {
    expect(graph.get('runtime/engine.ts')).toEqual(expect.arrayContaining(['runtime/state-models.ts', 'runtime/compute-scores.ts', 'runtime/compute-surfaces.ts', 'memory/memory-report.ts']));
    // None of them reaches the engine or its pool factory: they are handed a pool typed by the tasks they run.
    for (const m of ['runtime/state-models.ts', 'runtime/compute-scores.ts', 'runtime/compute-surfaces.ts', 'memory/memory-report.ts']) {
      for (const banned of ['runtime/engine.ts', 'tasks/engine-pool.ts', 'tasks/task-map.ts']) expect(reach(m).has(banned), `${m} reaches ${banned}`).toBe(false);
    }
  });

  it('keeps the data layer below the products: nothing in data/ or catalogue/ reaches tiles/ (the dataset fingerprint lives in catalogue/)', () => {
    const low = [...graph.keys()].filter((m) => m.startsWith('data/') || m.startsWith('catalogue/'));
    expect(low.length).toBeGreaterThan(5);
    for (const m of low) expect([...reach(m)].filter((d) => d.startsWith('tiles/')), m).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the task map out of the pool and of the domain modules', () => {
    const importers = [...graph].filter(([, deps]) => deps.includes('tasks/task-map.ts')).map(([m]) => m).sort();
    expect(importers).toEqual(['tasks/engine-pool.ts']);
    for (const m of graph.keys()) if (m.startsWith('pool/')) expect(reach(m).has('tasks/task-map.ts'), m).toBe(false);
    const viaPool = [...graph.keys()].filter((m) => reach(m).has('tasks/engine-pool.ts')).sort();
    // The engine, the two entries that hand it out (`propintel`, and `propintel/runtime` with the pool factory),
    // internals.ts, which names the engine's type for engineInternals(), and an engine thread, which hosts an
    // engine of its own (threads/engine-thread.ts and the calls it answers).
    expect(viaPool).toEqual(['entry/runtime.ts', 'index.ts', 'runtime/engine.ts', 'runtime/internals.ts', 'threads/engine-thread.ts', 'threads/thread-calls.ts']);
  });

  it('the compute entry points stand without a dataset: they reach neither the engine nor the DA store', () => {
    for (const entry of ['entry/contours.ts', 'entry/hydro.ts', 'entry/noise.ts', 'entry/geo.ts']) {
      const r = reach(entry);
      expect(r.size, entry).toBeGreaterThan(0);
      for (const heavy of ['runtime/engine.ts', 'da/da-store.ts', 'data/dataset-store.ts', 'tasks/engine-pool.ts']) expect(r.has(heavy), `${entry} reaches ${heavy}`).toBe(false);
    }
    expect(reach('index.ts').has('runtime/engine.ts')).toBe(true);
  });
});
