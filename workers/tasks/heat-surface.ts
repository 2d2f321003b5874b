/** Task `heat-surface`: the heat land-cover surface of a subject's window, read through this worker's raster pool. */
import { createWindow } from '../../engine/geo/window.js';
import { sharedRaster } from '../../engine/raster/raster-pool.js';
import { readHeatSurface, type HeatSurface, type HeatSurfaceTaskInput } from '../../engine/surfaces/heat/heat-surface.js';

export async function heatSurfaceTask(input: HeatSurfaceTaskInput): Promise<HeatSurface> {
  return readHeatSurface(await sharedRaster(input.file), createWindow(input.lon, input.lat), input.source);
}
