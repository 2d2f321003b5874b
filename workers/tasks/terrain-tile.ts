/** Task `terrain-tile`: a terrain tile's pixel heights from its DEMs (engine/tiles/terrain-tiles.ts encodes them). */
import { sampleRastersAt } from '../../engine/raster/sample-points.js';
import { terrainPixels } from '../../engine/tiles/terrain-tiles.js';
import type { TerrainTileInput } from '../../engine/tasks/task-map.js';

export async function terrainTileTask(input: TerrainTileInput): Promise<Float32Array> {
  const { lon, lat } = terrainPixels(input.tile);
  return sampleRastersAt(input.dems, lon, lat);
}
