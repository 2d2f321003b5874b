// The exact distance transform with nearest sites (engine/raster/nearest-fill.ts) against brute force: every
// cell's distance is the least Euclidean distance to any site, and the site it names is at that distance.
import { describe, expect, it } from 'vitest';
import { nearestSites } from '../../../engine/raster/nearest-fill.js';

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('nearest sites', () => {
  for (const [w, h, density, seed] of [[37, 23, 0.02, 1], [64, 64, 0.2, 2], [1, 50, 0.1, 3], [50, 1, 0.1, 4], [31, 17, 0.002, 5]] as const) {
    it(`match brute force on a ${w} x ${h} grid with ${density * 100}% sites`, () => {
      const r = rng(seed);
      const sites = Array.from({ length: w * h }, () => r() < density);
      if (!sites.some(Boolean)) sites[Math.floor(r() * w * h)] = true;
      const { distance, nearest } = nearestSites(w, h, (i) => sites[i]);
      for (let i = 0; i < w * h; i++) {
        const x = i % w, y = Math.floor(i / w);
        let best = Infinity;
        for (let j = 0; j < w * h; j++) if (sites[j]) best = Math.min(best, Math.hypot((j % w) - x, Math.floor(j / w) - y));
        expect(distance[i], `cell ${x},${y}`).toBeCloseTo(best, 5);
        const s = nearest[i];
        expect(sites[s], `cell ${x},${y} names a site`).toBe(true);
        expect(Math.hypot((s % w) - x, Math.floor(s / w) - y)).toBeCloseTo(best, 5);
      }
    });
  }

  it('say Infinity and -1 when there is no site', () => {
    const { distance, nearest } = nearestSites(5, 4, () => false);
    expect([...distance].every((d) => d === Infinity)).toBe(true);
    expect([...nearest].every((n) => n === -1)).toBe(true);
  });
});
