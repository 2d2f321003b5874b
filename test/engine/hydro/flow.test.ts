import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { northUpTransform } from '../../../engine/geo/geo-transform.js';
import { upstreamCatchment } from '../../../engine/hydro/catchment.js';
import { metricCellSize } from '../../../engine/hydro/cell-size.js';
import { D8_NODATA, D8_OUTLET, D8_PIT, d8Offsets } from '../../../engine/hydro/d8.js';
import { flowAccumulation } from '../../../engine/hydro/flow-accumulation.js';
import { d8FlowDirections } from '../../../engine/hydro/flow-direction.js';
import { fillDepressions } from '../../../engine/hydro/priority-flood.js';
import { syntheticTerrain } from '../../../engine/hydro/synthetic-terrain.js';
import type { Grid } from '../../../engine/raster/grid.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { gridFrom, gridOf } from './helpers.js';

/** Accumulation the slow way: walk every cell's path to its end and count each cell passed. */
function referenceAccumulation(dirs: Grid<Uint8Array>): Uint32Array {
  const { width: w, data } = dirs;
  const off = d8Offsets(w);
  const acc = new Uint32Array(data.length);
  for (let i = 0; i < data.length; i++) {
    if (data[i] === D8_NODATA) continue;
    for (let j = i, steps = 0; ; steps++) {
      if (steps > data.length) throw new Error(`path from ${i} does not end`);
      acc[j]++;
      if (data[j] >= 8) break;
      j += off[data[j]];
    }
  }
  return acc;
}

describe('D8 flow directions', () => {
  it('drains a plane tilted south straight south; the southern edge is the outlet', () => {
    const w = 7, h = 6;
    const dirs = d8FlowDirections(gridFrom(w, h, (_x, y) => 100 - 0.1 * y));
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(dirs.data[y * w + x]).toBe(y < h - 1 ? 2 : D8_OUTLET);
  });

  it('prefers the diagonal when it is steeper per metre (drop / (cell * sqrt 2))', () => {
    // z = -(x + y): E and S drop 1 per 5 m (0.2), SE drops 2 per 7.07 m (0.283).
    const dirs = d8FlowDirections(gridFrom(5, 5, (x, y) => 50 - x - y));
    expect(dirs.data[2 * 5 + 2]).toBe(1);
    // The last row has no SE neighbour: E is the steepest descent there (W and N rise).
    expect(dirs.data[4 * 5 + 1]).toBe(0);
    expect(dirs.data[4 * 5 + 4]).toBe(D8_OUTLET);
  });

  it('marks an unfilled interior minimum as a pit and no-data as no-data', () => {
    const dirs = d8FlowDirections(gridOf([[5, 5, 5, 5, 5], [5, 1, 5, 5, 5], [5, 5, 5, 5, 5], [5, 5, 5, NaN, 5], [5, 5, 5, 5, 5]]));
    expect(dirs.data[6]).toBe(D8_PIT);
    expect(dirs.data[18]).toBe(D8_NODATA);
    // An interior cell next to no-data with no lower neighbour drains into the hole: an outlet, not a pit.
    expect(dirs.data[17]).toBe(D8_OUTLET);
  });

  it('measures slopes in metres on a geographic grid (1 arc-second cells are narrower east-west)', () => {
    // At 37 S one arc-second is about 24.7 m east-west and 30.8 m north-south. A drop of 1 m to the east
    // (1/24.7) beats 1.2 m to the south (1.2/30.8) only when distances are in metres.
    const s = 1 / 3600;
    const g: Grid<Float32Array> = { width: 3, height: 3, data: Float32Array.from([10, 10, 10, 10, 10, 9, 10, 8.8, 10]), noData: NaN, transform: northUpTransform(145, -37 + s, s), crs: 'EPSG:4326' };
    const size = metricCellSize(g);
    expect(size.x).toBeCloseTo(24.7, 0);
    expect(size.y).toBeCloseTo(30.8, 0);
    expect(d8FlowDirections(g).data[4]).toBe(0);
  });
});

describe('flow accumulation', () => {
  it('equals the count of upslope cells on a tilted plane (row + 1, the cell itself included)', () => {
    const w = 9, h = 12;
    const { accumulation, order } = flowAccumulation(d8FlowDirections(gridFrom(w, h, (_x, y) => 100 - 0.1 * y)));
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(accumulation.data[y * w + x]).toBe(y + 1);
    expect(order.length).toBe(w * h);
  });

  it('equals the count of upslope cells on a diagonal plane (min(row, col) + 1 off the last row)', () => {
    const n = 10;
    const { accumulation } = flowAccumulation(d8FlowDirections(gridFrom(n, n, (x, y) => 50 - x - y)));
    for (let y = 0; y < n - 1; y++) for (let x = 0; x < n - 1; x++) expect(accumulation.data[y * n + x]).toBe(Math.min(x, y) + 1);
  });

  it('matches path walking on filled random terrain, and its order puts every cell after its donors', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 2, max: 30 }), fc.integer({ min: 2, max: 30 }), (seed, w, h) => {
        const dem = syntheticTerrain(w, h, { seed, wavelength: 100, amplitude: 3, cellNoise: 0.3 });
        const dirs = d8FlowDirections(fillDepressions(dem).filled);
        const { accumulation, order } = flowAccumulation(dirs);
        expect(Array.from(accumulation.data)).toEqual(Array.from(referenceAccumulation(dirs)));
        const pos = new Int32Array(w * h);
        order.forEach((c, k) => (pos[c] = k));
        const off = d8Offsets(w);
        let inversions = 0;
        for (let i = 0; i < w * h; i++) if (dirs.data[i] < 8 && pos[i + off[dirs.data[i]]] < pos[i]) inversions++;
        expect(inversions).toBe(0);
        // Filled with epsilon, nothing is a pit: every path ends at an outlet.
        expect(dirs.data.includes(D8_PIT)).toBe(false);
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it('rejects directions that cycle, leave the grid or enter no-data', async () => {
    const base = gridOf([[1, 1], [1, 1]]);
    const dirs = (codes: number[]): Grid<Uint8Array> => ({ ...base, data: Uint8Array.from(codes), noData: D8_NODATA });
    // 0 -> E -> 1 -> W -> 0
    await expectEngineError(() => flowAccumulation(dirs([0, 4, D8_OUTLET, D8_OUTLET])), 'INVALID_ARGUMENT', /cycle/);
    await expectEngineError(() => flowAccumulation(dirs([6, D8_OUTLET, D8_OUTLET, D8_OUTLET])), 'INVALID_ARGUMENT', /off the grid/);
    await expectEngineError(() => flowAccumulation(dirs([0, D8_NODATA, D8_OUTLET, D8_OUTLET])), 'INVALID_ARGUMENT', /no-data/);
  });
});

describe('upstream catchment', () => {
  it('counts what accumulation counts, and knows whether it reaches the edge', () => {
    const dem = syntheticTerrain(60, 50, { seed: 9, wavelength: 150, amplitude: 4 });
    const dirs = d8FlowDirections(fillDepressions(dem).filled);
    const { accumulation } = flowAccumulation(dirs);
    for (let i = 0; i < 3000; i += 37) expect(upstreamCatchment(dirs, i).cells).toBe(accumulation.data[i]);
    // On the south-tilted plane a column's catchment runs up to the northern edge; a one-cell catchment
    // of an interior ridge cell does not.
    const plane = d8FlowDirections(gridFrom(9, 12, (_x, y) => 100 - 0.1 * y));
    expect(upstreamCatchment(plane, 6 * 9 + 4)).toEqual({ cells: 7, reachesEdge: true });
    const cone = d8FlowDirections(gridFrom(9, 9, (x, y) => 10 - Math.hypot(x - 4, y - 4)));
    expect(upstreamCatchment(cone, 4 * 9 + 4)).toEqual({ cells: 1, reachesEdge: false });
  });
});
