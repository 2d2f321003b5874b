/**
 * The noise model: surfaces.noise (9x9 and 7x7 grids) and scores.noise (one point) on a warm network, in
 * process and on a worker. Seeded synthetic roads put 2,000 road segments within range of the 9x9 grid
 * (200 roads of 10 segments in a 4 km square, with counters and loggers so the transfer path runs); the
 * sample world's VIC tile is measured through the network the property lookup builds (noiseNetworkFor) at a
 * sandbox address; when present, the real Vicmap road network of central Melbourne is measured too (class
 * from ROAD_TYPE and names, engine/noise/vicmap-road-class.ts; every road on class defaults). Every grid row
 * says how many segments are in range, since the 5 ms target is stated for 2,000.
 *
 * Reference: no external tool computes CoRTN grids, so the grid is compared with the engine's own
 * per-node evaluation (every node searching and evaluating the segments afresh), which is what the shared
 * per-segment set-up saves. Targets (issue 5): 9x9 grid under 5 ms, single-point score under 0.5 ms.
 */
import type { Geometry } from 'geojson';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { openDataStore, readGeoJsonLayer } from '../../engine/entry/data.js';
import { getTransformer, LONLAT, distanceMetres, seededRandom } from '../../engine/entry/geo.js';
import type { NoiseLoggerRecord, RoadInput, TrafficCounter } from '../../engine/entry/noise.js';
import { buildNoiseNetwork, type NoiseNetwork, noiseGridNodes, noiseSurface, noiseSurfaceOnPool, noiseScore, evaluateNoisePoint, ROAD_CLASSES, type RoadClass, inferVicmapRoadClass } from '../../engine/entry/noise.js';
import { noiseNetworkFor } from '../../engine/entry/scores.js';
import { createEnginePool } from '../../engine/entry/runtime.js';
import { measure, measureAsync } from '../lib/measure.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';

/** The subject of the synthetic world and of the Melbourne run: Flinders Street, Melbourne. */
const SUBJECT = { lon: 144.9671, lat: -37.8183 };
const CRS = 'EPSG:7855';
/** The sample world's subject: sandbox address 1/91 Harding Road, Northcote VIC (road and tram noise). */
const SAMPLE_SUBJECT = { lon: 144.9771534, lat: -37.7522032 };
/** The segment count the grid target is stated for. */
const TARGET_SEGMENTS = 2000;

type Subject = { lon: number; lat: number };

export function syntheticWorld(seed: number): { roads: RoadInput[]; counters: TrafficCounter[]; loggers: NoiseLoggerRecord[] } {
  const rnd = seededRandom(seed);
  const [sx, sy] = getTransformer(LONLAT, CRS).forward(SUBJECT.lon, SUBJECT.lat);
  const back = getTransformer(CRS, LONLAT);
  const weights: [RoadClass, number][] = [['motorway', 0.03], ['arterial', 0.12], ['collector', 0.25], ['local', 0.6]];
  const roads: RoadInput[] = [];
  const counters: TrafficCounter[] = [];
  for (let i = 0; i < 200; i++) {
    let x = sx + rnd.range(-1900, 1900), y = sy + rnd.range(-1900, 1900);
    let heading = rnd.range(0, 2 * Math.PI);
    const coords: number[][] = [back.forward(x, y)];
    for (let k = 0; k < 10; k++) {
      heading += rnd.range(-0.4, 0.4);
      const step = rnd.range(40, 120);
      x += step * Math.cos(heading);
      y += step * Math.sin(heading);
      coords.push(back.forward(x, y));
    }
    let u = rnd.next();
    const cls = weights.find(([, w]) => (u -= w) < 0)?.[0] ?? 'local';
    const counted = cls !== 'local' && rnd.chance(0.3);
    roads.push({
      id: `r${i}`,
      name: `Road ${i}`,
      roadClass: cls,
      aadt: rnd.chance(0.5) ? Math.round(rnd.range(0.5, 1.5) * { motorway: 60000, arterial: 20000, collector: 5000, local: 1000 }[cls]) : null,
      heavyShare: null,
      speedKmh: null,
      gradientPct: null,
      crowdSourced: cls === 'local',
      source: cls === 'local' ? 'osm' : 'roads',
      barrierHeightM: null,
      barrierOffsetM: null,
      geometry: { type: 'LineString', coordinates: coords },
    });
    if (counted) {
      const [lon, lat] = coords[5];
      counters.push({ id: `c${i}`, lon, lat, roadId: `r${i}`, roadName: `Road ${i}`, aadt: Math.round(rnd.range(5000, 50000)), heavyShare: 0.05, speedKmh: 60, year: 2024, source: 'counters' });
    }
  }
  // Loggers beside counters, "measured" as the physics level plus a seeded site error (bench data only).
  const plain = buildNoiseNetwork({ roads, counters });
  const loggers: NoiseLoggerRecord[] = counters.slice(0, 30).map((c, i) => {
    const lon = c.lon + rnd.range(-0.001, 0.001), lat = c.lat + rnd.range(-0.001, 0.001);
    return { id: `l${i}`, lon, lat, state: 'VIC', ldenDb: evaluateNoisePoint(plain, lon, lat).ldenDb + 2 + rnd.normal(), laeqDayDb: null, laeqNightDb: null, year: 2024, source: 'loggers' };
  });
  return { roads, counters, loggers };
}

function segmentsInRange(net: NoiseNetwork, cells: number, at: Subject = SUBJECT): number {
  const nodes = noiseGridNodes(net, at.lon, at.lat, cells);
  const r = net.receiver.maxDistanceM;
  const xs = Array.from(nodes.x), ys = Array.from(nodes.y);
  return net.scene.segmentsInBox(Math.min(...xs) - r, Math.min(...ys) - r, Math.max(...xs) + r, Math.max(...ys) + r).length;
}

/** Per-node evaluation without the shared set-up: the reference the grid kernel is compared with. */
function perNodeGrid(net: NoiseNetwork, cells: number, at: Subject = SUBJECT): number {
  const nodes = noiseGridNodes(net, at.lon, at.lat, cells);
  let s = 0;
  for (let j = 0; j < nodes.x.length; j++) s += evaluateNoisePoint(net, nodes.lon[j], nodes.lat[j]).ldenDb;
  return s;
}

/** How the segments in range compare with the count the 5 ms target is stated for. */
function targetNote(segments: number): string {
  return `target < 5 ms is stated for ${TARGET_SEGMENTS.toLocaleString('en-AU')} segments; ${segments.toLocaleString('en-AU')} in range here`;
}

async function measureNetwork(label: string, net: NoiseNetwork, rows: BenchRow[], at: Subject = SUBJECT): Promise<{ grid9: number }> {
  const seg9 = segmentsInRange(net, 9, at);
  const seg7 = segmentsInRange(net, 7, at);
  noiseScore(net, at.lon, at.lat); // warm the caches (calibration pairs, validation)
  const grid9 = await measure(() => noiseSurface(net, at.lon, at.lat, { cells: 9 }).lden_db.length);
  const grid7 = await measure(() => noiseSurface(net, at.lon, at.lat, { cells: 7 }).lden_db.length);
  const naive = await measure(() => perNodeGrid(net, 9, at), { minSamples: 3 });
  const point = await measure(() => noiseScore(net, at.lon, at.lat).lden_db);
  rows.push(compared({ benchmark: `${label}: surface 9x9 in process`, size: `${seg9} segments`, msPerOp: grid9.msPerOp, rme: grid9.rme, itemsPerSec: (81 * seg9) / (grid9.msPerOp / 1e3), reference: 'per-node evaluation', note: `${targetNote(seg9)}; items = node-segment pairs` }, naive.msPerOp));
  rows.push({ benchmark: `${label}: surface 7x7 in process`, size: `${seg7} segments`, msPerOp: grid7.msPerOp, rme: grid7.rme, itemsPerSec: (49 * seg7) / (grid7.msPerOp / 1e3), note: `9x9 costs ${(grid9.msPerOp / grid7.msPerOp).toFixed(2)}x 7x7 (81/49 = 1.65; spec service 2.6x)` });
  rows.push({ benchmark: `${label}: scores.noise one point`, size: `${seg9} segments`, msPerOp: point.msPerOp, rme: point.rme, note: 'target < 0.5 ms; warm network' });
  // The two physics methods side by side (issue 49): the same 7x7 nodes, CoRTN against CNOSSOS-EU per band.
  noiseSurface(net, at.lon, at.lat, { cells: 7, method: 'cnossos' }); // its per-scene table, once
  const cn7 = await measure(() => noiseSurface(net, at.lon, at.lat, { cells: 7, method: 'cnossos' }).lden_db.length);
  const a = noiseSurface(net, at.lon, at.lat, { cells: 7 }).lden_db, b = noiseSurface(net, at.lon, at.lat, { cells: 7, method: 'cnossos' }).lden_db;
  const diffs = a.flatMap((v, j) => (v !== null && b[j] !== null ? [b[j]! - v] : []));
  const mean = diffs.reduce((x, y) => x + y, 0) / Math.max(1, diffs.length);
  rows.push(compared({ benchmark: `${label}: surface 7x7, cnossos method`, size: `${seg7} segments`, msPerOp: cn7.msPerOp, rme: cn7.rme, reference: 'the cortn method (surface 7x7 in process)', note: `target within 3x the CoRTN grid; node Lden CNOSSOS - CoRTN: mean ${mean.toFixed(2)} dB, from ${Math.min(...diffs).toFixed(1)} to ${Math.max(...diffs).toFixed(1)} dB` }, grid7.msPerOp));
  return { grid9: grid9.msPerOp };
}

async function melbourneNetwork(file: string): Promise<{ net: NoiseNetwork; roads: number; skipped: number; classes: string }> {
  const layer = await readGeoJsonLayer(file);
  const lengthOf = (g: Geometry) => {
    let m = 0;
    if (g.type === 'LineString') for (let i = 0; i + 1 < g.coordinates.length; i++) m += distanceMetres(g.coordinates[i][0], g.coordinates[i][1], g.coordinates[i + 1][0], g.coordinates[i + 1][1]);
    return m;
  };
  const named = new Map<string, number>();
  for (const f of layer.features) {
    const name = String(f.properties?.EZI_RDNAME ?? '');
    named.set(name, (named.get(name) ?? 0) + lengthOf(f.geometry));
  }
  const roads: RoadInput[] = [];
  const counts = Object.fromEntries(ROAD_CLASSES.map((c) => [c, 0])) as Record<RoadClass, number>;
  let skipped = 0;
  for (const f of layer.features) {
    const p = (f.properties ?? {}) as Record<string, unknown>;
    const cls = inferVicmapRoadClass(p, named.get(String(p.EZI_RDNAME ?? '')) ?? 0);
    if (!cls || (f.geometry.type !== 'LineString' && f.geometry.type !== 'MultiLineString')) {
      skipped++;
      continue;
    }
    counts[cls]++;
    roads.push({ id: String(p.PFI ?? roads.length), name: String(p.EZI_RDNAME ?? ''), roadClass: cls, aadt: null, heavyShare: null, speedKmh: null, gradientPct: null, crowdSourced: false, source: 'vicmap_transport_roads', barrierHeightM: null, barrierOffsetM: null, geometry: f.geometry });
  }
  const classes = ROAD_CLASSES.map((c) => `${c} ${counts[c]}`).join(', ');
  return { net: buildNoiseNetwork({ roads }), roads: roads.length, skipped, classes };
}

export const noiseSuite: BenchSuite = {
  name: 'noise',
  description: 'noise surface 9x9/7x7 and single-point score on a warm network; worker task; Melbourne Vicmap roads',
  async run() {
    const rows: BenchRow[] = [];
    const world = syntheticWorld(7);
    const build = await measure(() => buildNoiseNetwork(world).features.length, { minSamples: 3 });
    const net = buildNoiseNetwork(world);
    rows.push({ benchmark: 'synthetic: build network (project, index, emissions)', size: `${net.scene.segmentCount} segments`, msPerOp: build.msPerOp, rme: build.rme, note: 'cold, once per dataset' });
    const { grid9 } = await measureNetwork('synthetic', net, rows);

    const pool = createEnginePool({ threads: 1 });
    try {
      await noiseSurfaceOnPool(pool, net, SUBJECT.lon, SUBJECT.lat, { cells: 9 }); // warm the worker
      const onPool = await measureAsync(() => noiseSurfaceOnPool(pool, net, SUBJECT.lon, SUBJECT.lat, { cells: 9 }));
      rows.push(compared({ benchmark: 'synthetic: surface 9x9 on a worker (noise-grid task)', size: `${net.scene.segmentCount} segments`, msPerOp: onPool.msPerOp, rme: onPool.rme, reference: 'in process', note: 'shared scene; includes the message round trip' }, grid9));
    } finally {
      await pool.destroy();
    }

    const sampleDir = defaultDataDir();
    if (existsSync(join(sampleDir, 'catalogue.json'))) {
      const store = await openDataStore(sampleDir);
      const t0 = performance.now();
      const vic = noiseNetworkFor(store, 'VIC');
      const ms = performance.now() - t0;
      if (vic) {
        rows.push({ benchmark: 'sample world VIC: build network (noiseNetworkFor)', size: `${vic.features.length} features, ${vic.scene.segmentCount} segments`, msPerOp: ms, note: 'one run; roads, rail, counters, loggers, ANEF of the tile' });
        await measureNetwork('sample world VIC', vic, rows, SAMPLE_SUBJECT);
      }
    } else {
      process.stdout.write(`noise: no sample world in ${sampleDir}; skipping its rows (propintel sample-world generates it)\n`);
    }

    const file = process.env.PROPINTEL_REALDATA
      ? `${process.env.PROPINTEL_REALDATA}/roads/melbourne_central_vicmap_roads.geojson`
      : fileURLToPath(new URL('../../../../shared/realdata/roads/melbourne_central_vicmap_roads.geojson', import.meta.url));
    if (existsSync(file)) {
      const t0 = performance.now();
      const m = await melbourneNetwork(file);
      const ms = performance.now() - t0;
      rows.push({ benchmark: 'melbourne vicmap: load + build network', size: `${m.roads} roads, ${m.net.scene.segmentCount} segments`, msPerOp: ms, note: `one run; ${m.skipped} paths/tunnels skipped; ${m.classes}` });
      await measureNetwork('melbourne vicmap', m.net, rows);
    } else {
      process.stdout.write(`noise: ${file} not found; skipping the Melbourne Vicmap rows\n`);
    }
    return rows;
  },
};
