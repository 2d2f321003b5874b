/**
 * Roads (the state network with traffic volumes, and crowd-sourced local streets), rail and tram lines,
 * stations, public-transport stops, pedestrian crossings, traffic counters and noise loggers.
 */
import type { Feature, Position } from 'geojson';
import { llFeature, type TileContext } from '../context.js';
import { TILE_HALF_M } from '../frame.js';
import { BUILT_HALF, type Street } from '../layout.js';
import { rlsLevels, type RlsRoad, type RlsSegment } from '../rls90.js';

const r7 = (v: number) => Math.round(v * 1e7) / 1e7;

/** The hidden "true" daily traffic of a local street (published as null: roads without counts). */
function trueLocalAadt(street: Street): number {
  let h = 0;
  for (const ch of street.id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 300 + (h % 1200);
}

/** Mean absolute gradient of a street along its runs, percent. */
function gradientPct(ctx: TileContext, street: Street): number {
  let rise = 0, run = 0;
  for (const r of street.runs) {
    for (let i = 0; i + 1 < r.length; i++) {
      const len = Math.hypot(r[i + 1][0] - r[i][0], r[i + 1][1] - r[i][1]);
      rise += Math.abs(ctx.terrain.elevation(r[i + 1][0], r[i + 1][1]) - ctx.terrain.elevation(r[i][0], r[i][1]));
      run += len;
    }
  }
  return run > 0 ? Math.round((1000 * rise) / run) / 10 : 0;
}

function geometryOf(street: Street) {
  return street.runs.length === 1 ? { type: 'LineString' as const, coordinates: street.runs[0] } : { type: 'MultiLineString' as const, coordinates: street.runs };
}

/** Writes the road layers, rail, stations, stops, crossings, counters and loggers. */
export function writeTransport(ctx: TileContext): void {
  const { layout, spec } = ctx;
  const st = spec.state;
  const lc = spec.id;
  const stateRoads: Feature[] = [];
  const osmRoads: Feature[] = [];
  for (const s of layout.streets) {
    if (s.crowdSourced) {
      osmRoads.push(llFeature(ctx, { osm_id: `way/${100000 + osmRoads.length + ctx.tileIndex * 10000}`, road_id: s.id, name: s.name, highway: 'residential', maxspeed: s.speedKmh, road_class: 'local', aadt: null, heavy_share: null, speed_kmh: s.speedKmh, gradient_pct: gradientPct(ctx, s), crowd_sourced: true, source: 'sample_osm_roads' }, geometryOf(s)));
    } else {
      stateRoads.push(llFeature(ctx, { road_id: s.id, name: s.name, road_class: s.roadClass, aadt: s.aadt, heavy_share: s.heavyShare, speed_kmh: s.speedKmh, gradient_pct: gradientPct(ctx, s), lanes: s.roadClass === 'motorway' ? 6 : s.roadClass === 'arterial' ? 4 : 2, crowd_sourced: false, source: `sample_${lc}_road_network` }, geometryOf(s)));
    }
  }
  const rn = `${ctx.dir}/roads-state.geojson`;
  ctx.writer.geojson(rn, stateRoads);
  ctx.registry.add(`sample_${lc}_road_network`, { path: rn, state: st, layer: 'roads' });
  const on = `${ctx.dir}/roads-osm.geojson`;
  ctx.writer.geojson(on, osmRoads);
  ctx.registry.add('sample_osm_roads', { path: on, state: st });

  const crossings = layout.crossings.map((c, i) => {
    const [lon, lat] = ctx.frame.lonLat(c.x, c.y);
    return { crossing_id: `${st}-X${i + 1}`, lon: r7(lon), lat: r7(lat), kind: c.kind, name: c.name, source: `sample_${lc}_road_network` };
  });
  const cp = `${ctx.dir}/crossings.csv`;
  ctx.writer.csv(cp, ['crossing_id', 'lon', 'lat', 'kind', 'name', 'source'], crossings);
  ctx.registry.add(`sample_${lc}_road_network`, { path: cp, state: st, layer: 'crossings', format: 'csv' });

  const rail = layout.rail.map((r, i) => llFeature(ctx, { line_id: `${st}-${r.mode}-${i + 1}`, name: r.name, mode: r.mode, services_day: r.servicesDay, speed_kmh: r.speedKmh, source: 'sample_national_railways' }, { type: 'LineString', coordinates: r.line }));
  const rp = `${ctx.dir}/railways.geojson`;
  ctx.writer.geojson(rp, rail);
  ctx.registry.add('sample_national_railways', { path: rp, state: st });

  const stations = layout.stations.map((s, i) => llFeature(ctx, { station_id: `${st}-STN-${i + 1}`, name: s.name, mode: 'train', lines: spec.railLine, source: `sample_${lc}_rail_stations` }, { type: 'Point', coordinates: [s.x, s.y] }));
  const sp = `${ctx.dir}/rail-stations.geojson`;
  ctx.writer.geojson(sp, stations);
  ctx.registry.add(`sample_${lc}_rail_stations`, { path: sp, state: st });

  // Stops: buses every ~380 m along arterials and collectors (15 m off the centreline), trams, the station.
  const stops: Record<string, unknown>[] = [];
  const addStop = (x: number, y: number, name: string, mode: string) => {
    if (Math.abs(x) > TILE_HALF_M || Math.abs(y) > TILE_HALF_M) return;
    const [lon, lat] = ctx.frame.lonLat(x, y);
    stops.push({ stop_id: `${st}${String(10000 + stops.length)}`, lon: r7(lon), lat: r7(lat), name, mode, source: `sample_${lc}_pt_stops` });
  };
  for (const s of layout.streets) {
    if (s.roadClass !== 'arterial' && s.roadClass !== 'collector') continue;
    for (const run of s.runs) {
      let acc = 190;
      for (let i = 0; i + 1 < run.length; i++) {
        const [ax, ay] = run[i], [bx, by] = run[i + 1];
        const len = Math.hypot(bx - ax, by - ay);
        while (acc < len) {
          const t = acc / len;
          const nx = -(by - ay) / len, ny = (bx - ax) / len;
          addStop(ax + t * (bx - ax) + nx * 15, ay + t * (by - ay) + ny * 15, `${s.name} stop ${stops.length + 1}`, 'bus');
          acc += 380;
        }
        acc -= len;
      }
    }
  }
  for (const t of layout.tramStops) addStop(t.x, t.y, `${t.name} tram stop`, 'tram');
  for (const s of layout.stations) addStop(s.x, s.y, s.name, 'train');
  const pp = `${ctx.dir}/pt-stops.csv`;
  ctx.writer.csv(pp, ['stop_id', 'lon', 'lat', 'name', 'mode', 'source'], stops);
  ctx.registry.add(`sample_${lc}_pt_stops`, { path: pp, state: st });

  if (!spec.has.counters) return;
  // Counters on the motorway and each arterial, near the middle of a run.
  const counters: Record<string, unknown>[] = [];
  const counterSites: { street: Street; run: Position[]; i: number }[] = [];
  for (const s of layout.streets.filter((x) => x.roadClass === 'motorway' || x.roadClass === 'arterial')) {
    const run = s.runs[0];
    const i = Math.floor(run.length / 2);
    const [x, y] = run[i];
    if (Math.abs(x) > TILE_HALF_M - 100 || Math.abs(y) > TILE_HALF_M - 100) continue;
    counterSites.push({ street: s, run, i });
    const [lon, lat] = ctx.frame.lonLat(x, y);
    counters.push({ counter_id: `${st}-TC-${counters.length + 1}`, lon: r7(lon), lat: r7(lat), road_id: s.id, road_name: s.name, aadt: Math.round(s.aadt! * (1 + 0.02 * ctx.rnd.normal())), heavy_share: s.heavyShare, speed_kmh: s.speedKmh, year: 2025, source: `sample_${lc}_traffic_counters` });
  }
  const tp = `${ctx.dir}/traffic-counters.csv`;
  ctx.writer.csv(tp, ['counter_id', 'lon', 'lat', 'road_id', 'road_name', 'aadt', 'heavy_share', 'speed_kmh', 'year', 'source'], counters);
  ctx.registry.add(`sample_${lc}_traffic_counters`, { path: tp, state: st });

  if (!spec.has.loggers) return;
  writeLoggers(ctx, counterSites);
}

/**
 * Noise loggers simulated with RLS-90 (see rls90.ts) plus a seeded site error of 1.5 dB standard deviation.
 * Loggers stand 25, 60 and 150 m from a counted road within about 150 m of its counter, as monitoring
 * campaigns pair loggers with count sites, plus a few in quiet streets.
 */
function writeLoggers(ctx: TileContext, counterSites: { street: Street; run: Position[]; i: number }[]): void {
  const { layout, spec } = ctx;
  const st = spec.state;
  const segments: RlsSegment[] = [];
  for (const s of layout.streets) {
    const road: RlsRoad = {
      aadt: s.aadt ?? trueLocalAadt(s),
      heavyDay: s.heavyShare ?? 0.02,
      heavyNight: Math.min(0.6, (s.heavyShare ?? 0.02) * (s.roadClass === 'motorway' ? 1.8 : s.roadClass === 'arterial' ? 1 : s.roadClass === 'collector' ? 0.5 : 0.3)),
      speedKmh: s.speedKmh,
      nightFactor: s.roadClass === 'motorway' ? 0.014 : s.roadClass === 'collector' ? 0.008 : 0.011,
    };
    for (const run of s.runs) for (let i = 0; i + 1 < run.length; i++) segments.push({ ax: run[i][0], ay: run[i][1], bx: run[i + 1][0], by: run[i + 1][1], road });
  }
  // Sites at set distances from the motorway and arterials, plus quiet streets; away from rail and tram.
  const sites: Position[] = [];
  const railLines = layout.rail.map((r) => r.line);
  const farFromRail = (x: number, y: number) => railLines.every((line) => line.every(([rx, ry]) => Math.hypot(rx - x, ry - y) > 250));
  for (const { run, i: at } of counterSites) {
    for (const offset of [25, 60, 150]) {
      const i = Math.min(run.length - 1, Math.max(0, at + ctx.rnd.int(5) - 2));
      const [ax, ay] = run[Math.max(0, i - 1)], [bx, by] = run[Math.min(run.length - 1, i + 1)];
      const len = Math.hypot(bx - ax, by - ay) || 1;
      const side = ctx.rnd.chance(0.5) ? 1 : -1;
      const x = run[i][0] - ((by - ay) / len) * offset * side, y = run[i][1] + ((bx - ax) / len) * offset * side;
      if (Math.abs(x) < TILE_HALF_M - 200 && Math.abs(y) < TILE_HALF_M - 200 && farFromRail(x, y)) sites.push([x, y]);
    }
  }
  for (let i = 0; i < 3; i++) {
    const [x, y] = layout.xy(ctx.rnd.range(-BUILT_HALF, BUILT_HALF) * 0.6, ctx.rnd.range(-BUILT_HALF, BUILT_HALF) * 0.6);
    if (farFromRail(x, y)) sites.push([x, y]);
  }
  const rows = sites.map(([x, y], i) => {
    const truth = rlsLevels(x, y, segments);
    const err = 1.5 * ctx.rnd.normal();
    const [lon, lat] = ctx.frame.lonLat(x, y);
    const r1 = (v: number) => Math.round(v * 10) / 10;
    return { logger_id: `${st}-NL-${i + 1}`, lon: r7(lon), lat: r7(lat), state: st, lden_db: r1(truth.lden + err), laeq_day_db: r1(truth.day + err), laeq_night_db: r1(truth.night + err), year: 2024, source: `sample_${spec.id}_noise_loggers` };
  });
  const path = `${ctx.dir}/noise-loggers.csv`;
  ctx.writer.csv(path, ['logger_id', 'lon', 'lat', 'state', 'lden_db', 'laeq_day_db', 'laeq_night_db', 'year', 'source'], rows);
  ctx.registry.add(`sample_${spec.id}_noise_loggers`, { path, state: st });
}
