// The per-state models under a byte budget (issue 39): with a budget smaller than two states' models, a
// lookup in a second state drops the first state's models, a lookup back in the first builds them again,
// and every answer is identical to an engine's without a budget; the memory report says what is
// held and how many states were dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { createEngine, type Engine } from '../../engine/engine.js';

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
});
