/** Task `terrain-tile`: a terrain tile made whole: its pixel heights from its DEMs, the gaps filled, encoded as a Terrarium PNG. */
import { sampleRastersAt } from '../../engine/raster/sample-points.js';
import { fillHeights } from '../../engine/tiles/terrain-fill.js';
import { encodeTerrarium, terrainPixels } from '../../engine/tiles/terrain-tiles.js';
import type { TerrainTileInput } from '../../engine/tasks/task-map.js';

export async function terrainTileTask(input: TerrainTileInput): Promise<Uint8Array> {
  const { lon, lat } = terrainPixels(input.tile);
  const heights = await sampleRastersAt(input.dems, lon, lat);
  await fillHeights(heights, lon, lat, input.dems);
  // The PNG's deflate (about 16 ms for a tile all of DEM) is done here too, off the server's event loop.
  return encodeTerrarium(heights);
}
