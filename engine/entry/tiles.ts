/**
 * `propintel/tiles`: the vector-tile layers (their TileJSON specs), tile arithmetic, the MBTiles export,
 * and the empty terrain tile. The tiles themselves come from `Engine.tile` and `Engine.terrainTile`.
 */

export { CONTOUR_LAYER } from '../tiles/contour-tiles.js';
export { HAND_LAYER } from '../tiles/hand-map-tiles.js';
export { checkExport, exportMbtiles } from '../tiles/mbtiles.js';
export { NOISE_LAYER } from '../tiles/noise-tiles.js';
export { emptyTerrainTile } from '../tiles/terrain-tiles.js';
export { tileAt, tileBounds } from '../tiles/tile-math.js';
export type { TileId } from '../tiles/tile-math.js';
export { VECTOR_TILE_LAYERS } from '../tiles/vector-tiles.js';
