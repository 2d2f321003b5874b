// The per-state models under a byte budget (issue 39): with a budget smaller than two states' models, a
// lookup in a second state drops the first state's models, a lookup back in the first builds them again,
// and every answer is identical to an engine's without a budget; the memory report says what is
// held and how many states were dropped. Read by window from a layer file, nothing of a state's whole layers
// is read at open, a lookup reads only its state's, and a dropped state's whole layers go with its models and
// are read again, identical.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { createEngine, type Engine } from '../../engine/runtime/engine.js';
import { engineInternals } from '../../engine/runtime/internals.js';
import { isLazyLayer, layerRead } from '../../engine/data/lazy-layer.js';
import { stateOfFile } from '../../engine/data/windowed-store.js';
import { NATIONAL_MODEL_PATHS } from '../../engine/runtime/state-models.js';
import { tempDir } from '../helpers/tmp.js';

let tight: Engine;
let free: Engine;

beforeAll(async () => {
  [tight, free] = await Promise.all([
    createEngine({ datasets: defaultDataDir(), threads: 1, modelBudgetBytes: 1 }),
    createEngine({ datasets: defaultDataDir(), threads: 1 }),
  ]);
}, 120_000);
afterAll(async () => {
  await tight?.close();
  await free?.close();
});

/** A payload without its clock (`as_at`). */
function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'as_at').map(([k, x]) => [k, stable(x)]));
  return v;
}

describe('per-state models under a byte budget', () => {
  it('drops the least recently used state\'s models and rebuilds them with identical answers', async () => {
    const vic = tight.addresses().byId('VIC0000120')!.text;
    const nsw = tight.addresses().byId('NSW0000120')!.text;
    const components = ['scores.noise', 'scores.walkability', 'scores.bushfire'];
    const first = await tight.property({ address: vic }, { components });
    let report = await tight.memoryReport();
    expect(Object.keys(report.budget!.heldBytes)).toEqual(['VIC']);
    expect(report.budget!.heldBytes.VIC).toBeGreaterThan(0);
    expect(report.budget!.evictions).toBe(0);

    const other = await tight.property({ address: nsw }, { components });
    report = await tight.memoryReport();
    // Only the state in use is held: VIC's models were dropped for NSW's.
    expect(Object.keys(report.budget!.heldBytes)).toEqual(['NSW']);
    expect(report.budget!.evictions).toBe(1);
    expect(report.models.filter((m) => m.state === 'VIC' && m.model !== 'dataset_files')).toEqual([]);

    // Another VIC address (the same one would be answered from the score cache, needing no model).
    const vic2 = tight.addresses().byId('VIC0000130')!.text;
    const again = await tight.property({ address: vic2 }, { components });
    report = await tight.memoryReport();
    expect(Object.keys(report.budget!.heldBytes)).toEqual(['VIC']);
    expect(report.budget!.evictions).toBe(2);
    // Rebuilt identical: the same answers as an engine that never dropped anything.
    expect(stable(again.payload)).toEqual(stable((await free.property({ address: vic2 }, { components })).payload));
    expect(stable(first.payload)).toEqual(stable((await free.property({ address: vic }, { components })).payload));
    expect(stable(other.payload)).toEqual(stable((await free.property({ address: nsw }, { components })).payload));
    // Without a budget nothing is dropped.
    expect((await free.memoryReport()).budget).toEqual({ budgetBytes: null, heldBytes: {}, evictions: 0 });
  }, 120_000);

  it('drops no state a lookup in flight uses: two states at once both stay, and the next lookup elsewhere drops them', async () => {
    const before = (await tight.memoryReport()).budget!.evictions;
    const components = ['scores.noise', 'scores.walkability'];
    const [a, b] = await Promise.all(['VIC0000140', 'NSW0000140'].map((id) => tight.property({ address: tight.addresses().byId(id)!.text }, { components })));
    let report = await tight.memoryReport();
    // Both lookups ran at once: each built or used its state's models, and neither dropped the other's.
    expect(Object.keys(report.budget!.heldBytes).sort()).toEqual(['NSW', 'VIC']);
    expect(report.budget!.evictions).toBe(before);
    await tight.property({ address: tight.addresses().byId('QLD0000140')!.text }, { components });
    report = await tight.memoryReport();
    expect(Object.keys(report.budget!.heldBytes)).toEqual(['QLD']);
    expect(report.budget!.evictions).toBe(before + 2);
    for (const [k, id] of ['VIC0000140', 'NSW0000140'].entries()) {
      expect(stable([a, b][k].payload), id).toEqual(stable((await free.property({ address: free.addresses().byId(id)!.text }, { components })).payload));
    }
  }, 120_000);

  it('keeps every state within a budget that holds them all', async () => {
    const roomy = await createEngine({ datasets: defaultDataDir(), threads: 1, modelBudgetBytes: 10 * 1024 ** 3 });
    try {
      for (const id of ['VIC0000120', 'NSW0000120', 'QLD0000120']) await roomy.property({ address: roomy.addresses().byId(id)!.text }, { components: ['scores.walkability'] });
      const b = (await roomy.memoryReport()).budget!;
      expect(Object.keys(b.heldBytes).sort()).toEqual(['NSW', 'QLD', 'VIC']);
      expect(b.evictions).toBe(0);
    } finally {
      await roomy.close();
    }
  }, 120_000);

  it('by window: reads no whole layer at open, only the state looked up, and drops a state\'s whole layers with its models', async () => {
    const layerFile = join(tempDir('budget-layers-'), 'layers.sqlite');
    const windowed = await createEngine({ datasets: defaultDataDir(), threads: 1, tileCache: false, layerFile, modelBudgetBytes: 1 });
    try {
      const w = engineInternals(windowed).windows!;
      const read = () => {
        const by: Record<string, number> = {};
        for (const f of w.base.files) {
          if (!isLazyLayer(f) || !layerRead(f) || f.source.paths.some((p) => NATIONAL_MODEL_PATHS.includes(p))) continue;
          const st = stateOfFile(f.source, f.file);
          if (st === 'national') continue; // shared by every state, never dropped
          by[st] = (by[st] ?? 0) + 1;
        }
        return by;
      };
      expect(w.wholeLayers().read).toBe(0);
      expect(w.wholeLayers().total).toBeGreaterThan(20);
      const ids = ['VIC0000120', 'NSW0000120', 'VIC0000130'];
      const answers = [];
      for (const [k, id] of ids.entries()) {
        const address = windowed.addresses().byId(id)!.text;
        answers.push(await windowed.property({ address }));
        // Only the state looked up holds whole layers (beyond what the national models keep).
        expect(Object.keys(read()), id).toEqual([id.slice(0, 3)]);
        expect((await windowed.memoryReport()).budget!.evictions).toBe(k);
      }
      // Read again after being dropped, the answers are those of an engine holding everything in memory.
      for (const [k, id] of ids.entries()) {
        const want = await free.property({ address: free.addresses().byId(id)!.text });
        expect(comparable(answers[k].payload), id).toEqual(comparable(want.payload));
      }
    } finally {
      await windowed.close();
    }
  }, 240_000);
});

/** A payload without what differs between two lookups of one subject (its clock and the request's own timing). */
function comparable(p: unknown): unknown {
  const v = stable(p) as Record<string, unknown>;
  const meta = { ...(v.meta as Record<string, unknown>) };
  delete meta.generated_at;
  delete meta.request_id;
  delete meta.timing;
  return { ...v, meta };
}
