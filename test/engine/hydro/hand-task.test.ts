import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../engine/errors.js';
import { getTransformer } from '../../../engine/geo/crs.js';
import { createEnginePool } from '../../../engine/tasks/engine-pool.js';
import { writeGeoTiff } from '../../../engine/raster/geotiff-writer.js';
import { cellCentre } from '../../../engine/raster/grid.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { tempDir } from '../../helpers/tmp.js';
import { gridFrom } from './helpers.js';

const dir = tempDir('propintel-hand-task-');
const pool = createEnginePool({ threads: 1, taskTimeoutMs: 20_000 });
afterAll(() => pool.destroy());

// The valley of hand-at-point.test.ts: HAND = 0.2 * |col - 40| * 5 m.
const valley = gridFrom(81, 200, (x, y) => 50 + 0.2 * Math.abs(x - 40) * 5 + 0.02 * (199 - y) * 5);
const file = join(dir, 'valley.tif');
await writeGeoTiff(file, valley);
const [lon, lat] = getTransformer('EPSG:7855', 'EPSG:4326').forward(...cellCentre(valley, 37, 150));

describe('the hand-point worker task', () => {
  it('runs the chain in a worker and returns HAND, the drainage and the window grid', async () => {
    const r = await pool.run('hand-point', { dem: file, lon, lat, halfWidth: 100, snap: 0, thresholdKm2: 0.003, includeGrid: true });
    expect(r.hand_m).toBeCloseTo(0.2 * 3 * 5, 2); // three cells east of the thalweg: 3 m
    expect(r.drainage!.compass).toBe('E');
    expect(r.grid!.data).toBeInstanceOf(Float32Array);
    expect(r.grid!.width * r.grid!.height).toBe(r.grid!.data.length);
    const again = await pool.run('hand-point', { dem: file, lon, lat, halfWidth: 100, snap: 0, thresholdKm2: 0.003 });
    expect(again.cached).toBe(true); // the worker kept the tile
  });

  it('surfaces a failing task as an EngineError with its code, for the caller to degrade on', async () => {
    const e = await expectEngineError(() => pool.run('hand-point', { dem: join(dir, 'nope.tif'), lon, lat }), 'NOT_FOUND', /nope\.tif/);
    expect(e).toBeInstanceOf(EngineError);
    expect(e.details.task).toBe('hand-point');
    await expectEngineError(() => pool.run('hand-point', { dem: file, lon: 400, lat }), 'INVALID_ARGUMENT', /lng/);
  });
});
