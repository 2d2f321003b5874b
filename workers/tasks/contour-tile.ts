/** Task `contour-tile`: one contour tile traced, clipped and encoded in the worker (engine/tiles/contour-tiles.ts). */
export { contourTile as contourTileTask } from '../../engine/tiles/contour-tiles.js';
