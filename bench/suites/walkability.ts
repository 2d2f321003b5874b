/**
 * `scores.walkability` for one subject over 50,000 amenity points and 20,000 motorway and major-water
 * segments (10,000 each) indexed with flatbush, in a 20 x 22 km synthetic city (about 110 amenities per
 * km2, so the 1,200 m disc holds about 500). Rows: index build, one score in process (target: under 2 ms),
 * one score through a worker over the shared indexes, and the linear-scan / brute-force reference beside
 * the in-process row. The indexed result is checked against the reference before anything is timed.
 */
import { createEnginePool } from '../../engine/entry/runtime.js';
import { seededRandom, distanceMetres, metresPerDegree } from '../../engine/entry/geo.js';
import { buildWalkabilityIndexes, shareWalkabilityIndexes, type AmenityPoint, BARRIER_PENALTY_M, computeWalkability, CROSSING_TOLERANCE_M, NO_CATEGORY, RANK_WEIGHTS, TOTAL_WEIGHT, WALK_CATEGORIES, DECAY_LIMIT_M, distanceDecay, WALK_BANDS_M } from '../../engine/entry/scores.js';
import { measure, measureAsync } from '../lib/measure.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';

/** Flat arrays of one synthetic world, for the reference. */
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

/**
 * The obviously-correct reference: every amenity's distance by a linear scan, every barrier segment tested
 * against every line, every crossing point checked, then the same scoring rules (flat ground). Checks the
 * indexed path before timing and is the side-by-side reference row. Returns the score and the reachable
 * count per scenario.
 */
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

const AMENITIES = 50_000;
const SEGMENTS_PER_KIND = 10_000;
const CROSSINGS = 1_500;
const SUBJECTS = 256;
const LON0 = 144.85, LAT0 = -37.9, SPAN_LON = 0.23, SPAN_LAT = 0.2; // about 20 x 22 km

export function world(seed: number) {
  const rnd = seededRandom(seed);
  const amenities = new Float64Array(2 * AMENITIES);
  const category = new Uint8Array(AMENITIES);
  const points: AmenityPoint[] = [];
  for (let i = 0; i < AMENITIES; i++) {
    const lon = LON0 + rnd.next() * SPAN_LON, lat = LAT0 + rnd.next() * SPAN_LAT;
    const c = rnd.int(WALK_CATEGORIES.length);
    amenities[2 * i] = lon;
    amenities[2 * i + 1] = lat;
    category[i] = c;
    points.push({ id: String(i), name: '', lon, lat, category: WALK_CATEGORIES[c], crowdSourced: rnd.chance(0.5), source: 'bench' });
  }
  // Barriers as polylines of ~150 m segments, so each kind is a few hundred long features.
  const polylines = (n: number) => {
    const segs = new Float64Array(4 * n);
    let lon = 0, lat = 0, heading = 0;
    for (let i = 0; i < n; i++) {
      if (i % 40 === 0) {
        lon = LON0 + rnd.next() * SPAN_LON;
        lat = LAT0 + rnd.next() * SPAN_LAT;
        heading = rnd.next() * 2 * Math.PI;
      }
      heading += rnd.normal() * 0.15;
      const nlon = lon + 0.0017 * Math.cos(heading), nlat = lat + 0.00135 * Math.sin(heading);
      segs.set([lon, lat, nlon, nlat], 4 * i);
      lon = nlon;
      lat = nlat;
    }
    return segs;
  };
  const motorway = polylines(SEGMENTS_PER_KIND);
  const water = polylines(SEGMENTS_PER_KIND);
  const crossings = Float64Array.from({ length: 2 * CROSSINGS }, (_, i) => (i % 2 ? LAT0 + rnd.next() * SPAN_LAT : LON0 + rnd.next() * SPAN_LON));
  const asLines = (segs: Float64Array) => Array.from({ length: segs.length / 4 }, (_, i) => ({ type: 'LineString' as const, coordinates: [[segs[4 * i], segs[4 * i + 1]], [segs[4 * i + 2], segs[4 * i + 3]]] }));
  const subjects = Array.from({ length: SUBJECTS }, () => [LON0 + 0.03 + rnd.next() * (SPAN_LON - 0.06), LAT0 + 0.03 + rnd.next() * (SPAN_LAT - 0.06)] as const);
  const input = {
    amenitySets: [{ name: 'bench', categories: WALK_CATEGORIES, points }],
    motorways: { geometries: asLines(motorway), source: 'bench_roads' },
    majorWater: { geometries: asLines(water), source: 'bench_water' },
    crossings: { points: Array.from({ length: CROSSINGS }, (_, i) => ({ lon: crossings[2 * i], lat: crossings[2 * i + 1] })), source: 'bench_crossings' },
  };
  const ref: ReferenceWorld = { amenities, category, motorway, water, crossings };
  return { input, ref, subjects };
}

export const walkabilitySuite: BenchSuite = {
  name: 'walkability',
  description: 'scores.walkability over 50k amenities and 20k barrier segments: in process, worker, brute force',
  async run() {
    const { input, ref, subjects } = world(2024);
    const rows: BenchRow[] = [];
    const size = '50k pts, 20k segs';
    const build = await measure(() => buildWalkabilityIndexes(input), { maxTime: 1, minSamples: 3 });
    rows.push({ benchmark: 'index build (flatbush, shared)', size, msPerOp: build.msPerOp, rme: build.rme, itemsPerSec: (50_000 + 20_000) / (build.msPerOp / 1e3) });

    const ix = buildWalkabilityIndexes(input);
    // Check before timing: the indexed path and the brute-force reference agree on every scenario and the score.
    for (const [lon, lat] of subjects.slice(0, 8)) {
      const fast = computeWalkability(ix, lon, lat);
      const slow = referenceWalkability(ref, lon, lat);
      if (fast.score !== slow.score || fast.scenarios.some((s, i) => s.reachable_count !== slow.reach[i])) {
        throw new Error(`walkability disagrees with the reference at ${lon},${lat}: ${fast.score} vs ${slow.score}`);
      }
    }
    let k = 0;
    const local = await measure(() => {
      const [lon, lat] = subjects[k++ % subjects.length];
      return computeWalkability(ix, lon, lat).score;
    });
    const brute = await measure(() => {
      const [lon, lat] = subjects[k++ % subjects.length];
      return referenceWalkability(ref, lon, lat).score;
    }, { maxTime: 1, minSamples: 3 });
    rows.push(compared({ benchmark: 'one score, in process', size, msPerOp: local.msPerOp, rme: local.rme, itemsPerSec: 1e3 / local.msPerOp, reference: 'linear scan + brute force', note: `target < 2 ms/subject: ${local.msPerOp < 2 ? 'met' : 'NOT met'}` }, brute.msPerOp));

    const pool = createEnginePool({ threads: 1 });
    try {
      const shared = shareWalkabilityIndexes(ix);
      await pool.run('walkability', { indexes: shared, lon: subjects[0][0], lat: subjects[0][1] }); // warm the worker
      const worker = await measureAsync(() => {
        const [lon, lat] = subjects[k++ % subjects.length];
        return pool.run('walkability', { indexes: shared, lon, lat });
      });
      rows.push(compared({ benchmark: 'one score, worker (shared indexes)', size, msPerOp: worker.msPerOp, rme: worker.rme, itemsPerSec: 1e3 / worker.msPerOp, reference: 'in process', note: 'includes the message round trip and Flatbush.from' }, local.msPerOp));
    } finally {
      await pool.destroy();
    }
    return rows;
  },
};
