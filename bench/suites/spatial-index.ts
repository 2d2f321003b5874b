/**
 * flatbush point index vs a linear scan on 1M points: radius (500 m) and k-nearest (k = 10) queries in
 * metres, plus index build throughput. Points are uniform in a 60 x 60 km box around Melbourne (about 280
 * per km², so a 500 m circle holds about 220).
 */
import { distanceMetres, seededRandom } from '../../engine/entry/geo.js';
import { PointIndex } from '../../engine/entry/data.js';
import { measure } from '../lib/measure.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';

const N = 1_000_000;
const QUERIES = 1024;

function linearWithin(coords: Float64Array, lon: number, lat: number, r: number): number {
  let count = 0;
  for (let i = 0; i < coords.length; i += 2) if (distanceMetres(lon, lat, coords[i], coords[i + 1]) <= r) count++;
  return count;
}

function linearNearest(coords: Float64Array, lon: number, lat: number, k: number): number[] {
  // Keep the k smallest distances in a sorted array (k is small).
  const best: number[] = [];
  const ids: number[] = [];
  for (let i = 0; i < coords.length; i += 2) {
    const d = distanceMetres(lon, lat, coords[i], coords[i + 1]);
    if (best.length === k && d >= best[k - 1]) continue;
    let j = best.length < k ? best.length : k - 1;
    while (j > 0 && best[j - 1] > d) {
      best[j] = best[j - 1];
      ids[j] = ids[j - 1];
      j--;
    }
    best[j] = d;
    ids[j] = i / 2;
  }
  return ids;
}

export const spatialIndexSuite: BenchSuite = {
  name: 'spatial-index',
  description: 'flatbush radius and kNN queries in metres vs a linear scan, 1M points',
  async run() {
    const rnd = seededRandom(42);
    const coords = new Float64Array(N * 2);
    for (let i = 0; i < N; i++) {
      coords[2 * i] = 144.6 + rnd.next() * 0.68; // about 60 km of longitude at 37.8 S
      coords[2 * i + 1] = -38.1 + rnd.next() * 0.54; // about 60 km of latitude
    }
    const queries = Array.from({ length: QUERIES }, () => [144.65 + rnd.next() * 0.58, -38.05 + rnd.next() * 0.44]);
    const rows: BenchRow[] = [];

    const build = await measure(() => PointIndex.build(coords), { maxTime: 2, minSamples: 3 });
    rows.push({ benchmark: 'flatbush build (SharedArrayBuffer)', size: '1M points', msPerOp: build.msPerOp, rme: build.rme, itemsPerSec: N / (build.msPerOp / 1e3) });

    const index = PointIndex.build(coords);
    let q = 0;
    // Check before timing: the index and the scan agree on every query used.
    for (const [lon, lat] of queries.slice(0, 16)) {
      if (index.within(lon, lat, 500).length !== linearWithin(coords, lon, lat, 500)) throw new Error('index and linear scan disagree on within 500 m');
      const knnIds = index.nearest(lon, lat, 10).map((h) => h.id).join(',');
      if (knnIds !== linearNearest(coords, lon, lat, 10).join(',')) throw new Error('index and linear scan disagree on the 10 nearest');
    }
    const within = await measure(() => {
      const [lon, lat] = queries[q++ % QUERIES];
      return index.within(lon, lat, 500).length;
    });
    const linear = await measure(() => {
      const [lon, lat] = queries[q++ % QUERIES];
      return linearWithin(coords, lon, lat, 500);
    }, { minSamples: 3 });
    rows.push(compared({ benchmark: 'within 500 m (~220 hits)', size: '1M points', msPerOp: within.msPerOp, rme: within.rme, reference: 'linear scan' }, linear.msPerOp));

    const knn = await measure(() => {
      const [lon, lat] = queries[q++ % QUERIES];
      return index.nearest(lon, lat, 10).length;
    });
    const knnLinear = await measure(() => {
      const [lon, lat] = queries[q++ % QUERIES];
      return linearNearest(coords, lon, lat, 10).length;
    }, { minSamples: 3 });
    rows.push(compared({ benchmark: 'nearest k=10', size: '1M points', msPerOp: knn.msPerOp, rme: knn.rme, reference: 'linear scan' }, knnLinear.msPerOp));

    const attach = await measure(() => PointIndex.fromShared(index.toShared()).count);
    rows.push({ benchmark: 'attach shared index (Flatbush.from)', size: '1M points', msPerOp: attach.msPerOp, rme: attach.rme, note: 'what a worker pays instead of a rebuild' });
    return rows;
  },
};
