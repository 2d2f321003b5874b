// Issue 46: an engine thread answers its own states from their windowed files held whole (read once from the
// layer file) and other states by window. On the sample world (eight states, files of many kinds, a
// withheld-rows source, catalogue files the layer file holds by name, so file ids are not positions), the
// twelve sandbox addresses and their points answer exactly as the whole dataset held in memory does, whether
// every state is held or none is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { STATES } from '../../../engine/catalogue/states.js';
import { createEngine, defaultLayerFile, type Engine } from '../../../engine/runtime/engine.js';
import type { PropertySubject } from '../../../engine/property/kit/contract.js';

const datasets = defaultDataDir();
const now = new Date('2026-11-25T00:00:00Z');
let memory: Engine;
let held: Engine;
let windowed: Engine;

beforeAll(async () => {
  [memory, held, windowed] = await Promise.all([
    createEngine({ datasets, threads: 0, tileCache: false }),
    createEngine({ datasets, threads: 0, tileCache: false, layerFile: defaultLayerFile(datasets), memoryStates: [...STATES] }),
    createEngine({ datasets, threads: 0, tileCache: false, layerFile: defaultLayerFile(datasets), memoryStates: [] }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([memory?.close(), held?.close(), windowed?.close()]);
});

function comparable(p: Record<string, unknown>): Record<string, unknown> {
  const meta = { ...(p.meta as Record<string, unknown>) };
  delete meta.request_id;
  delete meta.timing;
  return { ...p, meta };
}

describe('states held whole', () => {
  it('answer every sandbox address and its point exactly as the dataset held in memory, and as windows do', async () => {
    const sandbox = await memory.sandbox();
    expect(new Set(sandbox.map((s) => s.state)).size).toBe(8);
    const subjects: PropertySubject[] = sandbox.flatMap((s) => [{ address: s.address }, { lat: s.lat, lng: s.lng }]);
    for (const subject of subjects) {
      const [a, b, c] = await Promise.all([memory, held, windowed].map((e) => e.property(subject, { now })));
      expect(comparable(b.payload as Record<string, unknown>), JSON.stringify(subject)).toEqual(comparable(a.payload as Record<string, unknown>));
      expect(comparable(c.payload as Record<string, unknown>), JSON.stringify(subject)).toEqual(comparable(a.payload as Record<string, unknown>));
    }
    // The held engine answered every one from memory: it read no window.
    expect(held.windows!.cacheStats().built).toBe(0);
    expect(windowed.windows!.cacheStats().built).toBeGreaterThan(0);
    expect(held.heldStates()).toEqual([...STATES].sort());
  }, 120_000);

  it('answer a point at a feature of each windowed file of the layer file exactly as the dataset held in memory', async () => {
    // A point at the first feature of every windowed vector file (the centre of its box), so that each file held
    // whole is met by some lookup: a file read into the wrong slot, or left out, changes an answer.
    const layers = held.windows!.layers;
    const seen = new Set<string>();
    const points: { lat: number; lng: number }[] = [];
    for (const e of layers.entries) {
      if (e.class === null || e.kind !== 'vector') continue;
      const first = layers.allItems(e.id)[0] as { geometry?: { coordinates: unknown } } | undefined;
      const xy: number[] = JSON.stringify(first?.geometry?.coordinates ?? null).match(/-?\d+\.\d+/g)?.map(Number) ?? [];
      if (xy.length < 2) continue;
      const xs = xy.filter((_, i) => i % 2 === 0), ys = xy.filter((_, i) => i % 2 === 1);
      const lng = (Math.min(...xs) + Math.max(...xs)) / 2, lat = (Math.min(...ys) + Math.max(...ys)) / 2;
      const k = `${lng.toFixed(3)},${lat.toFixed(3)}`;
      if (!seen.has(k)) seen.add(k), points.push({ lat, lng });
    }
    expect(points.length).toBeGreaterThan(40);
    let answered = 0;
    for (const p of points) {
      const options = { now, components: ['planning', 'hazards', 'environment', 'utilities', 'administrative'] };
      const a = await memory.property(p, options).then((r) => r.payload as Record<string, unknown>, (e: Error) => e.message);
      const b = await held.property(p, options).then((r) => r.payload as Record<string, unknown>, (e: Error) => e.message);
      if (typeof a === 'string') {
        expect(b, JSON.stringify(p)).toBe(a);
        continue;
      }
      answered++;
      expect(comparable(b as Record<string, unknown>), JSON.stringify(p)).toEqual(comparable(a));
    }
    expect(answered).toBeGreaterThan(points.length / 2);
  }, 120_000);

  it('answers the address whose overlay sits in a file the layer file numbers out of position as memory does', async () => {
    // Found by the threads' identity test: a Brisbane overlay file missing from the held store.
    const subject = { address: '32 Colton Avenue, Wooloowin QLD 4030' };
    const a = await memory.property(subject, { now, components: ['planning'] });
    const b = await held.property(subject, { now, components: ['planning'] });
    expect((a.payload as { planning: { overlay: unknown[] } }).planning.overlay.length).toBeGreaterThan(0);
    expect(comparable(b.payload as Record<string, unknown>)).toEqual(comparable(a.payload as Record<string, unknown>));
  });
});
