/**
 * The obviously-correct reference for the walkability benchmark: every amenity's distance by a linear scan,
 * every barrier segment tested against every line, every crossing point checked, then the same scoring
 * rules. Used to check the indexed path before timing it and as the side-by-side reference row.
 */
import { distanceMetres, metresPerDegree } from '../../engine/geo/distance.js';
import { NO_CATEGORY, RANK_WEIGHTS, TOTAL_WEIGHT, WALK_CATEGORIES } from '../../engine/scores/walkability/categories.js';
import { DECAY_LIMIT_M, distanceDecay, WALK_BANDS_M } from '../../engine/scores/walkability/distance-decay.js';
import { BARRIER_PENALTY_M, CROSSING_TOLERANCE_M } from '../../engine/scores/walkability/walkability-score.js';

/** Flat arrays of one synthetic world. */
export interface ReferenceWorld {
  /** lon, lat per amenity. */
  amenities: Float64Array;
  category: Uint8Array;
  /** lon1, lat1, lon2, lat2 per motorway segment. */
  motorway: Float64Array;
  water: Float64Array;
  /** lon, lat per crossing point. */
  crossings: Float64Array;
}

/** Score and reachable counts per scenario, computed the slow way (flat ground). */
export function referenceWalkability(w: ReferenceWorld, lon: number, lat: number): { score: number; reach: number[] } {
  const { kx, ky } = metresPerDegree(lat);
  const crosses = (ax: number, ay: number, segs: Float64Array): boolean => {
    for (let i = 0; i < segs.length; i += 4) {
      const x1 = (segs[i] - lon) * kx, y1 = (segs[i + 1] - lat) * ky;
      const sx = (segs[i + 2] - lon) * kx - x1, sy = (segs[i + 3] - lat) * ky - y1;
      const den = ax * sy - ay * sx;
      if (den === 0) continue;
      const t = (x1 * sy - y1 * sx) / den;
      const u = (x1 * ay - y1 * ax) / den;
      if (t < 0 || t > 1 || u < 0 || u > 1) continue;
      const ix = t * ax, iy = t * ay;
      let relieved = false;
      for (let k = 0; k < w.crossings.length && !relieved; k += 2) {
        const dx = (w.crossings[k] - lon) * kx - ix, dy = (w.crossings[k + 1] - lat) * ky - iy;
        relieved = dx * dx + dy * dy <= CROSSING_TOLERANCE_M ** 2;
      }
      if (!relieved) return true;
    }
    return false;
  };
  const adjusted: number[][] = WALK_CATEGORIES.map(() => []);
  const reach = new Array(WALK_CATEGORIES.length * WALK_BANDS_M.length).fill(0);
  for (let i = 0; i < w.category.length; i++) {
    const c = w.category[i];
    if (c === NO_CATEGORY) continue;
    const d = distanceMetres(lon, lat, w.amenities[2 * i], w.amenities[2 * i + 1]);
    if (d > DECAY_LIMIT_M) continue;
    const ax = (w.amenities[2 * i] - lon) * kx, ay = (w.amenities[2 * i + 1] - lat) * ky;
    const adj = d + (crosses(ax, ay, w.motorway) ? BARRIER_PENALTY_M : 0) + (crosses(ax, ay, w.water) ? BARRIER_PENALTY_M : 0);
    adjusted[c].push(adj);
    WALK_BANDS_M.forEach((b, k) => {
      if (adj <= b) reach[c * WALK_BANDS_M.length + k]++;
    });
  }
  let points = 0;
  WALK_CATEGORIES.forEach((cat, c) => {
    const best = adjusted[c].sort((a, b) => a - b).slice(0, RANK_WEIGHTS[cat].length);
    best.forEach((a, r) => (points += RANK_WEIGHTS[cat][r] * distanceDecay(a)));
  });
  return { score: Math.round(Math.min(100, (100 * points) / TOTAL_WEIGHT) * 10) / 10, reach };
}
