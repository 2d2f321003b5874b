/**
 * Landscape openness from a DEM: how much of the horizon around the subject is open, and how much of the
 * surrounding land lies below it. Bare-earth terrain only: buildings and trees are not in a DEM, so this is
 * the openness of the landform, not a line-of-sight or view guarantee.
 *
 * Horizon angles follow the topographic-openness construction of Yokoyama, Shirasawa & Pike (2002),
 * "Visualizing topography by openness", Photogrammetric Engineering & Remote Sensing 68(3): along each of
 * `directions` azimuths the horizon angle is the largest elevation angle, seen from the observer's eye, of
 * the terrain sampled out to `radius`. A direction counts as open when its horizon angle is at most
 * `openAngleDeg`. The relative-elevation share is the percentile form of the topographic position index
 * (Weiss 2001, "Topographic position and landforms analysis", ESRI User Conference): the share of lattice
 * samples in the disc lower than the subject's ground.
 */
import type { AnyGrid } from '../../raster/sample.js';
import { metricFrame, sampleAtOffset } from '../../raster/sample.js';

/** Options for {@link landscapeOpenness}. */
export interface OpennessOptions {
  /** How far the horizon is searched, metres; default 1,500 (the analysis window's half-width). */
  radius?: number;
  /** Azimuths scanned, evenly spaced from north; default 36 (every 10 degrees). */
  directions?: number;
  /** Sampling step along each azimuth, metres; default 10. */
  step?: number;
  /** Terrain nearer than this is ignored, metres; default 50 (near-field DEM noise and kerbs are not landscape). */
  minDistance?: number;
  /** Eye height above the ground, metres; default 1.6. */
  observerHeight?: number;
  /** A direction is open when its horizon angle is at most this, degrees; default 3 (our choice: about a 50 m rise at 1 km). */
  openAngleDeg?: number;
  /** Lattice spacing for the relative-elevation share, metres; default 50. */
  latticeSpacing?: number;
}

/** The openness of the landform around a point. */
export interface LandscapeOpenness {
  /** Ground elevation at the subject, metres. */
  groundElevationM: number;
  /** Share of azimuths (0-1) whose horizon angle is at most `openAngleDeg`. */
  openHorizonShare: number;
  /** Share (0-1) of terrain samples in the disc lower than the subject's ground. */
  relativeElevationShare: number;
  /** Horizon angle per azimuth, degrees above level (negative: the land falls away), clockwise from north. */
  horizonAnglesDeg: Float32Array;
  /** Mean and largest horizon angle, degrees. */
  meanHorizonDeg: number;
  maxHorizonDeg: number;
  /** Options used. */
  radiusM: number;
  observerHeightM: number;
  openAngleDeg: number;
  minDistanceM: number;
}

/** Landscape openness of `dem` at (lon, lat); null when the DEM has no elevation at the subject. */
export function landscapeOpenness(dem: AnyGrid, lon: number, lat: number, options: OpennessOptions = {}): LandscapeOpenness | null {
  const radius = options.radius ?? 1500;
  const nDir = options.directions ?? 36;
  const step = options.step ?? 10;
  const minD = options.minDistance ?? 50;
  const eye = options.observerHeight ?? 1.6;
  const openDeg = options.openAngleDeg ?? 3;
  const lattice = options.latticeSpacing ?? 50;
  const frame = metricFrame(dem, lon, lat);
  const z0 = sampleAtOffset(dem, frame, 0, 0);
  if (!Number.isFinite(z0)) return null;
  const eyeZ = z0 + eye;
  const angles = new Float32Array(nDir);
  let open = 0;
  let sum = 0;
  let max = -Infinity;
  for (let k = 0; k < nDir; k++) {
    const az = (2 * Math.PI * k) / nDir;
    const se = Math.sin(az);
    const cn = Math.cos(az);
    // Largest tangent of the elevation angle; terrain past the DEM's edge is simply not seen.
    let best = -Infinity;
    for (let d = minD; d <= radius; d += step) {
      const z = sampleAtOffset(dem, frame, se * d, cn * d);
      if (!Number.isFinite(z)) continue;
      const t = (z - eyeZ) / d;
      if (t > best) best = t;
    }
    const deg = best === -Infinity ? 0 : (Math.atan(best) * 180) / Math.PI;
    angles[k] = deg;
    sum += deg;
    if (deg > max) max = deg;
    if (deg <= openDeg) open++;
  }
  let lower = 0;
  let counted = 0;
  const n = Math.ceil(radius / lattice);
  for (let j = -n; j <= n; j++) {
    for (let i = -n; i <= n; i++) {
      if ((i === 0 && j === 0) || (i * i + j * j) * lattice * lattice > radius * radius) continue;
      const z = sampleAtOffset(dem, frame, i * lattice, j * lattice);
      if (!Number.isFinite(z)) continue;
      counted++;
      if (z < z0) lower++;
    }
  }
  return {
    groundElevationM: z0,
    openHorizonShare: open / nDir,
    relativeElevationShare: counted > 0 ? lower / counted : 0,
    horizonAnglesDeg: angles,
    meanHorizonDeg: sum / nDir,
    maxHorizonDeg: max,
    radiusM: radius,
    observerHeightM: eye,
    openAngleDeg: openDeg,
    minDistanceM: minD,
  };
}
