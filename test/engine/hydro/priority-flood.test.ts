import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillDepressions, nextUpFloat32 } from '../../../engine/hydro/priority-flood.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { gridOf, neighbours } from './helpers.js';

/**
 * The definition of the filled surface, computed the slow, obvious way (the fixpoint of Planchon & Darboux
 * 2001): water can leave at edge cells and cells next to no-data; every other cell ends at
 * max(own elevation, lowest filled neighbour), iterated until nothing changes.
 */
function referenceFill(dem: Float32Array, w: number, h: number): Float32Array {
  const n = w * h;
  const f = new Float32Array(n);
  const outlet = (i: number) => {
    const x = i % w;
    const y = (i - x) / w;
    return x === 0 || y === 0 || x === w - 1 || y === h - 1 || neighbours(i, w, h).some((j) => Number.isNaN(dem[j]));
  };
  for (let i = 0; i < n; i++) f[i] = Number.isNaN(dem[i]) ? NaN : outlet(i) ? dem[i] : Infinity;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < n; i++) {
      if (Number.isNaN(dem[i]) || outlet(i)) continue;
      let low = Infinity;
      for (const j of neighbours(i, w, h)) if (!Number.isNaN(f[j]) && f[j] < low) low = f[j];
      const v = Math.max(dem[i], low);
      if (v < f[i]) {
        f[i] = v;
        changed = true;
      }
    }
  }
  return f;
}

function hasLowerNeighbour(z: Float32Array, i: number, w: number, h: number): boolean {
  return neighbours(i, w, h).some((j) => z[j] < z[i]);
}

// A 9 x 9 plateau at 10 m with a walled pit: the rim is 12 m except one 11 m notch (the spill point), the
// floor 3-6 m. The pit must fill to exactly 11 m; nothing else changes.
const PIT = [
  [10, 10, 10, 10, 10, 10, 10, 10, 10],
  [10, 10, 10, 10, 10, 10, 10, 10, 10],
  [10, 10, 12, 12, 11, 12, 12, 10, 10],
  [10, 10, 12, 3, 4, 5, 12, 10, 10],
  [10, 10, 12, 4, 3, 6, 12, 10, 10],
  [10, 10, 12, 5, 6, 4, 12, 10, 10],
  [10, 10, 12, 12, 12, 12, 12, 10, 10],
  [10, 10, 10, 10, 10, 10, 10, 10, 10],
  [10, 10, 10, 10, 10, 10, 10, 10, 10],
];
const pitFloor = (i: number) => {
  const x = i % 9;
  const y = (i - x) / 9;
  return x >= 3 && x <= 5 && y >= 3 && y <= 5;
};

describe('Priority-Flood depression filling', () => {
  it('fills a closed pit exactly to its spill level and changes nothing else', () => {
    const dem = gridOf(PIT);
    const { filled, raisedCells } = fillDepressions(dem, { epsilon: false });
    for (let i = 0; i < 81; i++) expect(filled.data[i]).toBe(pitFloor(i) ? 11 : dem.data[i]);
    expect(raisedCells).toBe(9);
    expect(filled.transform).toEqual(dem.transform);
    expect(filled.crs).toBe(dem.crs);
  });

  it('with epsilon, raises the pit to just above the spill level and every cell drains', () => {
    const dem = gridOf(PIT);
    const { filled } = fillDepressions(dem);
    const z = filled.data;
    // At most one Float32 step per cell of flood distance from the notch (3 cells here), above 11 m.
    let top = 11;
    for (let k = 0; k < 3; k++) top = nextUpFloat32(top);
    for (let i = 0; i < 81; i++) {
      if (pitFloor(i)) {
        expect(z[i]).toBeGreaterThan(11);
        expect(z[i]).toBeLessThanOrEqual(top);
      }
      const x = i % 9;
      const y = (i - x) / 9;
      if (x > 0 && y > 0 && x < 8 && y < 8) expect(hasLowerNeighbour(z, i, 9, 9), `cell ${x},${y}`).toBe(true);
    }
  });

  it('treats no-data as an outlet: a pit that touches no-data is not filled', () => {
    const rows = PIT.map((r) => r.slice());
    rows[4][6] = NaN; // open the east wall onto no-data
    const { filled } = fillDepressions(gridOf(rows), { epsilon: false });
    expect(Number.isNaN(filled.data[4 * 9 + 6])).toBe(true);
    // The hole at (6,4) makes (5,3), (5,4) and (5,5) outlets at their own 5, 6 and 4 m; the floor then
    // drains over (5,5): the 3 m cells at (3,3) and (4,4) fill to 4 m, nothing is raised to the 11 m notch.
    expect(filled.data[5 * 9 + 5]).toBe(4);
    expect(filled.data[4 * 9 + 4]).toBe(4);
    expect(filled.data[3 * 9 + 3]).toBe(4);
    expect(filled.data[3 * 9 + 5]).toBe(5);
  });

  it('reads a sentinel no-data value (-9999) as no-data', () => {
    const rows = PIT.map((r) => r.slice());
    rows[4][6] = -9999;
    const dem = { ...gridOf(rows), noData: -9999 };
    const { filled } = fillDepressions(dem, { epsilon: false });
    expect(Number.isNaN(filled.data[4 * 9 + 6])).toBe(true);
    expect(filled.data[3 * 9 + 3]).toBe(4);
  });

  it('matches the fixpoint definition on random grids with flats, ties and holes (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(NaN)), { minLength: 144, maxLength: 144 }),
        (w, h, values) => {
          const data = Float32Array.from(values.slice(0, w * h));
          const dem = { ...gridOf([[0]]), width: w, height: h, data };
          const plain = fillDepressions(dem, { epsilon: false }).filled.data;
          const want = referenceFill(data, w, h);
          for (let i = 0; i < w * h; i++) {
            if (Number.isNaN(want[i])) expect(Number.isNaN(plain[i])).toBe(true);
            else expect(plain[i]).toBe(want[i]);
          }
          const eps = fillDepressions(dem).filled.data;
          for (let i = 0; i < w * h; i++) {
            if (Number.isNaN(want[i])) continue;
            // Epsilon only ever raises, by at most 144 Float32 steps (6 m: ulp 4.8e-7) here.
            expect(eps[i]).toBeGreaterThanOrEqual(want[i]);
            expect(eps[i] - want[i]).toBeLessThan(1e-3);
            const x = i % w;
            const y = (i - x) / w;
            const outlet = x === 0 || y === 0 || x === w - 1 || y === h - 1 || neighbours(i, w, h).some((j) => Number.isNaN(data[j]));
            if (!outlet) expect(hasLowerNeighbour(eps, i, w, h)).toBe(true);
          }
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it('nextUpFloat32 steps one Float32 ulp in either sign and across zero', () => {
    expect(nextUpFloat32(1)).toBe(1 + 2 ** -23);
    expect(nextUpFloat32(-1)).toBe(-1 + 2 ** -24);
    expect(nextUpFloat32(0)).toBe(2 ** -149);
    expect(nextUpFloat32(-(2 ** -149))).toBe(-0);
  });

  it('rejects a grid whose data does not match its shape', async () => {
    await expectEngineError(() => fillDepressions({ ...gridOf([[1, 2]]), width: 3 }), 'INVALID_ARGUMENT', /width x height/);
  });
});
