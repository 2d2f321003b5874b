/** `scores.aircraft_noise`: the ANEF contour the subject lies in. */
import { defineScore } from '../../score-kit/descriptor.js';
import { ANEF_CONTOURS } from './anef-model.js';
import { aircraftNoiseScore } from './aircraft-noise-score.js';

export const aircraftNoise = defineScore<'aircraft_noise'>({
  key: 'aircraft_noise',
  exposure: true,
  summary: 'aircraft noise: the ANEF contour at the subject and what AS 2021 says of it',
  paths: ['scores.aircraft_noise'],
  fromFiles: true,
  models: [ANEF_CONTOURS],
  schema: { ref: 'AircraftNoiseScore' },
  score: (run) => aircraftNoiseScore(run.model(ANEF_CONTOURS), { lon: run.lon, lat: run.lat, state: run.state }),
});
