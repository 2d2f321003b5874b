import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CellHeap } from '../../../engine/hydro/cell-queue.js';
import { LruCache } from '../../../engine/hydro/lru-cache.js';

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

describe('LruCache', () => {
  it('evicts the least recently used entry and counts hits and misses', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3); // evicts b
    expect(c.get('b')).toBeUndefined();
    expect(c.get('c')).toBe(3);
    expect(c.size).toBe(2);
    expect([c.hits, c.misses]).toEqual([2, 1]);
    expect(() => new LruCache(0)).toThrow(/capacity/);
  });
});
