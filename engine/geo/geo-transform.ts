/**
 * An affine pixel-to-world transform in GDAL order: `[x0, dx, rx, y0, ry, dy]`, so that the world position
 * of the top-left corner of pixel (col, row) is `x = x0 + col*dx + row*rx`, `y = y0 + col*ry + row*dy`.
 * For north-up rasters `rx = ry = 0` and `dy < 0` (row 0 is the northern edge).
 */
export type GeoTransform = readonly [x0: number, dx: number, rx: number, y0: number, ry: number, dy: number];

/** A north-up transform with square or rectangular cells; `cellHeight` is positive (rows go south). */
export function northUpTransform(west: number, north: number, cellWidth: number, cellHeight = cellWidth): GeoTransform {
  return [west, cellWidth, 0, north, 0, -cellHeight];
}

/** World coordinates of fractional pixel position (col, row); (0.5, 0.5) is the centre of the first cell. */
export function pixelToWorld(t: GeoTransform, col: number, row: number): [number, number] {
  return [t[0] + col * t[1] + row * t[2], t[3] + col * t[4] + row * t[5]];
}

/** Fractional pixel position (col, row) of a world coordinate; floor it to get the containing cell. */
export function worldToPixel(t: GeoTransform, x: number, y: number): [number, number] {
  const det = t[1] * t[5] - t[2] * t[4];
  if (det === 0) throw new RangeError(`Degenerate geotransform: ${t.join(',')}`);
  const dx = x - t[0];
  const dy = y - t[3];
  return [(dx * t[5] - dy * t[2]) / det, (dy * t[1] - dx * t[4]) / det];
}

/** True when the transform has no rotation or shear terms. */
export function isNorthUp(t: GeoTransform): boolean {
  return t[2] === 0 && t[4] === 0 && t[1] > 0 && t[5] < 0;
}
