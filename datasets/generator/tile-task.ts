/** The generator's worker module: one task, generating one tile. */
import { defineWorker } from '../../engine/pool/define-worker.js';
import { generateTile, type GeneratorTasks } from './generate.js';

export default defineWorker<GeneratorTasks>({
  'sample-world-tile': ({ id, seed, out, sub }) => generateTile(id, seed, out, sub),
});
