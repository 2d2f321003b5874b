/** `scores.walkability`: walking access to amenities around the subject, with barriers and slope. */
import type { TaskRunner } from '../../pool/worker-pool.js';
import { defineScore } from '../../score-kit/descriptor.js';
import { labelWalkability } from './walkability-labels.js';
import { SHARED_WALKABILITY, WALKABILITY_INDEXES } from './walkability-model.js';
import { computeWalkability, SLOPE_RADIUS_M, walkSlopeFromDem, type WalkabilityScore } from './walkability-score.js';
import type { WalkabilityTaskInput } from './walkability-task-input.js';

/** Radius of the DEM read that also serves walkability's regional slope (its disc plus lattice margin), metres. */
export const WALK_DEM_RADIUS_M = SLOPE_RADIUS_M + 150 + 100;

/** What walkability needs of the engine beyond its models: a pool to run on (none: it computes here). */
export interface WalkabilityModels {
  pool?: TaskRunner<{ walkability: [WalkabilityTaskInput, WalkabilityScore] }>;
}

export const walkability = defineScore<'walkability', WalkabilityModels>({
  key: 'walkability',
  exposure: false,
  summary: 'walkability: amenities within walking distance, with barriers, crossings and slope',
  paths: ['scores.walkability.amenities', 'scores.walkability.crossings', 'scores.walkability.barriers', 'scores.walkability.water', 'scores.view_quality'],
  // Its regional slope comes from the DEM another score reads; asked alone, its worker reads the DEM itself.
  dem: { radiusM: WALK_DEM_RADIUS_M, shared: true },
  fromFiles: true,
  models: [WALKABILITY_INDEXES, SHARED_WALKABILITY],
  schema: { ref: 'WalkabilityScore' },
  score: async (run) => {
    const { lon, lat, models } = run;
    const includeGeometry = !!run.options.includeGeometry;
    const dem = await run.dem();
    if (!models.pool) return computeWalkability(run.model(WALKABILITY_INDEXES), lon, lat, { slope: walkSlopeFromDem(dem ?? null, lon, lat), includeGeometry });
    // On the pool (DESIGN.md: walkability bands run on the pool): the indexes travel as SharedArrayBuffers
    // (attached, not copied); the nearest amenities' names are added back here.
    const ix = run.model(WALKABILITY_INDEXES);
    const shared = run.model(SHARED_WALKABILITY);
    const slope = dem === undefined ? undefined : walkSlopeFromDem(dem, lon, lat);
    const demFile = slope === undefined ? run.rasterFile('scores.view_quality') : null;
    const input: WalkabilityTaskInput = demFile ? { indexes: shared, lon, lat, includeGeometry, dem: demFile } : { indexes: shared, lon, lat, includeGeometry, slope: slope ?? null };
    return labelWalkability(await models.pool.run('walkability', input, { signal: run.options.signal }), ix);
  },
});
