/** `scores.contamination`: registered contaminated sites near the subject. */
import { defineScore } from '../../score-kit/descriptor.js';
import { CONTAMINATION_REGISTER } from './contamination-model.js';
import { contaminationScore } from './contamination-score.js';

export const contamination = defineScore<'contamination'>({
  key: 'contamination',
  exposure: true,
  summary: 'land contamination: registered sites near the subject',
  paths: ['scores.contamination'],
  fromFiles: true,
  models: [CONTAMINATION_REGISTER],
  schema: { ref: 'ContaminationScore' },
  score: (run) => contaminationScore(run.model(CONTAMINATION_REGISTER), { lon: run.lon, lat: run.lat, state: run.state }),
});
