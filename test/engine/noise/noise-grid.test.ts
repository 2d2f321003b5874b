import { afterAll, describe, expect, it } from 'vitest';
import { distanceMetres } from '../../../engine/geo/distance.js';
import { pixelToWorld } from '../../../engine/geo/geo-transform.js';
import { getTransformer } from '../../../engine/geo/crs.js';
import { buildNoiseNetwork } from '../../../engine/noise/noise-network.js';
import { noiseGridEnergy, noiseGridNodes, noiseGridSpec, noiseSurface, noiseSurfaceOnPool } from '../../../engine/noise/noise-grid.js';
import { noiseScore } from '../../../engine/scores/noise/noise-score.js';
import { createEnginePool } from '../../../engine/tasks/engine-pool.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { at, northSouth, road } from './noise-fixtures.js';
import { truthWorld } from './truth-world.js';

const [LON, LAT] = at(0, 0);
const north = buildNoiseNetwork({ roads: [road('n', [[-20_000, 900], [20_000, 900]], { aadt: 40_000 })] });
const west = buildNoiseNetwork({ roads: [northSouth('w', -900, 20_000, { aadt: 40_000 })] });

describe('surfaces.noise geometry', () => {
  for (const [cells, spacing] of [[5, 500], [7, 375], [9, 300]] as const) {
    it(`${cells} nodes per side at ${spacing} m, subject at the centre node`, () => {
      const s = noiseSurface(north, LON, LAT, { cells });
      expect(s).toMatchObject({ cells, spacing_m: spacing, width: cells, height: cells, subject: { row: (cells - 1) / 2, col: (cells - 1) / 2 } });
      expect(s.lden_db).toHaveLength(cells * cells);
      expect(s.score).toHaveLength(cells * cells);
      expect(s.node_paths).toHaveLength(cells * cells);
      const k = (cells - 1) / 2;
      const c = k * cells + k;
      expect([s.nodes.lng[c], s.nodes.lat[c]]).toEqual([Math.round(LON * 1e6) / 1e6, Math.round(LAT * 1e6) / 1e6]);
      // Neighbouring nodes are `spacing` metres apart on the ground (MGA scale factor within 0.1 %).
      for (let row = 0; row < cells; row++) {
        for (let col = 0; col + 1 < cells; col++) {
          const a = row * cells + col;
          expect(distanceMetres(s.nodes.lng[a], s.nodes.lat[a], s.nodes.lng[a + 1], s.nodes.lat[a + 1]) / spacing).toBeCloseTo(1, 2);
          expect(s.nodes.lng[a + 1]).toBeGreaterThan(s.nodes.lng[a]); // column 0 is the west edge
        }
      }
      for (let row = 0; row + 1 < cells; row++) expect(s.nodes.lat[row * cells]).toBeGreaterThan(s.nodes.lat[(row + 1) * cells]); // row 0 is north
      // The transform's cell centres are the nodes.
      const [x, y] = pixelToWorld(s.transform, k + 0.5, k + 0.5);
      const [sx, sy] = getTransformer('EPSG:4326', s.crs).forward(LON, LAT);
      expect(x).toBeCloseTo(sx, 6);
      expect(y).toBeCloseTo(sy, 6);
    });
  }

  it('rejects any other noise_cells with INVALID_ARGUMENT naming the parameter', async () => {
    for (const bad of [3, 6, 8, 11, '7', 7.5, 0]) {
      const e = await expectEngineError(() => noiseSurface(north, LON, LAT, { cells: bad }), 'INVALID_ARGUMENT', /noise_cells must be 5, 7 or 9/);
      expect(e.details.parameter).toBe('noise_cells');
    }
    expect(noiseGridSpec()).toEqual({ cells: 7, spacingM: 375 });
  });
});

describe('surfaces.noise orientation and values', () => {
  it('a road north of the subject makes row 0 louder', () => {
    const s = noiseSurface(north, LON, LAT, { cells: 7 });
    const row = (r: number) => s.lden_db.slice(r * 7, r * 7 + 7) as number[];
    for (let c = 0; c < 7; c++) expect(row(0)[c]).toBeGreaterThan(row(6)[c] + 10);
    // Symmetric about the north-south axis: column c equals column 6 - c.
    for (let c = 0; c < 7; c++) expect(row(3)[c]).toBeCloseTo(row(3)[6 - c], 1);
  });

  it('a road west of the subject makes column 0 louder', () => {
    const s = noiseSurface(west, LON, LAT, { cells: 9 });
    for (let r = 0; r < 9; r++) expect(s.lden_db[r * 9]!).toBeGreaterThan(s.lden_db[r * 9 + 8]! + 10);
  });

  it('the centre node agrees with the single-point score, and scores follow the levels', () => {
    const s = noiseSurface(west, LON, LAT, { cells: 5 });
    expect(s.lden_db[12]).toBe(noiseScore(west, LON, LAT).lden_db);
    const order = s.lden_db.map((l, i) => [l!, s.score[i]!]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < order.length; i++) expect(order[i][1]).toBeGreaterThanOrEqual(order[i - 1][1]);
    expect(s.model_path).toBe('physics');
    expect(s.node_paths.every((p) => p === 'physics')).toBe(true);
  });

  it('labels each node\'s path: transfer where a counter is in range, physics elsewhere, "mixed" overall', () => {
    const w = truthWorld();
    const net = buildNoiseNetwork({ roads: w.roads, counters: w.counters, loggers: w.loggers });
    const s = noiseSurface(net, LON, LAT, { cells: 7 });
    expect(s.model_path).toBe('mixed');
    expect(s.node_paths[24]).toBe('transfer'); // the subject sits on the counted crossroads
    expect(s.node_paths[0]).toBe('physics'); // the corner is 1,125 m from both roads: no counter within 1,000 m
    expect(s.model_path_note).toMatch(/use the transfer path/);
    const all = noiseSurface(net, LON, LAT, { cells: 7, counterRangeM: 3000 });
    expect(all.model_path).toBe('transfer');
  });
});

describe('the noise-grid worker task', () => {
  const pool = createEnginePool({ threads: 1 });
  afterAll(() => pool.destroy());

  it('computes the grid through a real pool on the shared scene, with transferred node buffers', async () => {
    const w = truthWorld();
    const net = buildNoiseNetwork({ roads: w.roads, counters: w.counters, loggers: w.loggers });
    const nodes = noiseGridNodes(net, LON, LAT, 9);
    const nodesX = nodes.x.slice(), nodesY = nodes.y.slice();
    const out = await pool.run('noise-grid', { scene: net.scene.toShared(), nodesX, nodesY }, { transfer: [nodesX.buffer, nodesY.buffer] });
    expect(nodesX.byteLength).toBe(0); // handed over, not copied
    expect(out.road).toBeInstanceOf(Float64Array);
    expect(out.other).toBeInstanceOf(Float64Array);
    const inProcess = noiseGridEnergy(net.scene, nodes.x, nodes.y);
    expect(Array.from(out.road)).toEqual(Array.from(inProcess.road));
    expect(Array.from(out.other)).toEqual(Array.from(inProcess.other));
    expect(out.segments).toBeGreaterThan(0);
    const onPool = await noiseSurfaceOnPool(pool, net, LON, LAT, { cells: 9 });
    expect(onPool).toEqual(noiseSurface(net, LON, LAT, { cells: 9 }));
  });

  it('returns bad input as an EngineError', async () => {
    await expectEngineError(() => pool.run('noise-grid', { scene: {} as never, nodesX: new Float64Array(1), nodesY: new Float64Array(1) }), 'INVALID_ARGUMENT', /shared noise scene/);
  });
});
