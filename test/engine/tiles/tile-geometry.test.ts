// Valid MVT geometry after quantisation (engine/tiles/tile-geometry.ts, issue 47): hand-worked rings.
import { describe, expect, it } from 'vitest';
import { dissolvePolygon, hasClipBridge, ringArea2, ringVertices, validLines, validPolygonRings, validTileFeatures } from '../../../engine/tiles/tile-geometry.js';

type Pt = [number, number];
/** A square ring from (x, y), side d, as an exterior (clockwise as drawn, y down) or a hole. */
const square = (x: number, y: number, d: number, hole = false): Pt[] => {
  const r: Pt[] = [[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]];
  return hole ? r.reverse() : r;
};

describe('ring arithmetic', () => {
  it('gives an exterior (clockwise as drawn, y down) a positive area, as MVT 2.1 4.3.4.4 defines it', () => {
    expect(ringArea2(square(0, 0, 10))).toBe(200);
    expect(ringArea2(square(0, 0, 10, true))).toBe(-200);
  });

  it('takes out repeats and spikes, across the ring\'s start too', () => {
    // The ring found in hand/14/14790/10050: three points, two distinct, no area.
    expect(ringVertices([[1622, 293], [1611, 293], [1622, 293]])).toHaveLength(1);
    expect(ringVertices([[0, 0], [10, 0], [10, 0], [10, 10], [0, 10], [0, 0]])).toEqual([[0, 0], [10, 0], [10, 10], [0, 10]]);
    // A spike out to (20, 5) and back from (10, 5).
    expect(ringVertices([[0, 0], [10, 0], [10, 5], [20, 5], [10, 5], [10, 10], [0, 10], [0, 0]])).toEqual([[0, 0], [10, 0], [10, 5], [10, 10], [0, 10]]);
    // A spike whose tip is the ring's first point.
    expect(ringVertices([[5, -5], [5, 0], [10, 0], [10, 10], [0, 10], [0, 0], [5, 0], [5, -5]])).toEqual([[5, 0], [10, 0], [10, 10], [0, 10], [0, 0]]);
  });
});

describe('valid polygon rings', () => {
  it('drops collapsed rings, and the holes of an exterior that went', () => {
    const rings = [square(0, 0, 100), square(10, 10, 5, true), [[200, 0], [210, 0], [200, 0]] as Pt[], square(201, 1, 2, true), square(300, 0, 50)];
    const out = validPolygonRings(rings);
    expect(out).toEqual([square(0, 0, 100), square(10, 10, 5, true), square(300, 0, 50)]);
    for (const r of out) expect(ringVertices(r).length).toBeGreaterThanOrEqual(3);
  });

  it('drops a hole that lies outside its exterior, and one before any exterior', () => {
    expect(validPolygonRings([square(50, 50, 5, true), square(0, 0, 10), square(20, 20, 5, true)])).toEqual([square(0, 0, 10)]);
  });

  it('keeps the windings it is given and closes each ring again', () => {
    const out = validPolygonRings([[[0, 0], [10, 0], [10, 10], [0, 10]]]);
    expect(out).toEqual([[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]);
    expect(ringArea2(out[0])).toBeGreaterThan(0);
  });
});

describe('valid lines and features', () => {
  it('keeps a line with two distinct points, drops one that collapsed to a point', () => {
    expect(validLines([[[0, 0], [0, 0], [5, 5]], [[3, 3], [3, 3]]])).toEqual([[[0, 0], [5, 5]]]);
  });

  it('drops a feature left with nothing, keeps points and the rest', () => {
    const features = [
      { type: 3 as const, geometry: [[[1622, 293], [1611, 293], [1622, 293]]], tags: { a: 1 } },
      { type: 2 as const, geometry: [[[1, 1], [1, 1]]], tags: {} },
      { type: 1 as const, geometry: [[5, 5]], tags: {} },
      { type: 3 as const, geometry: [square(0, 0, 4)], tags: { b: 2 } },
    ];
    const out = validTileFeatures(features);
    expect(out.map((f) => f.type)).toEqual([1, 3]);
    expect(out[1].tags).toEqual({ b: 2 });
  });
});

describe('a polygon cut on the buffer line', () => {
  // Two arms of a U cut by the clip line y = -64 come out of Sutherland-Hodgman as one ring that runs along the
  // line from the first arm to the second and back over the same stretch: (100, -64) to (200, -64) twice.
  const bridged: Pt[] = [[0, -64], [300, -64], [300, 100], [200, 100], [200, -64], [100, -64], [100, 100], [0, 100], [0, -64]];

  it('is dissolved into the two simple rings it covers, wound for MVT', () => {
    expect(ringArea2(bridged)).toBeGreaterThan(0);
    const out = dissolvePolygon([bridged]);
    expect(out).toHaveLength(2);
    for (const r of out) {
      expect(ringVertices(r)).toHaveLength(4);
      expect(ringArea2(r)).toBe(2 * 100 * 164);
    }
    expect(out.map((r) => Math.min(...r.map((p) => p[0]))).sort((a, b) => a - b)).toEqual([0, 200]);
  });

  it('keeps a hole through the dissolve, wound as a hole', () => {
    const out = dissolvePolygon([square(-64, -64, 200), square(0, 0, 50, true)]);
    expect(out.map((r) => Math.sign(ringArea2(r)))).toEqual([1, -1]);
  });

  it('is dissolved by validTileFeatures only when it runs twice over a stretch of the clip line', () => {
    expect(hasClipBridge([bridged], -64, 4160)).toBe(true);
    const [f] = validTileFeatures([{ type: 3 as const, geometry: [bridged] }], [-64, 4160]);
    expect((f.geometry as Pt[][]).length).toBe(2);
    const [g] = validTileFeatures([{ type: 3 as const, geometry: [bridged] }]);
    expect((g.geometry as Pt[][]).length).toBe(1);
    // A polygon that only lies along the line (no stretch twice) is left as it is.
    const along = square(-64, -64, 100);
    expect(hasClipBridge([along], -64, 4160)).toBe(false);
    expect(validTileFeatures([{ type: 3 as const, geometry: [along] }], [-64, 4160])[0].geometry).toEqual([along]);
  });
});

