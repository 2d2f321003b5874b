/** Administrative areas (LGA, electorates), SA1/SA2 social housing and approvals, and utilities. */
import type { Feature, Position } from 'geojson';
import { llFeature, polygonal, type TileContext } from '../context.js';
import { TILE_HALF_M } from '../frame.js';
import { maskToPolygons, tileMask } from '../geometry.js';
import { COL, ROW } from '../layout.js';

const tileRing = (): Position[] => [[-TILE_HALF_M, -TILE_HALF_M], [TILE_HALF_M, -TILE_HALF_M], [TILE_HALF_M, TILE_HALF_M], [-TILE_HALF_M, TILE_HALF_M], [-TILE_HALF_M, -TILE_HALF_M]];

/** Polygons of the two sides of a split, or the whole tile when both names are the same. */
function split(ctx: TileContext, names: [string, string], firstSide: (x: number, y: number) => boolean): [string, Position[][][]][] {
  if (names[0] === names[1]) return [[names[0], [[tileRing()]]]];
  return [
    [names[0], maskToPolygons(tileMask(20, firstSide), 20, 40000)],
    [names[1], maskToPolygons(tileMask(20, (x, y) => !firstSide(x, y)), 20, 40000)],
  ];
}

/** Writes LGAs, state electorates and federal divisions. */
export function writeAdministrative(ctx: TileContext): void {
  const st = ctx.spec.state;
  const left = (x: number, y: number) => ctx.terrain.creekDistance(x, y) > 0;
  const lgaFeatures: Feature[] = [];
  for (const [name, polys] of split(ctx, ctx.spec.councils, left)) {
    const lga = name.replace(/ (City )?Council$/, '').replace(/^(City|Town) of /, '');
    for (const p of polys) lgaFeatures.push(llFeature(ctx, { LGA_CODE: `${st === 'ACT' ? 89399 : 20000 + ctx.tileIndex * 100 + lgaFeatures.length}`, LGA_NAME: st === 'ACT' ? 'Unincorporated ACT' : lga, STATE: st }, polygonal([p])));
  }
  const lp = `${ctx.dir}/lga.geojson`;
  ctx.writer.geojson(lp, lgaFeatures);
  ctx.registry.add('sample_abs_lga', { path: lp, state: st });
  const north = (x: number, y: number) => ctx.layout.pq(x, y)[1] > 3 * ROW;
  const west = (x: number, y: number) => ctx.layout.pq(x, y)[0] < -4 * COL;
  const se = split(ctx, ctx.spec.stateElectorates, north).flatMap(([name, polys]) => polys.map((p) => llFeature(ctx, { name, level: 'state', jurisdiction: st }, polygonal([p]))));
  const sep = `${ctx.dir}/state-electorates.geojson`;
  ctx.writer.geojson(sep, se);
  ctx.registry.add('sample_state_electorates', { path: sep, state: st });
  const fd = split(ctx, ctx.spec.federalDivisions, west).flatMap(([name, polys]) => polys.map((p) => llFeature(ctx, { name, level: 'federal', divisionId: 100 + ctx.tileIndex * 2 + (name === ctx.spec.federalDivisions[0] ? 0 : 1) }, polygonal([p]))));
  const fdp = `${ctx.dir}/federal-divisions.geojson`;
  ctx.writer.geojson(fdp, fd);
  ctx.registry.add('sample_aec_divisions', { path: fdp, state: st });
}

/** SA1 cells (500 m squares) inside four SA2 quadrants, with dwelling and social-housing counts; SA2 approvals. */
export function writeStatisticalAreas(ctx: TileContext): void {
  const st = ctx.spec.state;
  const stateDigit = { NSW: 1, VIC: 2, QLD: 3, SA: 4, WA: 5, TAS: 6, NT: 7, ACT: 8 }[st];
  const size = 500;
  const n = (2 * TILE_HALF_M) / size;
  const sa1: Feature[] = [];
  const sa2Totals = new Map<string, { dwellings: number; social: number; name: string; ring: Position[] }>();
  const lotCount = new Map<string, number>();
  for (const lot of ctx.layout.lots) {
    const key = `${Math.floor((lot.centre[0] + TILE_HALF_M) / size)},${Math.floor((lot.centre[1] + TILE_HALF_M) / size)}`;
    lotCount.set(key, (lotCount.get(key) ?? 0) + Math.max(1, lot.units.length));
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x0 = -TILE_HALF_M + i * size, y0 = -TILE_HALF_M + j * size;
      const q = `${i < n / 2 ? 'W' : 'E'}${j < n / 2 ? 'S' : 'N'}`;
      const sa2 = `${stateDigit}${String(ctx.tileIndex + 1).padStart(2, '0')}${['WS', 'ES', 'WN', 'EN'].indexOf(q) + 1}1${String(ctx.tileIndex).padStart(4, '0')}`;
      const dwellings = lotCount.get(`${i},${j}`) ?? 0;
      const social = Math.round(dwellings * Math.max(0, 0.04 + 0.06 * ctx.rnd.normal()));
      const code = `${sa2}${String(i * n + j).padStart(2, '0')}`;
      const ring: Position[] = [[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size], [x0, y0]];
      sa1.push(llFeature(ctx, { SA1_CODE_2021: code, SA2_CODE_2021: sa2, dwellings, social_housing_dwellings: social, social_housing_share: dwellings ? Math.round((1000 * social) / dwellings) / 1000 : null }, { type: 'Polygon', coordinates: [ring] }));
      const t = sa2Totals.get(sa2) ?? { dwellings: 0, social: 0, name: `${ctx.suburbOf(x0 + size / 2, y0 + size / 2).suburb} ${q[1] === 'N' ? 'North' : 'South'}${q[0] === 'E' ? ' East' : ' West'}`, ring: [] };
      t.dwellings += dwellings;
      t.social += social;
      sa2Totals.set(sa2, t);
    }
  }
  const half = TILE_HALF_M;
  const quad = (q: string): Position[] => {
    const xa = q[0] === 'W' ? -half : 0, ya = q[1] === 'S' ? -half : 0;
    return [[xa, ya], [xa + half, ya], [xa + half, ya + half], [xa, ya + half], [xa, ya]];
  };
  const sa2: Feature[] = [];
  const approvals: Feature[] = [];
  [...sa2Totals.entries()].forEach(([code, t], k) => {
    const ring = quad(['WS', 'ES', 'WN', 'EN'][k]);
    sa2.push(llFeature(ctx, { SA2_CODE_2021: code, SA2_NAME_2021: t.name, dwellings: t.dwellings, social_housing_dwellings: t.social, social_housing_share: t.dwellings ? Math.round((1000 * t.social) / t.dwellings) / 1000 : null }, { type: 'Polygon', coordinates: [ring] }));
    const total12 = Math.round(t.dwellings * 0.012 + ctx.rnd.range(2, 30));
    approvals.push(llFeature(ctx, { SA2_CODE_2021: code, SA2_NAME_2021: t.name, approvals_12m_total: total12, latest_period: '2026-09', latest_period_total: Math.max(0, Math.round(total12 / 12 + ctx.rnd.normal() * 2)) }, { type: 'Polygon', coordinates: [ring] }));
  });
  const p1 = `${ctx.dir}/sa1-social-housing.geojson`;
  const p2 = `${ctx.dir}/sa2-social-housing.geojson`;
  const p3 = `${ctx.dir}/sa2-building-approvals.geojson`;
  ctx.writer.geojson(p1, sa1);
  ctx.writer.geojson(p2, sa2);
  ctx.writer.geojson(p3, approvals);
  ctx.registry.add('sample_abs_social_housing', { path: p2, state: st, layer: 'sa2' });
  ctx.registry.add('sample_abs_social_housing', { path: p1, state: st, layer: 'sa1' });
  ctx.registry.add('sample_abs_building_approvals', { path: p3, state: st });
}

/** Transmission line and substation, gas and oil pipelines, water and sewer mains. */
export function writeUtilities(ctx: TileContext): void {
  const st = ctx.spec.state;
  const line = (angle: number, offset: number): Position[] => {
    const c = Math.cos(angle), s = Math.sin(angle);
    const pts: Position[] = [];
    for (let t = -4500; t <= 4500; t += 150) pts.push([t * c - offset * s, t * s + offset * c]);
    return pts.filter(([x, y]) => Math.abs(x) <= TILE_HALF_M && Math.abs(y) <= TILE_HALF_M);
  };
  const tl = line(0.4 + ctx.tileIndex * 0.3, 2100);
  const sub = tl[Math.floor(tl.length / 2)];
  const power = [
    llFeature(ctx, { asset_type: 'transmission_line', name: `${ctx.spec.suburbs[2].name} 220 kV line`, voltage_kv: 220, operator: `${st} transmission network` }, { type: 'LineString', coordinates: tl }),
    llFeature(ctx, { asset_type: 'substation', name: `${ctx.spec.suburbs[2].name} terminal station`, voltage_kv: 220 }, { type: 'Point', coordinates: sub }),
  ];
  const pp = `${ctx.dir}/electricity.geojson`;
  ctx.writer.geojson(pp, power);
  ctx.registry.add('sample_national_electricity', { path: pp, state: st });
  if (st !== 'NT') {
    const gp = `${ctx.dir}/gas-pipelines.geojson`;
    ctx.writer.geojson(gp, [llFeature(ctx, { name: `${ctx.spec.suburbs[0].name} lateral`, pressure: 'Transmission', licence: `${st}-PL${40 + ctx.tileIndex}` }, { type: 'LineString', coordinates: line(-0.9 + ctx.tileIndex * 0.2, -2300) })]);
    ctx.registry.add('sample_national_gas_pipelines', { path: gp, state: st });
  }
  if (st === 'WA' || st === 'QLD') {
    const op = `${ctx.dir}/oil-pipelines.geojson`;
    ctx.writer.geojson(op, [llFeature(ctx, { name: st === 'WA' ? 'Kwinana products pipeline' : 'Lytton products pipeline', product: 'Refined products' }, { type: 'LineString', coordinates: line(1.2, 2600) })]);
    ctx.registry.add('sample_national_oil_pipelines', { path: op, state: st });
  }
  if (['TAS', 'NT'].includes(st)) return;
  const water: Feature[] = [];
  const sewer: Feature[] = [];
  for (const s of ctx.layout.streets) {
    if (s.roadClass === 'motorway') continue;
    for (const run of s.runs) {
      const off = (d: number) => run.map((p, i) => {
        const a = run[Math.max(0, i - 1)], b = run[Math.min(run.length - 1, i + 1)];
        const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
        return [p[0] - ((b[1] - a[1]) / len) * d, p[1] + ((b[0] - a[0]) / len) * d] as Position;
      });
      if (s.roadClass !== 'local' || s.index % 2 === 0) water.push(llFeature(ctx, { asset_id: `WM-${ctx.tileIndex}-${water.length + 1}`, diameter_mm: s.roadClass === 'arterial' ? 450 : s.roadClass === 'collector' ? 225 : 100, material: s.roadClass === 'local' ? 'PVC' : 'DICL' }, { type: 'LineString', coordinates: off(3) }));
      if (s.axis === 'cross' || s.roadClass !== 'local') sewer.push(llFeature(ctx, { asset_id: `SM-${ctx.tileIndex}-${sewer.length + 1}`, diameter_mm: s.roadClass === 'local' ? 150 : 300, material: 'VC' }, { type: 'LineString', coordinates: off(-3) }));
    }
  }
  const wp = `${ctx.dir}/water-mains.geojson`;
  const sp = `${ctx.dir}/sewer-mains.geojson`;
  ctx.writer.geojson(wp, water);
  ctx.writer.geojson(sp, sewer);
  ctx.registry.add(`sample_${ctx.spec.id}_water_mains`, { path: wp, state: st });
  ctx.registry.add(`sample_${ctx.spec.id}_sewer_mains`, { path: sp, state: st });
}

