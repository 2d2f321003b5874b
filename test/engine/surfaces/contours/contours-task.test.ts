import { afterAll, describe, expect, it } from 'vitest';
import { createEnginePool } from '../../../../engine/tasks/engine-pool.js';
import { unpackContours } from '../../../../engine/surfaces/contours/contours-layer.js';
import { computeContours, contoursSurface, type ContoursRequest } from '../../../../engine/surfaces/contours/contours-surface.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';
import { tempDir } from '../../../helpers/tmp.js';
import { SUBJECT, writeDem } from './dem-fixtures.js';

const pool = createEnginePool({ threads: 1 });
afterAll(() => pool.destroy());
const dir = tempDir('propintel-contours-task-');

describe('the contours worker task', () => {
  it('returns through a real pool exactly what the engine computes in process, lines as typed arrays', async () => {
    const { source } = await writeDem(dir, 'task', (dx, dy) => 200 - Math.hypot(dx + 200, dy - 100) / 12);
    const request: ContoursRequest = { ...SUBJECT, state: 'NSW', sources: { dem: source }, interval: 5 };
    const remote = await pool.run('contours', request);
    const local = await computeContours(request);
    expect(remote.available).toBe(true);
    if (!remote.available) return;
    expect(remote.lines.xy).toBeInstanceOf(Float64Array);
    expect(remote.lines.xy.length).toBeGreaterThan(1000);
    expect(remote).toEqual(local);
    expect(unpackContours(remote)).toEqual(await contoursSurface(request));
  });

  it('brings a bad interval back as the engine error naming contour_interval_m', async () => {
    const e = await expectEngineError(() => pool.run('contours', { ...SUBJECT, sources: {}, interval: 500 }), 'INVALID_ARGUMENT', /contour_interval_m/);
    expect(e.details.parameter).toBe('contour_interval_m');
  });
});
