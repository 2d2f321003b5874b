/**
 * All the context scores of issue 7 (walkability, bushfire, heat island, solar, view quality, contamination,
 * aircraft noise) for seeded subjects in a synthetic 7 x 7 km town with warm indexes: layers indexed and
 * rasters in memory before timing, as a server holds them. One row per score, one for all seven together
 * (target: under 10 ms per subject), and one for the heat surface (a surface, not a score, so apart).
 * The synthetic rows time the score functions alone on seeded points. The engine rows time what the issue
 * asks for, all scores for each sandbox address: `engine.scores` over the sample world's twelve sandbox
 * addresses (raster reads, the worker-pool walkability task and all), after one untimed pass that builds the
 * indexes and decodes the raster blocks; ms/op is the p50 per subject, with p50/p95 in the note.
 */
import type { Feature, Geometry } from 'geojson';
import { destination, northUpTransform, createWindow, windowGridSpec, seededRandom } from '../../engine/entry/geo.js';
import { cellCentre, createGrid, type Grid } from '../../engine/entry/raster.js';
import { aircraftNoiseScore, buildAnefLayer, VEGETATION_CLASSES, buildBushfireLayers, bushfireScore, buildContaminationRegister, contaminationScore, heatIslandScore, solarScore, viewQualityScore, WALK_CATEGORIES, buildWalkabilityIndexes, type AmenityPoint, computeWalkability, walkSlopeFromDem, heatSurface, CONTEXT_SCORE_KEYS, type ContextScoreKey } from '../../engine/entry/scores.js';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/index.js';
import { measure, sink } from '../lib/measure.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

const LON = 145.05, LAT = -37.75, STATE = 'VIC';
const SUBJECTS = 16;

function town(seed: number) {
  const rnd = seededRandom(seed);
  const at = (e: number, n: number) => destination(LON, LAT, Math.hypot(e, n), (Math.atan2(e, n) * 180) / Math.PI);
  const rect = (e: number, n: number, w: number, h: number): Geometry => ({ type: 'Polygon', coordinates: [[at(e, n), at(e + w, n), at(e + w, n + h), at(e, n + h), at(e, n)]] });
  const feature = (geometry: Geometry, properties: Record<string, unknown>): Feature<Geometry> => ({ type: 'Feature', properties, geometry });
  // Terrain: a valley with a creek along it and rolling hills, 10 m cells over 7 km.
  const w = createWindow(LON, LAT, 3500);
  const dem = createGrid(windowGridSpec(w, 10), Float32Array);
  for (let r = 0; r < dem.height; r++) for (let c = 0; c < dem.width; c++) {
    const [x, y] = cellCentre(dem, c, r);
    const e = x - w.x, n = y - w.y;
    dem.data[r * dem.width + c] = 60 + 0.012 * Math.abs(e - 300) + 15 * Math.sin(n / 700) * Math.cos(e / 900);
  }
  const points: AmenityPoint[] = Array.from({ length: 5000 }, (_, i) => {
    const [lon, lat] = at(rnd.range(-3000, 3000), rnd.range(-3000, 3000));
    return { id: String(i), name: '', lon, lat, category: rnd.pick(WALK_CATEGORIES), crowdSourced: rnd.chance(0.6), source: 'bench_amenities' };
  });
  const walk = buildWalkabilityIndexes({
    amenitySets: [{ name: 'all', categories: WALK_CATEGORIES, points }],
    motorways: { geometries: [{ type: 'LineString', coordinates: Array.from({ length: 61 }, (_, i) => at(-1200 + 20 * Math.sin(i / 5), -3000 + 100 * i)) }], source: 'bench_roads' },
    majorWater: { geometries: [{ type: 'LineString', coordinates: Array.from({ length: 61 }, (_, i) => at(300 + 60 * Math.sin(i / 3), -3000 + 100 * i)) }], source: 'bench_water' },
    crossings: { points: [-2000, -500, 1000, 2500].flatMap((n) => [at(-1200, n), at(300, n)]).map(([lon, lat]) => ({ lon, lat })), source: 'bench_crossings' },
  });
  const bushfire = buildBushfireLayers({
    officialOverlays: { VIC: { coverage: 'complete', source: 'bench_bmo', features: Array.from({ length: 30 }, () => feature(rect(rnd.range(-3500, 3000), rnd.range(-3500, 3000), 500, 500), { ZONE_CODE: 'BMO' })) } },
    vegetation: { source: 'bench_veg', features: Array.from({ length: 300 }, () => feature(rect(rnd.range(-3500, 3300), rnd.range(-3500, 3300), rnd.range(40, 300), rnd.range(40, 300)), { veg_class: rnd.pick(VEGETATION_CLASSES) })) },
    fireHistory: { source: 'bench_fire', features: Array.from({ length: 20 }, () => feature(rect(rnd.range(-3500, 2500), rnd.range(-3500, 2500), 1000, 800), { fire_year: 1990 + rnd.int(35), fire_type: rnd.chance(0.5) ? 'bushfire' : 'prescribed' })) },
  });
  const lonlatGrid = (cellDeg: number, cells: number, f: (i: number) => number): Grid<Float32Array> => ({
    width: cells, height: cells, data: Float32Array.from({ length: cells * cells }, (_, i) => f(i)), noData: NaN,
    transform: northUpTransform(LON - (cells / 2) * cellDeg, LAT + (cells / 2) * cellDeg, cellDeg), crs: 'EPSG:4326',
  });
  const lst = lonlatGrid(0.01, 40, () => 30 + rnd.normal() * 1.5);
  const solar = {
    ghi: { grid: lonlatGrid(0.0025, 40, () => 4.6 + rnd.next() * 0.2), source: 'bench_ghi' },
    dni: { grid: lonlatGrid(0.0025, 40, () => 5.1 + rnd.next() * 0.2), source: 'bench_dni' },
    pvout: { grid: lonlatGrid(0.01, 20, () => 3.9 + rnd.next() * 0.1), source: 'bench_pvout' },
    optimumTilt: { grid: lonlatGrid(0.04, 8, () => 32 + rnd.next()), source: 'bench_opta' },
  };
  const register = buildContaminationRegister(Array.from({ length: 300 }, (_, i) => {
    const [lon, lat] = at(rnd.range(-3000, 3000), rnd.range(-3000, 3000));
    return { site_id: `e${i}`, lon, lat, name: '', status: rnd.chance(0.3) ? 'Remediated' : 'Notified', register: 'bench', state: STATE, source: 'bench_epa' };
  }), { VIC: 'complete' });
  const anef = buildAnefLayer({ file: 'bench', features: [15, 20, 25, 30, 35].map((m, i) => feature(rect(-2800 + 400 * i, 1000 + 150 * i, 3000 - 600 * i, 1500 - 250 * i), { anef_min: m, anef_max: m + 5, airport: 'Bench', source: 'bench_anef' })) }, { VIC: 'complete' });
  const landCover = createGrid(windowGridSpec(w, 10), Uint8Array, { noData: 0 });
  for (let i = 0; i < landCover.data.length; i++) landCover.data[i] = rnd.pick([10, 10, 30, 50, 50, 50, 60, 80]);
  const subjects = Array.from({ length: SUBJECTS }, () => at(rnd.range(-1000, 1000), rnd.range(-1000, 1000)));
  return { demLayer: { grid: dem, source: 'bench_dem' }, walk, bushfire, lst: { grid: lst, source: 'bench_lst' }, solar, register, anef, landCover, subjects };
}

export const scoresSuite: BenchSuite = {
  name: 'scores',
  description: 'the seven context scores of issue 7 per subject with warm indexes, the heat surface, and engine.scores on the sandbox addresses',
  async run() {
    const t = town(7);
    const { demLayer: dem } = t;
    const scorers: [string, (lon: number, lat: number) => unknown][] = [
      ['walkability (with DEM slope)', (lon, lat) => computeWalkability(t.walk, lon, lat, { slope: walkSlopeFromDem(dem, lon, lat) }).score],
      ['bushfire (with indicative BAL)', (lon, lat) => bushfireScore(t.bushfire, { lon, lat, state: STATE }, { dem }).score],
      ['heat_island', (lon, lat) => heatIslandScore({ lon, lat, lst: t.lst }).score],
      ['solar', (lon, lat) => solarScore({ lon, lat, ...t.solar }).score],
      ['view_quality', (lon, lat) => viewQualityScore({ lon, lat, dem }).score],
      ['contamination', (lon, lat) => contaminationScore(t.register, { lon, lat, state: STATE }).score],
      ['aircraft_noise', (lon, lat) => aircraftNoiseScore(t.anef, { lon, lat, state: STATE }).score],
    ];
    // Every scorer answers for every subject before timing (a null would mean a broken fixture).
    for (const [name, fn] of scorers) for (const [lon, lat] of t.subjects) if (fn(lon, lat) === null) throw new Error(`${name} answered null at ${lon},${lat}`);
    const rows: BenchRow[] = [];
    const size = `${SUBJECTS} subjects`;
    let k = 0;
    for (const [name, fn] of scorers) {
      const m = await measure(() => {
        const [lon, lat] = t.subjects[k++ % SUBJECTS];
        return fn(lon, lat);
      });
      rows.push({ benchmark: name, size, msPerOp: m.msPerOp, rme: m.rme, itemsPerSec: 1e3 / m.msPerOp });
    }
    const all = await measure(() => {
      const [lon, lat] = t.subjects[k++ % SUBJECTS];
      return scorers.map(([, fn]) => fn(lon, lat));
    });
    rows.push({ benchmark: 'all seven scores', size, msPerOp: all.msPerOp, rme: all.rme, itemsPerSec: 1e3 / all.msPerOp, note: `target < 10 ms/subject: ${all.msPerOp < 10 ? 'met' : 'NOT met'}` });
    const heat = await measure(() => {
      const [lon, lat] = t.subjects[k++ % SUBJECTS];
      return heatSurface(t.landCover, createWindow(lon, lat), 'bench_worldcover').covered_share;
    });
    rows.push({ benchmark: 'surfaces.heat (300x300 at 10 m)', size, msPerOp: heat.msPerOp, rme: heat.rme, itemsPerSec: 90_000 / (heat.msPerOp / 1e3), note: 'cells/s; land cover in memory' });
    rows.push(...(await sandboxRows()));
    return rows;
  },
};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** engine.scores for every sandbox address: each context score alone, then all seven together (warm). */
async function sandboxRows(): Promise<BenchRow[]> {
  const dir = defaultDataDir();
  await ensureSampleWorld(dir);
  const engine = await createEngine({ datasets: dir });
  const rows: BenchRow[] = [];
  try {
    const subjects = await engine.sandbox();
    const ROUNDS = 3;
    const run = async (label: string, only: readonly ContextScoreKey[], target?: number) => {
      const pass = async (times?: number[]) => {
        for (const s of subjects) {
          const t = performance.now();
          const r = await engine.scores(s.lng, s.lat, { only });
          times?.push(performance.now() - t);
          if (r.degraded.length) throw new Error(`${label}: ${r.degraded.join(', ')} degraded at ${s.address}`);
          sink.value = r;
        }
      };
      await pass(); // warm: indexes built, raster blocks decoded, the worker's DEM open
      const xs: number[] = [];
      for (let i = 0; i < ROUNDS; i++) await pass(xs);
      const p50 = pct(xs, 50), p95 = pct(xs, 95);
      rows.push({
        benchmark: `engine.scores ${label}, sandbox`,
        size: `${subjects.length} addresses x ${ROUNDS}`,
        msPerOp: p50,
        note: `p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms per subject${target ? `; target < ${target} ms: ${p50 < target ? 'met' : 'NOT met'}` : ''}`,
      });
    };
    for (const k of CONTEXT_SCORE_KEYS) await run(k === 'walkability' ? 'walkability (worker pool)' : k, [k]);
    await run('all seven', CONTEXT_SCORE_KEYS, 10);
  } finally {
    await engine.close();
  }
  return rows;
}
