/**
 * A metro-scale benchmark world (issue 26): one state's tile widened from 6 km to N x 6 km by laying N x N
 * sub-tiles side by side on the state's MGA grid. Each sub-tile is an ordinary tile (terrain, creek, street
 * grid, parcels, addresses, zones, overlays, roads, DAs, rasters) with its own seed, terrain, grid angle,
 * suburbs, councils and electorates, so the density and the proportions of every layer are today's and
 * the whole world is about N^2 times the sample tile. The catalogue keeps one source per kind, with one file
 * per sub-tile, exactly as a state's publisher splits a large layer into map sheets.
 */
import { Frame, TILE_HALF_M } from './frame.js';
import type { Suburb, TileSpec } from './tiles.js';

/** The side of one tile, km. */
export const TILE_KM = (2 * TILE_HALF_M) / 1000;

/** A sub-tile's place in its mosaic: row 0 is the northern edge, column 0 the western. */
export interface SubTile {
  row: number;
  col: number;
  /** Sub-tiles per side. */
  n: number;
}

/** The widest mosaic, sub-tiles per side: 3 x 16^2 = 768 suburbs keep distinct names and 4-digit postcodes. */
export const MAX_SIDE = 16;

/** Sub-tiles per side for a world `extentKm` across: a whole multiple of the 6 km tile, 6 to 96 km. */
export function mosaicSide(extentKm: number): number {
  const n = extentKm / TILE_KM;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SIDE) throw new RangeError(`extent must be a multiple of ${TILE_KM} km from ${TILE_KM} to ${MAX_SIDE * TILE_KM} km, got ${extentKm}`);
  return n;
}

/** The folder of a sub-tile's files under its state's folder, e.g. `vic/r3c4`. */
export function subTileDir(base: TileSpec, sub: SubTile): string {
  return `${base.id}/r${sub.row}c${sub.col}`;
}

const PREFIX = ['Ash', 'Bel', 'Brook', 'Clare', 'Dun', 'Elm', 'Fair', 'Glen', 'Hazel', 'Iron', 'Kings', 'Lark', 'Mill', 'North', 'Oak', 'Pine', 'Rose', 'Stan', 'Thorn', 'Wood'];
const SUFFIX = ['field', 'vale', 'wood', 'mont', 'bury', 'ton', 'dale', 'hurst', 'leigh', 'more', 'ridge', 'brook', 'haven', 'side', 'view', 'ford'];

/** The k-th synthetic place name (distinct for every k: past the 320 two-part names, numbered). */
function placeName(k: number): string {
  const round = Math.floor(k / (PREFIX.length * SUFFIX.length));
  return `${PREFIX[k % PREFIX.length]}${SUFFIX[Math.floor(k / PREFIX.length) % SUFFIX.length]}${round ? ` ${round + 1}` : ''}`;
}

/** A small deterministic hash of a sub-tile, for varying its terrain. */
function mix(row: number, col: number, salt: number): number {
  let h = Math.imul(row + 101, 0x9e3779b1) ^ Math.imul(col + 7, 0x85ebca6b) ^ Math.imul(salt + 3, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return ((h ^ (h >>> 12)) >>> 0) / 2 ** 32;
}

/**
 * The spec of sub-tile (row, col) of `base`'s mosaic. Its centre is `base`'s centre moved by whole tiles on
 * the MGA grid, so sub-tiles abut exactly. Its names are its own: three suburbs with postcodes counting up
 * from the state's first, a council per 2 x 2 block of sub-tiles, electorates per 3 x 3 block. The source
 * ids (and so the catalogue) stay the state's: `base.id` is kept.
 */
export function mosaicSpec(base: TileSpec, sub: SubTile): TileSpec {
  const { row, col, n } = sub;
  const frame = new Frame(base.lon, base.lat);
  const dx = (col - (n - 1) / 2) * 2 * TILE_HALF_M;
  const dy = ((n - 1) / 2 - row) * 2 * TILE_HALF_M;
  const [lon, lat] = frame.lonLat(dx, dy);
  const k = row * n + col;
  const firstPostcode = Number(base.suburbs[0].postcode);
  const suburb = (i: number): Suburb => ({ name: placeName(3 * k + i), postcode: String(firstPostcode + 3 * k + i).padStart(4, '0') });
  const council = (r: number, c: number) => `${placeName(7 * (Math.floor(r / 2) * n + Math.floor(c / 2)) + 5)} City Council`;
  const electorate = (r: number, c: number, salt: number) => placeName(11 * (Math.floor(r / 3) * n + Math.floor(c / 3)) + salt);
  const t = base.terrain;
  return {
    ...base,
    place: `${base.place} (benchmark sub-tile row ${row}, column ${col} of ${n} x ${n})`,
    lon,
    lat,
    suburbs: [suburb(0), suburb(1), suburb(2)],
    councils: [council(row, col), council(row, col + 1)],
    stateElectorates: [electorate(row, col, 1), electorate(row, col, 2)],
    federalDivisions: [electorate(row, col, 3), electorate(row, col, 4)],
    terrain: {
      ...t,
      base: t.base + Math.round(20 * (mix(row, col, 1) - 0.3)),
      creekAngle: Math.round(t.creekAngle + 140 * (mix(row, col, 2) - 0.5)),
      creekOffset: Math.round(900 * (mix(row, col, 3) - 0.5)),
      gridAngle: Math.round(t.gridAngle + 40 * (mix(row, col, 4) - 0.5)),
      hillSide: mix(row, col, 5) < 0.5 ? -1 : 1,
    },
  };
}
