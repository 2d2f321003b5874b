/** `scores.view_quality`: terrain openness around the subject, from the DEM. */
import { defineScore } from '../../score-kit/descriptor.js';
import { viewQualityScore } from './view-quality-score.js';

/**
 * Radius of the DEM read for view quality, metres: its 1,500 m openness radius plus a margin of cells for
 * interpolation (the read is the lon/lat box of the disc, so the grid's corners reach further still).
 */
export const VIEW_DEM_RADIUS_M = 1500 + 200;

export const viewQuality = defineScore<'view_quality'>({
  key: 'view_quality',
  exposure: false,
  summary: 'view quality: how open the terrain around the subject is',
  // The DEM the context scores read once (view quality, and the slope of bushfire and walkability).
  paths: ['scores.view_quality'],
  dem: { radiusM: VIEW_DEM_RADIUS_M },
  fromFiles: true,
  schema: { ref: 'ViewQualityScore' },
  score: async (run) => viewQualityScore({ lon: run.lon, lat: run.lat, dem: (await run.dem()) ?? null }),
});
