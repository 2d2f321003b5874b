/** `scores.heat_island`: land-surface temperature against its region, explained by the land cover around. */
import { defineScore } from '../../score-kit/descriptor.js';
import { heatIslandScore, REGIONAL_RADIUS_M } from './heat-island-score.js';

export const heatIsland = defineScore<'heat_island'>({
  key: 'heat_island',
  exposure: true,
  summary: 'urban heat: land-surface temperature against the region, with the land cover around',
  paths: ['scores.heat_island', 'surfaces.heat'],
  fromFiles: true,
  schema: { ref: 'HeatIslandScore' },
  score: async (run) => {
    const [lst, cover] = await Promise.all([run.raster('scores.heat_island', REGIONAL_RADIUS_M + 2000, { unit: 'degC' }), run.heatSurface()]);
    return heatIslandScore({ lon: run.lon, lat: run.lat, lst, landCover: cover && 'class_legend' in cover ? cover : null });
  },
});
