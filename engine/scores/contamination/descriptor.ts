/** `scores.contamination`: registered contaminated sites near the subject. */
import { defineScore } from '../../score-kit/descriptor.js';
import type { ContaminationRegister } from './contamination-register.js';
import { contaminationScore } from './contamination-score.js';

export const contamination = defineScore<'contamination', { contaminationRegister(): ContaminationRegister }>({
  key: 'contamination',
  exposure: true,
  summary: 'land contamination: registered sites near the subject',
  paths: ['scores.contamination'],
  fromFiles: true,
  schema: { ref: 'ContaminationScore' },
  score: (run) => contaminationScore(run.models.contaminationRegister(), { lon: run.lon, lat: run.lat, state: run.state }),
});
