import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEnginePool } from '../../../../engine/tasks/engine-pool.js';
import { writeGeoTiff } from '../../../../engine/raster/geotiff-writer.js';
import { shareWalkabilityIndexes } from '../../../../engine/scores/walkability/walkability-layers.js';
import { computeWalkability, walkSlopeFromDem } from '../../../../engine/scores/walkability/walkability-score.js';
import { tempDir } from '../../../helpers/tmp.js';
import { analyticDem } from '../../../helpers/analytic-dem.js';
import { at, indexes, LAT, line, LON } from './walk-fixtures.js';

const pool = createEnginePool({ threads: 1 });
afterAll(() => pool.destroy());
const dir = tempDir();

describe('the walkability worker task', () => {
  const pts = [at('grocery', 600), at('cafe_restaurant', 250, 10, { crowd: true }), at('public_transport', 150, 200), at('park', 900, 300)];
  const ix = indexes(pts, { motorways: { geometries: [line([300, 2000], [300, -2000])], source: 'sample_roads' } });

  it('answers through a real pool over shared indexes exactly as in process', async () => {
    const shared = shareWalkabilityIndexes(ix);
    expect(shared.amenities.index).toBeInstanceOf(SharedArrayBuffer);
    const out = await pool.run('walkability', { indexes: shared, lon: LON, lat: LAT, includeGeometry: true });
    const local = computeWalkability(ix, LON, LAT, { includeGeometry: true });
    // The worker has no labels (strings stay on the main thread); everything else is identical.
    const strip = (r: typeof local) => ({ ...r, category_scores: Object.fromEntries(Object.entries(r.category_scores).map(([k, v]) => [k, { ...v, nearest_name: undefined, nearest_id: undefined }])) });
    expect(strip(out)).toEqual(strip(local));
    expect(out.category_scores.grocery.score).toBe(45); // the motorway penalty applies in the worker too
    expect(out.delivery_contract.cacheable).toBe(true);
  });

  it('reads the DEM window itself for the regional slope, and degrades (not fails) on a missing DEM', async () => {
    const dem = analyticDem((e, n) => 0.06 * e + 0.08 * n, { lon: LON, lat: LAT, halfWidth: 1500, cell: 20 });
    const file = join(dir, 'dem.tif');
    await writeGeoTiff(file, dem);
    const out = await pool.run('walkability', { indexes: shareWalkabilityIndexes(ix), lon: LON, lat: LAT, dem: { file, source: 'sample_dem' } });
    const slope = walkSlopeFromDem({ grid: dem, source: 'sample_dem' }, LON, LAT)!;
    expect(out.adjustments.regional_gradient).toBeCloseTo(0.1, 4); // |(0.06, 0.08)| = 0.1
    const local = computeWalkability(ix, LON, LAT, { slope });
    expect(out.score).toBe(local.score);
    expect(out.scenarios).toEqual(local.scenarios);
    expect(out.adjustments).toEqual(local.adjustments);
    expect(out.coverage.regional_slope.status).toBe('answered');

    const missing = await pool.run('walkability', { indexes: shareWalkabilityIndexes(ix), lon: LON, lat: LAT, dem: { file: join(dir, 'nope.tif'), source: 'sample_dem' } });
    expect(missing.coverage.regional_slope).toMatchObject({ status: 'degraded' });
    expect(missing.coverage.regional_slope.reason).toMatch(/nope.tif/);
    expect(missing.delivery_contract.cacheable).toBe(false);
    expect(missing.score).toBe(computeWalkability(ix, LON, LAT).score);
  });
});
