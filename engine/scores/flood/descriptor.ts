/** `scores.flood`: HAND, water and flood-study evidence at the subject; its overlay hits feed `hazards.flood`. */
import type { StateCode } from '../../catalogue/states.js';
import { EngineError } from '../../errors.js';
import type { HandTileStore } from '../../hydro/hand-tile-store.js';
import { defineScore } from '../../score-kit/descriptor.js';
import { assessFlood, type AssessFloodOptions, type FloodInput } from './assess-flood.js';

/** What the flood score needs of the engine: its inputs from the dataset, a pool for HAND, stored HAND tiles. */
export interface FloodModels {
  floodInput(state: StateCode, lon: number, lat: number, includeGeometry: boolean): FloodInput;
  pool?: AssessFloodOptions['pool'];
  handTiles?: HandTileStore;
}

export const flood = defineScore<'flood', FloodModels>({
  key: 'flood',
  exposure: true,
  summary: 'flood exposure from height above drainage (HAND), distance to water and flood studies',
  paths: ['scores.flood.terrain', 'scores.flood.water', 'scores.flood.rainfall', 'scores.flood.study_depth', 'scores.flood.hazard_class', 'hazards.flood'],
  fromFiles: false,
  schema: { ref: 'FloodScore' },
  score: async (run) => {
    if (!run.state) throw new EngineError('UNAVAILABLE', 'the flood score needs the subject\'s state', { component: 'scores.flood' });
    const input = run.models.floodInput(run.state, run.lon, run.lat, !!run.options.includeGeometry);
    const r = await assessFlood(input, { pool: run.models.pool, signal: run.options.signal, handTiles: run.models.handTiles });
    run.aside.floodHazards = r.hazards;
    return r.score;
  },
});
