/**
 * Web Mercator tile arithmetic (the XYZ scheme of OSM, Mapbox Vector Tiles and TileJSON): the lon/lat bounds
 * of tile z/x/y, and the tile coordinates (0..extent) of a lon/lat point inside a tile.
 */

/** The latitude limit of Web Mercator tiles (atan(sinh(pi)) in degrees). */
export const MAX_LAT = 85.0511287798066;

/** A tile address. */
export interface TileId {
  z: number;
  x: number;
  y: number;
}

/** Longitude of the west edge of column `x` at zoom `z`. */
export function tileLon(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/** Latitude of the north edge of row `y` at zoom `z`. */
export function tileLat(y: number, z: number): number {
  const n = Math.PI - (2 * Math.PI * y) / 2 ** z;
  return (180 / Math.PI) * Math.atan(Math.sinh(n));
}

/** The tile's lon/lat box `[west, south, east, north]`. */
export function tileBounds({ z, x, y }: TileId): [number, number, number, number] {
  return [tileLon(x, z), tileLat(y + 1, z), tileLon(x + 1, z), tileLat(y, z)];
}

/** The box grown by `fraction` of its size on every side (a tile's buffer). */
export function growBox(b: readonly [number, number, number, number], fraction: number): [number, number, number, number] {
  const dx = (b[2] - b[0]) * fraction, dy = (b[3] - b[1]) * fraction;
  return [b[0] - dx, b[1] - dy, b[2] + dx, b[3] + dy];
}

/** Whether z/x/y names a tile: whole numbers, x and y inside the zoom's grid. */
export function isTile({ z, x, y }: TileId): boolean {
  return Number.isInteger(z) && Number.isInteger(x) && Number.isInteger(y) && z >= 0 && z <= 30 && x >= 0 && y >= 0 && x < 2 ** z && y < 2 ** z;
}

/** The tile at zoom `z` holding lon/lat. */
export function tileAt(lon: number, lat: number, z: number): TileId {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const s = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  return { z, x: Math.min(n - 1, Math.max(0, x)), y: Math.min(n - 1, Math.max(0, y)) };
}

/** Tile coordinates (0..extent, y down) of lon/lat in tile z/x/y, unrounded. */
export function toTileCoords(lon: number, lat: number, t: TileId, extent = 4096): [number, number] {
  const n = 2 ** t.z;
  const s = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  const wx = ((lon + 180) / 360) * n, wy = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n;
  return [(wx - t.x) * extent, (wy - t.y) * extent];
}
