/** Task `noise-grid`: attaches to the shared noise scene and sums every segment's Lden energy at every node, road apart from rail and tram. */
import { invalidArgument } from '../../engine/errors.js';
import { NoiseScene } from '../../engine/noise/noise-scene.js';
import { gridLdenEnergy } from '../../engine/noise/propagation.js';
import { cnossosGridEnergy, sceneCnossosTable } from '../../engine/noise/cnossos-grid.js';
import type { NoiseGridInput, NoiseGridOutput } from '../../engine/noise/noise-grid-task.js';

/** Runs the grid kernel on the shared scene; bad input is an INVALID_ARGUMENT EngineError. */
export function noiseGridTask(input: NoiseGridInput): NoiseGridOutput {
  if (input?.scene?.kind !== 'noise-scene') throw invalidArgument('scene', 'noise-grid needs a shared noise scene');
  if (!(input.nodesX instanceof Float64Array) || !(input.nodesY instanceof Float64Array) || input.nodesX.length !== input.nodesY.length) {
    throw invalidArgument('nodes', 'noise-grid needs Float64Array nodesX and nodesY of equal length');
  }
  const scene = NoiseScene.fromShared(input.scene);
  const road = new Float64Array(input.nodesX.length);
  const other = new Float64Array(input.nodesX.length);
  const { segments } = gridLdenEnergy(scene, input.nodesX, input.nodesY, road, other);
  if (input.method !== 'cnossos') return { road, other, segments };
  const cRoad = new Float64Array(input.nodesX.length), cOther = new Float64Array(input.nodesX.length);
  cnossosGridEnergy(scene, input.nodesX, input.nodesY, cRoad, cOther, sceneCnossosTable(scene));
  return { road: cRoad, other: cOther, segments, transfer: { road, other } };
}
