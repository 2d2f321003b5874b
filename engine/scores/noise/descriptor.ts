/** `scores.noise`: road, rail and aircraft noise at the subject, from the state's noise network. */
import type { StateCode } from '../../catalogue/states.js';
import { EngineError } from '../../errors.js';
import type { NoiseNetwork } from '../../noise/noise-network.js';
import type { NoiseMethod } from '../../noise/noise-grid-task.js';
import { defineScore } from '../../score-kit/descriptor.js';
import { noiseScore } from './noise-score.js';

export const noise = defineScore<'noise', { noiseNetwork(state: StateCode): Promise<NoiseNetwork | null> }, { now?: Date; noiseMethod?: NoiseMethod }>({
  key: 'noise',
  exposure: true,
  summary: 'road, rail and aircraft noise (Lden) at the subject, by CoRTN or CNOSSOS-EU',
  paths: ['scores.noise.roads', 'scores.noise.sources', 'scores.noise.rail', 'scores.noise.validation', 'scores.aircraft_noise'],
  fromFiles: false,
  schema: { ref: 'NoiseScore' },
  score: async (run) => {
    const net = run.state ? await run.models.noiseNetwork(run.state) : null;
    if (!net) throw new EngineError('UNAVAILABLE', `no road network is held for ${run.state ?? 'an undetermined state'}`, { component: 'scores.noise' });
    return noiseScore(net, run.lon, run.lat, { state: run.state, now: run.options.now, method: run.options.noiseMethod });
  },
});
