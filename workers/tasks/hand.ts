/** Tasks `hand-point` (HAND at a subject on a buffered DEM window, cached per tile) and `hand-tile` (one stored HAND tile). */
import { handAtPoint, type HandPointInput, type HandPointResult } from '../../engine/hydro/hand-at-point.js';
import { computeHandTile, type HandTileInput, type HandTileResult } from '../../engine/hydro/hand-tile-store.js';

export function handPointTask(input: HandPointInput): Promise<HandPointResult> {
  return handAtPoint(input);
}

/** `hand-tile`: computes one HAND tile of a DEM and writes its file (engine/hydro/hand-tile-store.ts). */
export function handTileTask(input: HandTileInput): Promise<HandTileResult> {
  return computeHandTile(input);
}
