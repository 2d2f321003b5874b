/** Task `noise-grid`: attaches to the shared noise scene and sums every segment's Lden energy at every node, road apart from rail and tram. */
import { invalidArgument } from '../../engine/errors.js';
import { NoiseScene } from '../../engine/noise/noise-scene.js';
import { noiseGridEnergy } from '../../engine/noise/noise-grid.js';
import type { NoiseGridInput, NoiseGridOutput } from '../../engine/noise/noise-grid-task.js';

/** Runs the grid kernel on the shared scene; bad input is an INVALID_ARGUMENT EngineError. */
export function noiseGridTask(input: NoiseGridInput): NoiseGridOutput {
  if (input?.scene?.kind !== 'noise-scene') throw invalidArgument('scene', 'noise-grid needs a shared noise scene');
  if (!(input.nodesX instanceof Float64Array) || !(input.nodesY instanceof Float64Array) || input.nodesX.length !== input.nodesY.length) {
    throw invalidArgument('nodes', 'noise-grid needs Float64Array nodesX and nodesY of equal length');
  }
  const scene = NoiseScene.fromShared(input.scene);
  const { road, other, transfer, segments } = noiseGridEnergy(scene, input.nodesX, input.nodesY, input.method, input.transfer ?? true);
  return { road, other, segments: segments ?? 0, ...(transfer ? { transfer } : {}) };
}
