/**
 * Terrain tiles (issue 36): the catalogue's DEMs as raster-dem tiles MapLibre draws hillshade and 3D terrain
 * from (and maplibre-contour its contours), 256 x 256 pixels of Web Mercator, Terrarium-encoded PNG: height in
 * metres = (R * 256 + G + B / 256) - 32768, so 1/256 m steps from -32768 to 32767 m (Mapzen's Terrarium, the
 * `encoding: "terrarium"` of a MapLibre `raster-dem` source). Each pixel is the DEM's bilinear height at the
 * pixel's centre, the first DEM with a value winning. The tiles are opaque RGB: a browser decodes a transparent
 * pixel as black, which Terrarium reads as -32,768 m (3D terrain then draws nothing and hillshade a cliff). Where
 * no DEM has a value, a pixel holds the height of the nearest DEM data easing to sea level (0 m) within 2 km of
 * it (terrain-fill.ts), and 0 m beyond: no cliff at a DEM's edge, and the same height for a place whatever the
 * tile. A tile is made at every zoom from 8 to 15 wherever a DEM reaches it (chosen by extent, not by state).
 */
import { encode } from 'fast-png';
import { tileLat, tileLon, type TileId } from './tile-math.js';


/** Input of the `terrain-tile` task: the tile and the DEMs that reach it (their extent plus the fill's reach), first wins. */
export interface TerrainTileInput {
  tile: TileId;
  dems: string[];
}

/** Pixels per side. */
export const TERRAIN_TILE_SIZE = 256;
/** The zooms served: from a region (z8, 600 m pixels) to about 4 m pixels (z15) over 5 m DEMs; clients overzoom past it. */
export const TERRAIN_MIN_ZOOM = 8;
export const TERRAIN_MAX_ZOOM = 15;

/** The terrain layer as TileJSON describes it (a raster-dem source: no vector layers). */
export const TERRAIN_LAYER = {
  id: 'terrain',
  description: `Terrain: the DEMs as Terrarium-encoded PNG (height = R * 256 + G + B / 256 - 32768 m), ${TERRAIN_TILE_SIZE} px tiles for a MapLibre raster-dem source (hillshade, 3D terrain, maplibre-contour). Opaque: where no DEM has a value, the nearest DEM height easing to 0 m within 2 km of the data, 0 m (sea level) beyond.`,
  minzoom: TERRAIN_MIN_ZOOM,
  maxzoom: TERRAIN_MAX_ZOOM,
  encoding: 'terrarium' as const,
  tileSize: TERRAIN_TILE_SIZE,
  paths: ['scores.flood.terrain'] as const,
};

/** The lon/lat of each pixel centre of tile `t` (row-major, row 0 north), in Web Mercator. */
export function terrainPixels(t: TileId, size = TERRAIN_TILE_SIZE): { lon: Float64Array; lat: Float64Array } {
  const lon = new Float64Array(size * size), lat = new Float64Array(size * size);
  const col = new Float64Array(size), row = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    col[i] = tileLon(t.x + (i + 0.5) / size, t.z);
    row[i] = tileLat(t.y + (i + 0.5) / size, t.z);
  }
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      lon[r * size + c] = col[c];
      lat[r * size + c] = row[r];
    }
  }
  return { lon, lat };
}

/** Heights (metres; a NaN is written as 0 m) as an opaque Terrarium RGB PNG. */
export function encodeTerrarium(heights: Float32Array, size = TERRAIN_TILE_SIZE): Uint8Array {
  const rgb = new Uint8Array(size * size * 3);
  for (let k = 0; k < heights.length; k++) {
    const h = heights[k];
    // v = (h + 32768) * 256 as a 24-bit integer: R its top byte, G the middle, B the fraction.
    const v = Math.max(0, Math.min(0xffffff, Math.round(((Number.isFinite(h) ? h : 0) + 32768) * 256)));
    rgb[k * 3] = v >> 16;
    rgb[k * 3 + 1] = (v >> 8) & 0xff;
    rgb[k * 3 + 2] = v & 0xff;
  }
  return encode({ width: size, height: size, data: rgb, channels: 3, depth: 8 });
}

let emptyTile: Uint8Array | undefined;

/** The tile no DEM reaches: 0 m (sea level) throughout, encoded once. */
export function emptyTerrainTile(): Uint8Array {
  emptyTile ??= encodeTerrarium(new Float32Array(TERRAIN_TILE_SIZE * TERRAIN_TILE_SIZE));
  return emptyTile;
}

/** The height of a Terrarium pixel (the inverse of {@link encodeTerrarium}'s encoding). */
export function terrariumHeight(r: number, g: number, b: number): number {
  return r * 256 + g + b / 256 - 32768;
}
