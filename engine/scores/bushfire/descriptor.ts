/** `scores.bushfire`: official overlays, vegetation, fire history and slope around the subject (AS 3959 Method 1). */
import { defineScore, type NoNeeds } from '../../score-kit/descriptor.js';
import type { TableFdi } from './as3959-method1.js';
import { BUSHFIRE_LAYERS } from './bushfire-model.js';
import { bushfireScore, type SubjectIdentity } from './bushfire-score.js';

/**
 * Radius of the DEM read when bushfire is the widest user, metres: its terrain slope lattice (250 m at 25 m
 * spacing, one node of margin) and the effective-slope profiles (at most 120 m out), plus margin.
 */
export const BUSHFIRE_DEM_RADIUS_M = 250 + 2 * 25 + 100;

export const bushfire = defineScore<'bushfire', NoNeeds, { identity?: SubjectIdentity; fdi?: TableFdi }>({
  key: 'bushfire',
  exposure: true,
  summary: 'bushfire exposure from official overlays, vegetation, fire history and slope (indicative BAL)',
  paths: ['scores.bushfire.vegetation', 'scores.bushfire.fire_history', 'hazards.bushfire', 'scores.view_quality'],
  dem: { radiusM: BUSHFIRE_DEM_RADIUS_M },
  fromFiles: true,
  models: [BUSHFIRE_LAYERS],
  schema: { ref: 'BushfireScore' },
  score: async (run) => bushfireScore(run.model(BUSHFIRE_LAYERS), { lon: run.lon, lat: run.lat, state: run.state, identity: run.options.identity }, { dem: (await run.dem()) ?? null, fdi: run.options.fdi }),
});
