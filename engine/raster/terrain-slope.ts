/**
 * Regional slope from a DEM: the mean gradient over a disc around the subject.
 *
 * Method: elevations are sampled (bilinear) on a square lattice of `spacing` metres over the disc, and the
 * gradient at each lattice node is Horn's 3x3 finite difference (Horn 1981, "Hill shading and the
 * reflectance map", Proc. IEEE 69(1), eq. for p and q; the weighting GDAL's `gdaldem slope` uses):
 *
 *   dz/dx = ((c + 2f + i) - (a + 2d + g)) / (8 h),   dz/dy = ((a + 2b + c) - (g + 2h' + i)) / (8 h)
 *
 * with a b c / d e f / g h' i the north-to-south rows of the 3x3 neighbourhood and h the lattice spacing.
 * Sampling a lattice rather than every DEM cell makes the cost independent of the DEM's resolution and gives
 * the slope at the scale the spacing sets (a 5 m DEM's kerbs and driveways do not count as hills).
 */
import type { AnyGrid } from './sample.js';
import { metricFrame, sampleAtOffset } from './sample.js';

/** The mean slope over a disc. */
export interface RegionalSlope {
  /** Mean gradient magnitude, rise over run (tan of the slope angle). */
  meanGradient: number;
  /** Mean slope angle, degrees. */
  meanSlopeDeg: number;
  /** Lattice nodes with a valid gradient. */
  samples: number;
  /** Lattice spacing, metres. */
  spacingM: number;
  /** Disc radius, metres. */
  radiusM: number;
}

/** Options for {@link regionalSlope}. */
export interface RegionalSlopeOptions {
  /** Lattice spacing in metres; default 50 (a street block's scale). */
  spacing?: number;
}

/**
 * The mean slope of `dem` over the disc of `radius` metres around (lon, lat). Returns null when no node in
 * the disc has a full 3x3 neighbourhood of valid elevations (the DEM does not cover the disc).
 */
export function regionalSlope(dem: AnyGrid, lon: number, lat: number, radius: number, options: RegionalSlopeOptions = {}): RegionalSlope | null {
  const h = options.spacing ?? 50;
  const frame = metricFrame(dem, lon, lat);
  const n = Math.max(1, Math.ceil(radius / h));
  const side = 2 * n + 3; // one node of margin each side for the 3x3 stencil
  const z = new Float64Array(side * side);
  for (let j = 0; j < side; j++) {
    const north = (n + 1 - j) * h; // row 0 is the northern edge, as in every grid of the engine
    for (let i = 0; i < side; i++) z[j * side + i] = sampleAtOffset(dem, frame, (i - n - 1) * h, north);
  }
  let sumG = 0;
  let sumDeg = 0;
  let count = 0;
  const r2 = radius * radius;
  for (let j = 1; j < side - 1; j++) {
    for (let i = 1; i < side - 1; i++) {
      const e = (i - n - 1) * h;
      const no = (n + 1 - j) * h;
      if (e * e + no * no > r2) continue;
      const k = j * side + i;
      const a = z[k - side - 1], b = z[k - side], c = z[k - side + 1];
      const d = z[k - 1], f = z[k + 1];
      const g = z[k + side - 1], hh = z[k + side], ii = z[k + side + 1];
      const dzdx = (c + 2 * f + ii - (a + 2 * d + g)) / (8 * h);
      const dzdy = (a + 2 * b + c - (g + 2 * hh + ii)) / (8 * h);
      const grad = Math.hypot(dzdx, dzdy);
      if (!Number.isFinite(grad)) continue; // a missing elevation in the stencil
      sumG += grad;
      sumDeg += (Math.atan(grad) * 180) / Math.PI;
      count++;
    }
  }
  if (count === 0) return null;
  return { meanGradient: sumG / count, meanSlopeDeg: sumDeg / count, samples: count, spacingM: h, radiusM: radius };
}
