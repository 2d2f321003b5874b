/**
 * A tile's frame: its place in a GDA2020 MGA zone and the local metre coordinates the generator works in
 * (origin at the tile centre, x east, y north). Everything is generated in local metres and converted to
 * lon/lat (or MGA) when written.
 */
import type { Position } from 'geojson';
import { getTransformer, LONLAT, mgaCrsForLon } from '../../engine/geo/crs.js';
import { northUpTransform, type GeoTransform } from '../../engine/geo/geo-transform.js';

/** Half the tile side, metres: 6 km tiles hold a 3 km window plus a HAND buffer around most subjects. */
export const TILE_HALF_M = 3000;
/** DEM cell size, metres (stands in for the national 5 m LiDAR model). */
export const DEM_CELL_M = 5;

/** A tile's coordinate frame. */
export class Frame {
  /** GDA2020 / MGA CRS of the tile. */
  readonly crs: string;
  /** MGA easting and northing of the tile centre (snapped to the DEM grid). */
  readonly cx: number;
  readonly cy: number;
  private readonly toLL;
  private readonly fromLL;

  constructor(lon: number, lat: number) {
    this.crs = mgaCrsForLon(lon);
    this.fromLL = getTransformer(LONLAT, this.crs);
    this.toLL = getTransformer(this.crs, LONLAT);
    const [x, y] = this.fromLL.forward(lon, lat);
    this.cx = Math.round(x / DEM_CELL_M) * DEM_CELL_M;
    this.cy = Math.round(y / DEM_CELL_M) * DEM_CELL_M;
  }

  /** lon/lat of local point (x, y). */
  lonLat(x: number, y: number): [number, number] {
    return this.toLL.forward(this.cx + x, this.cy + y);
  }

  /** Local metres of a lon/lat point. */
  local(lon: number, lat: number): [number, number] {
    const [x, y] = this.fromLL.forward(lon, lat);
    return [x - this.cx, y - this.cy];
  }

  /** MGA coordinates of local point (x, y). */
  mga(x: number, y: number): [number, number] {
    return [this.cx + x, this.cy + y];
  }

  /** Converts local positions to lon/lat positions. */
  toLonLat(ps: readonly Position[]): Position[] {
    return ps.map(([x, y]) => this.lonLat(x, y));
  }

  /** Converts local positions to MGA positions. */
  toMga(ps: readonly Position[]): Position[] {
    return ps.map(([x, y]) => this.mga(x, y));
  }

  /** The north-up transform of a grid of `cell`-metre cells covering the tile. */
  gridTransform(cell: number): GeoTransform {
    return northUpTransform(this.cx - TILE_HALF_M, this.cy + TILE_HALF_M, cell);
  }

  /** Local coordinates of the centre of cell (col, row) of a `cell`-metre tile grid. */
  cellCentre(col: number, row: number, cell: number): [number, number] {
    return [-TILE_HALF_M + (col + 0.5) * cell, TILE_HALF_M - (row + 0.5) * cell];
  }
}

/** Rotates (x, y) by `angle` radians counter-clockwise. */
export function rotate(x: number, y: number, angle: number): [number, number] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [x * c - y * s, x * s + y * c];
}
