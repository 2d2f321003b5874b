import { describe, expect, it } from 'vitest';
import { destination, metresPerDegree } from '../../../../engine/geo/distance.js';
import { seededRandom } from '../../../../engine/random/seeded-random.js';
import { BARRIER_MOTORWAY, BARRIER_WATER, BarrierField } from '../../../../engine/scores/walkability/barrier-field.js';
import { PointIndex } from '../../../../engine/vector/point-index.js';
import { SegmentIndex } from '../../../../engine/vector/segment-index.js';
import { LAT, LON } from './walk-fixtures.js';

/** Obviously-correct reference: test every segment of each kind, then every crossing point. */
function bruteForce(ax: number, ay: number, segs: { kind: number; x1: number; y1: number; x2: number; y2: number }[], crossings: [number, number][], tol: number): number {
  let out = 0;
  for (const s of segs) {
    const sx = s.x2 - s.x1, sy = s.y2 - s.y1;
    const den = ax * sy - ay * sx;
    if (den === 0) continue;
    const t = (s.x1 * sy - s.y1 * sx) / den;
    const u = (s.x1 * ay - s.y1 * ax) / den;
    if (t < 0 || t > 1 || u < 0 || u > 1) continue;
    const ix = t * ax, iy = t * ay;
    if (!crossings.some(([cx, cy]) => (cx - ix) ** 2 + (cy - iy) ** 2 <= tol * tol)) out |= s.kind;
  }
  return out;
}

describe('barrier field', () => {
  it('agrees with a brute-force check over every segment for seeded random barriers, crossings and amenities', () => {
    const rnd = seededRandom(7);
    const { kx, ky } = metresPerDegree(LAT);
    const toLonLat = (x: number, y: number): [number, number] => [LON + x / kx, LAT + y / ky];
    const mk = (n: number, kind: number) => Array.from({ length: n }, () => {
      const x1 = rnd.range(-2500, 2500), y1 = rnd.range(-2500, 2500);
      const a = rnd.range(0, 2 * Math.PI), len = rnd.range(50, 600);
      return { kind, x1, y1, x2: x1 + len * Math.cos(a), y2: y1 + len * Math.sin(a) };
    });
    const motor = mk(300, BARRIER_MOTORWAY);
    const water = mk(150, BARRIER_WATER);
    const crossings: [number, number][] = Array.from({ length: 80 }, () => [rnd.range(-2500, 2500), rnd.range(-2500, 2500)]);
    const segIndex = (segs: typeof motor) => SegmentIndex.build(segs.flatMap((s) => [...toLonLat(s.x1, s.y1), ...toLonLat(s.x2, s.y2)]), segs.map((_, i) => i));
    const field = BarrierField.around(LON, LAT, 2400, {
      motorway: segIndex(motor),
      water: segIndex(water),
      crossings: PointIndex.build(crossings.flatMap(([x, y]) => toLonLat(x, y))),
    }, 200);
    // The reference uses the same local projection, with only segments the field's radius can reach.
    let flagged = 0;
    for (let i = 0; i < 2000; i++) {
      const d = rnd.range(10, 2400), b = rnd.range(0, 360);
      const [lon, lat] = destination(LON, LAT, d, b);
      const ax = (lon - LON) * kx, ay = (lat - LAT) * ky;
      const got = field.check(ax, ay);
      expect(got).toBe(bruteForce(ax, ay, [...motor, ...water], crossings, 200));
      if (got) flagged++;
    }
    expect(flagged).toBeGreaterThan(500); // the test exercises both outcomes
    expect(flagged).toBeLessThan(2000);
  });

  it('an empty field flags nothing', () => {
    const f = BarrierField.around(LON, LAT, 2400, { motorway: null, water: null, crossings: null });
    expect(f.segmentCount).toBe(0);
    expect(f.check(1000, 1000)).toBe(0);
  });
});
