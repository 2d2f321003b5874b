// Memory estimates (the /metrics report) and caches bounded by them: hand-counted structures, shared
// buffers counted once, cycles, and a TtlCache that evicts by bytes.
import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../../engine/cache/ttl-cache.js';
import { estimate, estimateBytes } from '../../../engine/memory/estimate.js';

describe('estimateBytes', () => {
  it('counts a typed array by its buffer, once however many views share it', () => {
    const a = new Float64Array(100_000);
    const own = estimateBytes(a);
    expect(own).toBeGreaterThanOrEqual(800_000);
    expect(own).toBeLessThan(800_000 + 200);
    const shared = new SharedArrayBuffer(40_000);
    const both = estimateBytes({ x: new Int32Array(shared), y: new Uint8Array(shared, 100, 50) });
    expect(both).toBeGreaterThanOrEqual(40_000);
    expect(both).toBeLessThan(40_000 + 300);
  });

  it('counts strings by their characters, arrays and objects by their slots, and walks cycles once', () => {
    expect(estimateBytes('x'.repeat(1000))).toBe(16 + 1000);
    expect(estimateBytes('€'.repeat(1000))).toBe(16 + 2000);
    expect(estimateBytes([1, 2, 3])).toBe(16 + 3 * 8);
    expect(estimateBytes({ a: 1, b: 'xy' })).toBe(16 + 2 * 8 + 16 + 2);
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    loop.list = [loop, loop];
    expect(estimateBytes(loop)).toBe(16 + 3 * 8 + (16 + 4) + (16 + 2 * 8));
    const m = new Map([['k', new Float32Array(10)]]);
    expect(estimateBytes(m)).toBe(16 + 24 + (16 + 1) + 64 + 40);
  });

  it('attributes what another estimate already counted to that one (a shared seen set)', () => {
    const seen = new WeakSet<object>();
    const features = Array.from({ length: 1000 }, (_, i) => ({ id: i, coords: new Float64Array(10) }));
    const layer = estimateBytes({ features }, { seen });
    const model = estimateBytes({ features, index: new Uint32Array(1000) }, { seen });
    expect(layer).toBeGreaterThan(1000 * 80);
    expect(model).toBeLessThan(4000 + 200); // the index only: the features were the layer's
  });

  it('stops at maxObjects and says so', () => {
    const many = Array.from({ length: 1000 }, () => ({}));
    expect(estimate(many, { maxObjects: 10 }).truncated).toBe(true);
    expect(estimate(many).truncated).toBe(false);
  });
});

describe('TtlCache bounded by bytes', () => {
  it('evicts least recently used entries to stay under its byte bound, and keeps no value larger than it', () => {
    const c = new TtlCache(1000, 10_000);
    const now = new Date('2026-11-25T00:00:00Z');
    const value = () => ({ grid: new Float64Array(250) }); // about 2,100 bytes each
    for (let i = 0; i < 4; i++) c.set(`k${i}`, value(), 60_000, now);
    expect(c.size).toBe(4);
    c.get('k0', now); // k0 is now the most recently used
    c.set('k4', value(), 60_000, now);
    c.set('k5', value(), 60_000, now);
    expect(c.bytes).toBeLessThanOrEqual(10_000);
    expect(c.get('k1', now)).toBeUndefined(); // the oldest went first
    expect(c.get('k0', now)?.value).toEqual(value());
    expect(c.get('k5', now)?.value).toEqual(value());
    c.set('huge', { grid: new Float64Array(5000) }, 60_000, now);
    expect(c.get('huge', now)).toBeUndefined();
    const before = c.bytes;
    c.delete('k0');
    expect(c.bytes).toBeLessThan(before);
    c.clear();
    expect(c.bytes).toBe(0);
  });
});
