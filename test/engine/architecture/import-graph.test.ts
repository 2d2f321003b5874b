// The engine's module graph (issue 21): no import cycle anywhere in engine/, and the generic worker pool
// (engine/pool/) knows no task: only the engine's own pool factory (engine/tasks/) and the engine itself
// reach the domain task map.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dirname } from 'node:path';
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

/**
 * The engine's folders by layer, bottom first (docs/architecture.md draws the same): a module imports only
 * from its own folder and from folders of lower layers, never from its layer or above. The root's leaves
 * (errors, version, escape-html) are the floor; the front door (index.ts, entry/) is the top.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'version.ts', 'escape-html.ts', 'random'],
  ['geo', 'pool', 'memory', 'tables'],
  ['vector', 'cache'],
  ['raster'],
  ['catalogue'],
  ['address'],
  ['data'],
  ['da'],
  ['hydro', 'surfaces'],
  ['score-kit'],
  ['noise'],
  ['scores'],
  ['childcare', 'property'],
  ['batch', 'tiles'],
  ['tasks'],
  ['threads'],
  ['runtime'],
  ['entry', 'index.ts'],
];

/** The folder a module belongs to for layering: its top folder under engine/, or a root file itself. */
const unit = (m: string) => (m.includes('/') ? m.split('/')[0] : m);

describe('the engine module graph', () => {
  it('places every folder on a layer, and no import runs sideways or back up', () => {
    const layer = new Map<string, number>();
    LAYERS.forEach((units, i) => units.forEach((u) => layer.set(u, i)));
    const unplaced = [...new Set([...graph.keys()].map(unit))].filter((u) => !layer.has(u)).sort();
    expect(unplaced, 'folders not on a layer').toEqual([]);
    const up: string[] = [];
    for (const [m, deps] of graph) {
      for (const d of deps) {
        const a = unit(m);
        const b = unit(d);
        if (a !== b && layer.get(b)! >= layer.get(a)!) up.push(`${m} -> ${d}`);
      }
    }
    expect(up).toEqual([]);
  });

  it('has no circle between folders, down to the score folders', () => {
    // Every folder is a unit (engine/scores/flood apart from engine/scores); the root's files each their own.
    const folderOf = (m: string) => (m.includes('/') ? dirname(m) : m);
    const folders = new Map<string, string[]>();
    for (const [m, deps] of graph) {
      const a = folderOf(m);
      const out = folders.get(a) ?? [];
      for (const d of deps) if (folderOf(d) !== a && !out.includes(folderOf(d))) out.push(folderOf(d));
      folders.set(a, out);
    }
    expect(folders.size).toBeGreaterThan(40);
    expect(cycles(folders)).toEqual([]);
  });

  it('reads every module (the helper finds the imports it should)', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('runtime/engine.ts')).toEqual(expect.arrayContaining(['tasks/engine-pool.ts', 'property/property-lookup.ts']));
    expect(graph.get('index.ts')).toContain('runtime/engine.ts');
  });

  it('keeps engine.ts to starting, closing and answering: models, scores and surfaces are modules of their own', () => {
    expect(graph.get('runtime/engine.ts')).toEqual(expect.arrayContaining(['runtime/state-models.ts', 'runtime/compute-scores.ts', 'runtime/compute-surfaces.ts', 'runtime/memory-report.ts']));
    // None of them reaches the engine or its pool factory: they are handed a pool typed by the tasks they run.
    for (const m of ['runtime/state-models.ts', 'runtime/compute-scores.ts', 'runtime/compute-surfaces.ts', 'runtime/memory-report.ts']) {
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
    // engine of its own (runtime/engine-thread.ts and the calls it answers).
    expect(viaPool).toEqual(['entry/runtime.ts', 'index.ts', 'runtime/engine-thread.ts', 'runtime/engine.ts', 'runtime/internals.ts', 'runtime/thread-calls.ts']);
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
