/** `scores.solar`: irradiance and PV yield at the subject. */
import { defineScore } from '../../score-kit/descriptor.js';
import { solarScore } from './solar-score.js';

export const solar = defineScore<'solar'>({
  key: 'solar',
  exposure: false,
  summary: 'solar resource: global and direct irradiance, PV output and optimum tilt',
  paths: ['scores.solar'],
  fromFiles: true,
  schema: { ref: 'SolarScore' },
  score: async (run) => {
    const [ghi, dni, pvout, optimumTilt] = await Promise.all([
      run.raster('scores.solar', 1000, { layer: 'ghi' }),
      run.raster('scores.solar', 1000, { layer: 'dni' }),
      run.raster('scores.solar', 3000, { layer: 'pvout' }),
      run.raster('scores.solar', 10_000, { layer: 'tilt' }),
    ]);
    return solarScore({ lon: run.lon, lat: run.lat, ghi, dni, pvout, optimumTilt });
  },
});
