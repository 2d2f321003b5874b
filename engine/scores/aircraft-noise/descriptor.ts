/** `scores.aircraft_noise`: the ANEF contour the subject lies in. */
import { defineScore } from '../../score-kit/descriptor.js';
import type { AnefLayer } from './anef-contours.js';
import { aircraftNoiseScore } from './aircraft-noise-score.js';

export const aircraftNoise = defineScore<'aircraft_noise', { anefLayer(): AnefLayer }>({
  key: 'aircraft_noise',
  exposure: true,
  summary: 'aircraft noise: the ANEF contour at the subject and what AS 2021 says of it',
  paths: ['scores.aircraft_noise'],
  fromFiles: true,
  schema: { ref: 'AircraftNoiseScore' },
  score: (run) => aircraftNoiseScore(run.models.anefLayer(), { lon: run.lon, lat: run.lat, state: run.state }),
});
