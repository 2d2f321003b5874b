/** What every layer generator of a tile shares. */
import type { Feature, Geometry, Position } from 'geojson';
import type { Random } from '../../engine/random/seeded-random.js';
import type { Frame } from './frame.js';
import type { Layout, Lot } from './layout.js';
import type { SourceRegistry } from './sources.js';
import type { Terrain } from './terrain.js';
import type { TileSpec } from './tiles.js';
import type { FileWriter } from './writer.js';

/** An address written for a lot (one per lot, or one per unit). */
export interface AddressRecord {
  id: string;
  lot: Lot;
  unit: number | null;
  text: string;
  lon: number;
  lat: number;
  pfi: string;
  suburb: string;
  postcode: string;
  council: string;
}

/** Masks and lookups computed once and used by several layers (10 m cells over the tile). */
export interface TileMasks {
  /** 1% AEP flood extent. */
  flood1pct: Uint8Array;
  /** 1% AEP flood extent plus 0.5 m freeboard (planning flood level). */
  floodPlanning: Uint8Array;
  /** The floodway (deep, fast flow). */
  floodway: Uint8Array;
  /** Land-cover class per 10 m cell (ESA WorldCover codes). */
  landCover: Uint8Array;
  /** Bushfire vegetation class per 20 m cell (0 none, else an index into VEG_CLASSES). */
  vegetation: Uint8Array;
}

/** The shared state of one tile's generation. */
export interface TileContext {
  spec: TileSpec;
  tileIndex: number;
  frame: Frame;
  terrain: Terrain;
  layout: Layout;
  rnd: Random;
  writer: FileWriter;
  registry: SourceRegistry;
  /** Folder of this tile's files, relative to the world root (e.g. `vic`). */
  dir: string;
  masks: TileMasks;
  /** Ground elevation on the tile's 10 m grid (600 x 600, row 0 north), computed once and shared. */
  elev10: Float32Array;
  addresses: AddressRecord[];
  /** Added to the number in each address id (0; in a mosaic, a block of ids per sub-tile, so ids stay unique). */
  addressBase: number;
  /** Lots by the suburb/council assignment. */
  suburbOf(x: number, y: number): { suburb: string; postcode: string; council: string };
  /** Ids of the parcels (pfi) by lot. */
  pfiOf: Map<Lot, string>;
  /**
   * Metres added to the tile's 1% AEP flood level (0 unless the sandbox rules need a residential lot in the
   * flood and the seed's terrain put none there: see floodOffsetForSandbox).
   */
  floodOffset?: number;
}

/** Converts a local-metre geometry to lon/lat. */
export function toLonLatGeometry(ctx: Pick<TileContext, 'frame'>, g: Geometry): Geometry {
  const f = ctx.frame;
  const conv = (c: unknown): unknown => (typeof (c as number[])[0] === 'number' ? f.lonLat((c as number[])[0], (c as number[])[1]) : (c as unknown[]).map(conv));
  if (g.type === 'GeometryCollection') return { type: g.type, geometries: g.geometries.map((x) => toLonLatGeometry(ctx, x)) };
  return { type: g.type, coordinates: conv(g.coordinates) } as Geometry;
}

/** A lon/lat feature from a local-metre geometry. */
export function llFeature(ctx: Pick<TileContext, 'frame'>, properties: Record<string, unknown>, g: Geometry): Feature {
  return { type: 'Feature', properties, geometry: toLonLatGeometry(ctx, g) };
}

/** A polygon or multipolygon geometry from polygon coordinate arrays (local metres). */
export function polygonal(polys: Position[][][]): Geometry {
  return polys.length === 1 ? { type: 'Polygon', coordinates: polys[0] } : { type: 'MultiPolygon', coordinates: polys };
}
