/** An axis-aligned box `[minX, minY, maxX, maxY]` in some CRS's units (degrees for lon/lat). */
export type BBox = [minX: number, minY: number, maxX: number, maxY: number];

/** An empty box that any extension replaces. */
export function emptyBBox(): BBox {
  return [Infinity, Infinity, -Infinity, -Infinity];
}

/** True when the box contains no area and no point (never extended). */
export function isEmptyBBox(b: BBox): boolean {
  return !(b[0] <= b[2] && b[1] <= b[3]);
}

/** Extends `b` in place to include the point (x, y). */
export function extendBBox(b: BBox, x: number, y: number): BBox {
  if (x < b[0]) b[0] = x;
  if (y < b[1]) b[1] = y;
  if (x > b[2]) b[2] = x;
  if (y > b[3]) b[3] = y;
  return b;
}

/** True when the two boxes overlap or touch. */
export function bboxIntersects(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** The overlap of two boxes, or null when they do not overlap. */
export function bboxIntersection(a: BBox, b: BBox): BBox | null {
  const r: BBox = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[0] <= r[2] && r[1] <= r[3] ? r : null;
}

/** True when (x, y) lies inside or on the edge of `b`. */
export function bboxContains(b: BBox, x: number, y: number): boolean {
  return x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
}

/** Area of the box in squared CRS units. */
export function bboxArea(b: BBox): number {
  return isEmptyBBox(b) ? 0 : (b[2] - b[0]) * (b[3] - b[1]);
}
