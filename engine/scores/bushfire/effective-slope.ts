/**
 * The effective slope under classified vegetation (AS 3959-2009 clause 2.2.5 and Figure 2.2): the slope of
 * the land under the vegetation, measured away from the site, that most influences fire behaviour toward
 * it. Downslope (land falling away from the site beneath the vegetation) raises the BAL; upslope and flat
 * land share one column of the Method 1 tables.
 *
 * From a DEM: starting at the vegetation's nearest point to the site and heading directly away from the
 * site, elevations are sampled every {@link PROFILE_STEP_M} metres to {@link ASSESSMENT_DISTANCE_M} from the
 * site (at least {@link MIN_PROFILE_M} of profile), and the least-squares gradient of elevation against
 * distance gives the slope. Positive degrees are downslope.
 */
import type { AnyGrid } from '../../raster/sample.js';
import { metricFrame, sampleAtOffset } from '../../raster/sample.js';
import { ASSESSMENT_DISTANCE_M } from './as3959-method1.js';

/** Spacing of profile samples, metres. */
export const PROFILE_STEP_M = 5;
/** Shortest profile fitted, metres (vegetation near the 100 m limit still gets a slope). */
export const MIN_PROFILE_M = 20;

/** The effective slope under vegetation whose nearest point is `east`, `north` metres from the site. */
export interface EffectiveSlope {
  /** Degrees; positive = downslope away from the site. */
  downslopeDeg: number;
  /** Profile length fitted, metres. */
  profileM: number;
}

/**
 * The effective slope along the bearing from the site (lon, lat) through the vegetation point at metric
 * offset (east, north); null when fewer than three profile samples have elevations.
 */
export function effectiveSlope(dem: AnyGrid, lon: number, lat: number, east: number, north: number): EffectiveSlope | null {
  const d = Math.hypot(east, north);
  if (d === 0) return null;
  const ux = east / d;
  const uy = north / d;
  const length = Math.max(MIN_PROFILE_M, ASSESSMENT_DISTANCE_M - d);
  const frame = metricFrame(dem, lon, lat);
  // Least squares of z on t (t = metres beyond the vegetation's edge).
  let n = 0, st = 0, sz = 0, stt = 0, stz = 0;
  for (let t = 0; t <= length + 1e-9; t += PROFILE_STEP_M) {
    const z = sampleAtOffset(dem, frame, east + ux * t, north + uy * t);
    if (!Number.isFinite(z)) continue;
    n++;
    st += t;
    sz += z;
    stt += t * t;
    stz += t * z;
  }
  if (n < 3) return null;
  const slope = (n * stz - st * sz) / (n * stt - st * st); // dz/dt
  return { downslopeDeg: (-Math.atan(slope) * 180) / Math.PI, profileM: length };
}
