/** Task `hand-point`: HAND at a subject point, computed on a buffered DEM window in this worker (cached per tile). */
import { handAtPoint, type HandPointInput, type HandPointResult } from '../../engine/hydro/hand-at-point.js';

export function handPointTask(input: HandPointInput): Promise<HandPointResult> {
  return handAtPoint(input);
}
