// The one LRU cache behind every bounded cache of the engine and the server: eviction order, both bounds,
// refusal of an oversized entry, eviction hooks, and agreement with a reference model on random operations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../../engine/cache/lru-cache.js';
import { TtlCache } from '../../../engine/cache/ttl-cache.js';
import { estimateBytes } from '../../../engine/memory/estimate.js';

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
    expect(c.peek('a')).toBe(1);
    expect([c.hits, c.misses]).toEqual([2, 1]); // peek counts nothing
    expect(() => new LruCache(0)).toThrow(/capacity/);
  });

  it('bounds the total size, refuses an entry larger than maxEntrySize, and reports evictions only', () => {
    const evicted: string[] = [];
    const c = new LruCache<string, string>({ maxSize: 10, maxEntrySize: 6, sizeOf: (v) => v.length, onEvict: (_v, k) => evicted.push(k) });
    expect(c.set('a', 'xxxx')).toBe(true); // 4
    expect(c.set('b', 'xxxx')).toBe(true); // 8
    expect(c.set('c', 'xxx')).toBe(true); // 11 > 10: a goes
    expect(evicted).toEqual(['a']);
    expect([c.size, c.bytes]).toEqual([2, 7]);
    expect(c.set('big', 'xxxxxxx')).toBe(false); // 7 > 6: refused, nothing evicted for it
    expect([c.size, c.bytes, c.has('big')]).toEqual([2, 7, false]);
    c.set('b', 'x'); // replaced, not evicted
    c.delete('c'); // deleted, not evicted
    c.clear();
    expect(evicted).toEqual(['a']);
    expect([c.size, c.bytes]).toEqual([0, 0]);
  });

  it('holds exactly what a reference list model holds under random operations', () => {
    type Op = { kind: 'set'; key: number; size: number } | { kind: 'get' | 'delete'; key: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 9 }), size: fc.integer({ min: 0, max: 8 }) }),
      fc.record({ kind: fc.constantFrom('get' as const, 'delete' as const), key: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.array(op as fc.Arbitrary<Op>, { maxLength: 80 }), (ops) => {
        const c = new LruCache<number, number>({ maxEntries: 4, maxSize: 12, sizeOf: (v) => v });
        let model: [number, number][] = []; // least recent first
        for (const o of ops) {
          if (o.kind === 'set') {
            model = model.filter(([k]) => k !== o.key);
            c.set(o.key, o.size);
            if (o.size <= 12) {
              model.push([o.key, o.size]);
              while (model.length > 4 || model.reduce((s, [, v]) => s + v, 0) > 12) model.shift();
            }
          } else if (o.kind === 'get') {
            const i = model.findIndex(([k]) => k === o.key);
            expect(c.get(o.key)).toBe(i >= 0 ? model[i][1] : undefined);
            if (i >= 0) model.push(...model.splice(i, 1));
          } else {
            model = model.filter(([k]) => k !== o.key);
            c.delete(o.key);
          }
        }
        expect([...c.values()]).toEqual(model.map(([, v]) => v));
        expect(c.bytes).toBe(model.reduce((s, [, v]) => s + v, 0));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('TtlCache', () => {
  it('expires entries at their time-to-live and keeps the newest within its byte bound', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    const c = new TtlCache(10);
    c.set('a', { n: 1 }, 1000, t0);
    expect(c.get('a', later(999))).toEqual({ value: { n: 1 }, storedAt: t0 });
    expect(c.get('a', later(1000))).toBeUndefined();
    expect(c.size).toBe(0);
    c.set('z', 1, 0, t0); // no time to live: not stored
    expect(c.size).toBe(0);

    const one = estimateBytes('a'.repeat(60));
    const sized = new TtlCache(100, 2.5 * one); // room for two of the values below
    sized.set('x', 'a'.repeat(60), 1000, t0);
    sized.set('y', 'b'.repeat(60), 1000, t0);
    expect(sized.get('x', t0)?.value).toBe('a'.repeat(60));
    sized.set('w', 'c'.repeat(60), 1000, t0); // a third is over the bound: y (least recent) goes
    expect(sized.get('y', t0)).toBeUndefined();
    expect(sized.get('x', t0)?.value).toBe('a'.repeat(60));
    expect(sized.bytes).toBe(2 * one);
    sized.set('huge', 'd'.repeat(1000), 1000, t0);
    expect(sized.get('huge', t0)).toBeUndefined();
  });
});
