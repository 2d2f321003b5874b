import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CellHeap } from '../../../engine/hydro/cell-queue.js';

describe('CellHeap', () => {
  it('pops keys in ascending order, growing past its initial capacity (property, against a sort)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -100, max: 1000, noNaN: true }), { maxLength: 300 }), (keys) => {
        const h = new CellHeap(1);
        keys.forEach((k, i) => h.push(k, i));
        const out: number[] = [];
        while (h.size > 0) {
          const k = h.peekKey();
          const c = h.pop();
          expect(keys[c]).toBe(k);
          out.push(k);
        }
        expect(out).toEqual([...keys].sort((a, b) => a - b));
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});
