/**
 * The grid type every raster operation uses: a plain object around a flat, row-major typed array
 * (`data[row * width + col]`, row 0 = north), so it clones and transfers to workers intact.
 */
import type { GeoTransform } from '../geo/geo-transform.js';
import { pixelToWorld } from '../geo/geo-transform.js';
import type { GridSpec } from '../geo/window.js';
import type { BBox } from '../geo/bbox.js';

/** Every typed array a grid may hold. */
export type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

/** A constructor of one of the {@link TypedArray} types. */
export type TypedArrayConstructor<A extends TypedArray = TypedArray> = {
  new (length: number): A;
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): A;
  readonly BYTES_PER_ELEMENT: number;
  readonly name: string;
};

/** A georeferenced raster band. */
export interface Grid<A extends TypedArray = Float32Array> {
  width: number;
  height: number;
  /** Row-major values, row 0 = north. */
  data: A;
  /** The value that marks a missing cell; NaN for float grids. */
  noData: number;
  /** Affine pixel-to-world transform, GDAL order. */
  transform: GeoTransform;
  /** CRS of the transform, `EPSG:<code>`. */
  crs: string;
}

/** A new grid of the given spec, filled with `fill` (default: the no-data value, NaN for float types). */
export function createGrid<A extends TypedArray = Float32Array>(
  spec: GridSpec,
  ArrayType: TypedArrayConstructor<A> = Float32Array as unknown as TypedArrayConstructor<A>,
  options: { noData?: number; fill?: number; shared?: boolean } = {},
): Grid<A> {
  const isFloat = ArrayType.name.startsWith('Float');
  const noData = options.noData ?? (isFloat ? NaN : 0);
  const n = spec.width * spec.height;
  const data = options.shared
    ? new ArrayType(new SharedArrayBuffer(n * ArrayType.BYTES_PER_ELEMENT))
    : new ArrayType(n);
  const fill = options.fill ?? noData;
  if (fill !== 0) data.fill(fill);
  return { width: spec.width, height: spec.height, data, noData, transform: spec.transform, crs: spec.crs };
}

/** The spec (shape and georeferencing) of a grid. */
export function gridSpec(g: Pick<Grid<TypedArray>, 'width' | 'height' | 'transform' | 'crs'>): GridSpec {
  return { width: g.width, height: g.height, transform: g.transform, crs: g.crs };
}

/** True when cell value `v` is missing in grid `g`. */
export function isNoData(g: Pick<Grid<TypedArray>, 'noData'>, v: number): boolean {
  return Number.isNaN(g.noData) ? Number.isNaN(v) : v === g.noData || Number.isNaN(v);
}

/** World coordinates of the centre of cell (col, row). */
export function cellCentre(g: Pick<Grid<TypedArray>, 'transform'>, col: number, row: number): [number, number] {
  return pixelToWorld(g.transform, col + 0.5, row + 0.5);
}

/** The grid's outer extent in its CRS (north-up grids). */
export function gridBBox(g: Pick<Grid<TypedArray>, 'width' | 'height' | 'transform'>): BBox {
  const [x0, dx, , y0, , dy] = g.transform;
  const x1 = x0 + g.width * dx;
  const y1 = y0 + g.height * dy;
  return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

/** Cell width and height in CRS units (both positive). */
export function cellSize(g: Pick<Grid<TypedArray>, 'transform'>): { x: number; y: number } {
  return { x: Math.abs(g.transform[1]), y: Math.abs(g.transform[5]) };
}
