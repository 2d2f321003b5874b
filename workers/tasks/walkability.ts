/**
 * Task `walkability`: `scores.walkability` for one subject. Attaches the indexes the main thread built over
 * SharedArrayBuffers (Flatbush.from: no copy, no rebuild), reads the DEM window itself when asked, and runs
 * the same function the in-process path runs.
 */
import type { WalkabilityTaskInput } from '../../engine/scores/walkability/walkability-task-input.js';
import type { RasterSource } from '../../engine/raster/geotiff-reader.js';
import { sharedRaster } from '../../engine/raster/raster-pool.js';
import { attachWalkabilityIndexes } from '../../engine/scores/walkability/walkability-layers.js';
import { computeWalkability, type WalkabilityScore } from '../../engine/scores/walkability/walkability-score.js';
import { readWalkSlope } from '../../engine/scores/walkability/walk-slope-reader.js';

/** Open DEMs by file, kept for the worker's lifetime so repeated subjects skip the header parse. */
const dems = new Map<string, Promise<RasterSource>>();

export async function walkabilityTask(input: WalkabilityTaskInput): Promise<WalkabilityScore> {
  const ix = attachWalkabilityIndexes(input.indexes);
  let slope = input.slope;
  if (slope === undefined && input.dem) {
    const { file, source } = input.dem;
    let open = dems.get(file);
    if (!open) {
      open = sharedRaster(file);
      dems.set(file, open);
      open.catch(() => dems.delete(file)); // a failed open is retried on the next task
    }
    try {
      slope = await readWalkSlope(await open, source, input.lon, input.lat);
    } catch (err) {
      slope = { status: 'unavailable', reason: (err as Error)?.message ?? String(err) };
    }
  }
  return computeWalkability(ix, input.lon, input.lat, { slope, includeGeometry: input.includeGeometry });
}
