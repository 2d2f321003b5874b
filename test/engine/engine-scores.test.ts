// engine.scores on the sample world: the context scores read only what the requested keys need, walkability
// answers from the worker pool exactly as the in-process path would, and a subject in no held state gets
// not-integrated inputs (coverage says so) instead of another state's layers.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/runtime/engine.js';
import { useSampleEngine, type SandboxAddress } from '../helpers/sample-engine.js';

type Score = Record<string, any>;

let engine: Engine;
let sandbox: SandboxAddress[];

const opened = useSampleEngine(1);
beforeAll(() => {
  ({ engine, sandbox } = opened);
});

describe('engine.scores', () => {
  it('computes only the keys asked for', async () => {
    const s = sandbox[0];
    const r = await engine.scores(s.lng, s.lat, { only: ['contamination'] });
    expect(Object.keys(r.scores)).toEqual(['contamination']);
    expect(r.degraded).toEqual([]);
  });

  it('walkability from the pool, alone (the worker reads the DEM) or with the other scores (slope from the shared DEM read), is the same answer, names included', async () => {
    for (const s of sandbox) {
      const alone = (await engine.scores(s.lng, s.lat, { only: ['walkability'] })).scores.walkability as Score;
      const all = await engine.scores(s.lng, s.lat, { only: ['bushfire', 'heat_island', 'solar', 'walkability', 'view_quality', 'contamination', 'aircraft_noise'] });
      expect(all.degraded, s.address).toEqual([]);
      expect(JSON.stringify(all.scores.walkability), s.address).toBe(JSON.stringify(alone));
      expect(alone.coverage.regional_slope.status, s.address).toBe('answered');
      // The worker has no strings; the main thread names each nearest amenity, right after its index.
      for (const c of Object.values(alone.category_scores) as Score[]) {
        if (c.nearest_index === null) continue;
        expect(typeof c.nearest_id, s.address).toBe('string');
        const keys = Object.keys(c);
        expect(keys.indexOf('nearest_name')).toBe(keys.indexOf('nearest_index') + 1);
      }
    }
  }, 60_000);

  it('with no state (147.5, -30.5: outside every held LGA) walkability and bushfire say not integrated, never a confident zero', async () => {
    expect(engine.stateAt(147.5, -30.5)).toBeNull();
    const r = await engine.scores(147.5, -30.5, { only: ['walkability', 'bushfire'] });
    expect(r.state).toBeNull();
    expect(r.degraded).toEqual([]);
    const w = r.scores.walkability as Score;
    expect(w.score).toBeNull();
    expect(w.coverage.amenities.status).toBe('not_integrated');
    for (const set of w.coverage.amenities.sets) expect(set.reason).toMatch(/state could not be determined/);
    for (const check of ['motorway_check', 'major_water_check', 'crossing_points']) expect(w.coverage[check].status).toBe('not_integrated');
    expect(Object.values(w.category_scores).every((c) => (c as Score).score === null)).toBe(true);
    expect(w.scenarios.every((sc: Score) => sc.met === null)).toBe(true);
    const b = r.scores.bushfire as Score;
    expect(b.score).toBeNull();
    expect(b.official_zone_status).toBe('none');
    expect(b.coverage).toMatchObject({ official_overlay: 'not_integrated', vegetation_fuel: 'not_integrated', fire_history: 'not_integrated' });
  });
});
