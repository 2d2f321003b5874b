/**
 * A fast CRS transform over a small area: the exact proj4 transform on a lattice of nodes, bilinear
 * interpolation between them (the approximate transformer GDAL uses for warping, and the same idea as
 * engine/raster/resample.ts).
 *
 * Why it is accurate enough: the error of bilinear interpolation is bounded by h^2 / 8 times the second
 * derivative of the mapping (the standard interpolation remainder), and a map projection bends on the scale
 * of the Earth's radius R, so the error is about h^2 / (8 R): with nodes every 100 m, 100^2 / (8 x 6.4e6 m)
 * = 0.2 mm, against the 6-decimal (about 0.1 m) rounding of the output. The test checks it against the
 * exact transform. A contour window has tens of thousands of vertices and the lattice about a thousand
 * nodes, so this is 10-50 times cheaper than proj4 per vertex.
 */
import type { BBox } from './bbox.js';
import { getTransformer, isGeographic } from './crs.js';

/** Node spacing aimed for, metres (0.2 mm interpolation error, see above). */
export const LATTICE_SPACING_M = 100;
/** Bounds on the number of lattice cells per axis. */
const MIN_DIVISIONS = 4;
const MAX_DIVISIONS = 256;
/** Metres per degree, roughly, to size the lattice of a geographic box (sizing only, not the transform). */
const METRES_PER_DEGREE = 111_320;

/** Transforms interleaved x, y arrays in place. */
export interface ArrayTransform {
  /** True when the transform does nothing (same CRS). */
  readonly identity: boolean;
  /** Transforms points `start .. end - 1` of interleaved `xy` in place. */
  forwardArray(xy: Float64Array, start?: number, end?: number): void;
}

/**
 * A transform from `from` to `to`, exact at the nodes of a lattice over `bbox` (in `from` units) and
 * bilinear in between. Points outside the box are extrapolated from the nearest lattice cell (accurate close
 * to the box, which is where callers use it).
 */
export function latticeTransform(from: string, to: string, bbox: BBox): ArrayTransform {
  const exact = getTransformer(from, to);
  // getTransformer hands back an identity for the same CRS, equal definitions, or two lon/lat datums; a real
  // projection never maps a point exactly onto itself.
  const probe = exact.forward(bbox[0], bbox[1]);
  if (probe[0] === bbox[0] && probe[1] === bbox[1]) {
    return { identity: true, forwardArray: () => {} };
  }
  const unit = isGeographic(exact.from) ? METRES_PER_DEGREE : 1;
  const w = Math.max(bbox[2] - bbox[0], 1e-9), h = Math.max(bbox[3] - bbox[1], 1e-9);
  const divisions = (extent: number) => Math.min(MAX_DIVISIONS, Math.max(MIN_DIVISIONS, Math.ceil((extent * unit) / LATTICE_SPACING_M)));
  const nx = divisions(w), ny = divisions(h);
  const sx = w / nx, sy = h / ny;
  const x0 = bbox[0], y0 = bbox[1];
  // Node (i, j) at (x0 + i * sx, y0 + j * sy); its image at nodes[2 * (j * (nx + 1) + i)].
  const nodes = new Float64Array(2 * (nx + 1) * (ny + 1));
  for (let j = 0; j <= ny; j++) {
    for (let i = 0; i <= nx; i++) {
      nodes[2 * (j * (nx + 1) + i)] = x0 + i * sx;
      nodes[2 * (j * (nx + 1) + i) + 1] = y0 + j * sy;
    }
  }
  exact.forwardArray(nodes);
  const stride = 2 * (nx + 1);
  return {
    identity: false,
    forwardArray(xy, start = 0, end = xy.length / 2) {
      for (let p = start; p < end; p++) {
        const fx = (xy[2 * p] - x0) / sx, fy = (xy[2 * p + 1] - y0) / sy;
        const i = fx < 0 ? 0 : fx >= nx ? nx - 1 : fx | 0;
        const j = fy < 0 ? 0 : fy >= ny ? ny - 1 : fy | 0;
        const u = fx - i, v = fy - j;
        const k = 2 * (j * (nx + 1) + i);
        const a = (1 - u) * (1 - v), b = u * (1 - v), c = (1 - u) * v, d = u * v;
        xy[2 * p] = a * nodes[k] + b * nodes[k + 2] + c * nodes[k + stride] + d * nodes[k + stride + 2];
        xy[2 * p + 1] = a * nodes[k + 1] + b * nodes[k + 3] + c * nodes[k + stride + 1] + d * nodes[k + stride + 3];
      }
    },
  };
}
