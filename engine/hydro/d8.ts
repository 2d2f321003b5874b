/**
 * The D8 neighbourhood (O'Callaghan & Mark 1984): the eight neighbours of a cell and the direction codes
 * every hydro step shares.
 *
 * Codes run clockwise from east, 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE, so `1 << code` is the
 * ESRI / ArcGIS D8 code (1 E, 2 SE, 4 S, ..., 128 NE) for export. Rows grow southward (row 0 = north).
 */

/** Column step of each direction code. */
export const D8_DX: readonly number[] = [1, 1, 0, -1, -1, -1, 0, 1];
/** Row step of each direction code (+1 = one row south). */
export const D8_DY: readonly number[] = [0, 1, 1, 1, 0, -1, -1, -1];

/** The cell drains off the grid (an edge cell, or a cell next to no-data, with no lower neighbour inside). */
export const D8_OUTLET = 8;
/** An interior cell with no lower neighbour: only on surfaces that were not filled first. */
export const D8_PIT = 9;
/** No-data cell. */
export const D8_NODATA = 255;

/** Flat-index offsets of the eight neighbours in a grid `width` cells wide, in direction-code order. */
export function d8Offsets(width: number): Int32Array {
  const o = new Int32Array(8);
  for (let k = 0; k < 8; k++) o[k] = D8_DY[k] * width + D8_DX[k];
  return o;
}

/** Distance to each neighbour, in the units of `cellX` and `cellY` (metres for the hydro chain). */
export function d8Distances(cellX: number, cellY: number): Float64Array {
  const diag = Math.hypot(cellX, cellY);
  const d = new Float64Array(8);
  for (let k = 0; k < 8; k++) d[k] = D8_DX[k] === 0 ? cellY : D8_DY[k] === 0 ? cellX : diag;
  return d;
}
