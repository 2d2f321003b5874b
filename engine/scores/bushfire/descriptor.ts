/** `scores.bushfire`: official overlays, vegetation, fire history and slope around the subject (AS 3959 Method 1). */
import { defineScore } from '../../score-kit/descriptor.js';
import type { TableFdi } from './as3959-method1.js';
import type { BushfireLayers } from './bushfire-layers.js';
import { bushfireScore, type SubjectIdentity } from './bushfire-score.js';

/**
 * Radius of the DEM read when bushfire is the widest user, metres: its terrain slope lattice (250 m at 25 m
 * spacing, one node of margin) and the effective-slope profiles (at most 120 m out), plus margin.
 */
export const BUSHFIRE_DEM_RADIUS_M = 250 + 2 * 25 + 100;

export const bushfire = defineScore<'bushfire', { bushfireLayers(state: string | null): BushfireLayers }, { identity?: SubjectIdentity; fdi?: TableFdi }>({
  key: 'bushfire',
  exposure: true,
  summary: 'bushfire exposure from official overlays, vegetation, fire history and slope (indicative BAL)',
  paths: ['scores.bushfire.vegetation', 'scores.bushfire.fire_history', 'hazards.bushfire', 'scores.view_quality'],
  dem: { radiusM: BUSHFIRE_DEM_RADIUS_M },
  fromFiles: true,
  schema: { ref: 'BushfireScore' },
  score: async (run) => bushfireScore(run.models.bushfireLayers(run.state), { lon: run.lon, lat: run.lat, state: run.state, identity: run.options.identity }, { dem: (await run.dem()) ?? null, fdi: run.options.fdi }),
});
