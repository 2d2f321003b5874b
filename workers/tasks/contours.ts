/** Task `contours`: the contours layer for one subject, its lines packed in typed arrays. */
import { computeContours, type ContoursRequest } from '../../engine/surfaces/contours/contours-surface.js';
import type { PackedContoursLayer } from '../../engine/surfaces/contours/contours-layer.js';

/** Runs {@link computeContours} in the worker; the packed lines are moved back to the caller. */
export function contoursTask(input: ContoursRequest): Promise<PackedContoursLayer> {
  return computeContours(input);
}
