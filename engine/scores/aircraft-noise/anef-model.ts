/** Aircraft noise's model: the ANEF contours of every held state. */
import type { DataStore, VectorLayer } from '../../data/dataset-store.js';
import { coverageByState, defineModel } from '../../score-kit/model-kind.js';
import { buildAnefLayer, type AnefCoverage, type AnefLayer } from './anef-contours.js';

const fileName = (l: { file: { path: string } }) => l.file.path;
const features = (layers: VectorLayer[]) => layers.flatMap((l) => l.features);

/** The ANEF contours of every held state. */
export function anefLayerFor(store: DataStore): AnefLayer {
  const layers = store.vectorsFor('scores.aircraft_noise');
  return buildAnefLayer({ features: features(layers), file: layers.map(fileName).join(', ') || 'none' }, coverageByState(store, 'scores.aircraft_noise') as Record<string, AnefCoverage>);
}

/** The contours (national: one for the dataset, kept). */
export const ANEF_CONTOURS = defineModel<AnefLayer>({
  name: 'aircraft_noise_contours',
  scope: 'national',
  whole: true,
  paths: ['scores.aircraft_noise'],
  build: (store) => anefLayerFor(store),
});
