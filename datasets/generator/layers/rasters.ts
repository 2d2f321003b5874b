/**
 * Gridded layers: 10 m land cover (ESA WorldCover classes), ~1 km summer land-surface temperature, and the
 * solar resource (GHI and DNI ~250 m, PVOUT ~1 km, optimum tilt ~4 km).
 */
import type { StateCode } from '../../../engine/catalogue/states.js';
import { northUpTransform } from '../../../engine/geo/geo-transform.js';
import type { TileContext } from '../context.js';
import { TILE_HALF_M } from '../frame.js';
import { BUILT_HALF, COL, ROW, type Block } from '../layout.js';
import { fractalNoise } from '../value-noise.js';

/** ESA WorldCover 10 m class codes. */
export const WORLDCOVER = { tree: 10, shrub: 20, grass: 30, crop: 40, built: 50, bare: 60, water: 80, wetland: 90, mangrove: 95 } as const;

/** The 10 m land-cover grid of a tile (600 x 600, WorldCover codes). */
export function landCoverGrid(ctx: TileContext): Uint8Array {
  const cell = 10;
  const n = (2 * TILE_HALF_M) / cell;
  const out = new Uint8Array(n * n);
  const blocks = new Map<string, Block>(ctx.layout.blocks.map((b) => [`${b.k},${b.m}`, b]));
  const veg = ctx.masks.vegetation;
  const seed = ctx.tileIndex * 7 + 3;
  const st = ctx.spec.state;
  const wide = ctx.spec.creekName.includes('River');
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [x, y] = ctx.frame.cellCentre(c, r, cell);
      const s = Math.abs(ctx.terrain.creekDistance(x, y));
      const noise = fractalNoise(x, y, 160, 2, seed);
      let cls: number;
      const [p, q] = ctx.layout.pq(x, y);
      const v = veg[Math.floor(r / 2) * 300 + Math.floor(c / 2)];
      if (s < (wide ? 20 : 5)) cls = WORLDCOVER.water;
      else if (Math.abs(q - ctx.layout.motorwayQ(p)) < 25) cls = WORLDCOVER.built;
      else if (st === 'NT' && s < 70 && ctx.terrain.uv(x, y)[0] > 800) cls = WORLDCOVER.mangrove;
      else if ((st === 'QLD' || st === 'NT') && s < 25) cls = WORLDCOVER.wetland;
      else if (v === 1) cls = WORLDCOVER.tree;
      else if (v === 2) cls = noise > -0.1 ? WORLDCOVER.tree : WORLDCOVER.grass;
      else if (v === 3 || v === 4) cls = WORLDCOVER.shrub;
      else if (v === 5) cls = WORLDCOVER.grass;
      else if (Math.abs(p) < BUILT_HALF && Math.abs(q) < BUILT_HALF) {
        const k = Math.floor(q / ROW), m = Math.floor(p / COL);
        const dq = q - k * ROW, dp = p - m * COL;
        const block = blocks.get(`${k},${m}`);
        const inReserve = dq < 8 || dq > ROW - 8 || dp < 8 || dp > COL - 8;
        if (inReserve) cls = noise > 0.55 ? WORLDCOVER.tree : WORLDCOVER.built;
        else if (!block || block.use === 'park') cls = noise > 0.15 ? WORLDCOVER.tree : WORLDCOVER.grass;
        else if (block.use === 'school') cls = dp < COL / 2 ? WORLDCOVER.built : WORLDCOVER.grass;
        else if (block.use === 'industrial') cls = noise > 0.35 ? WORLDCOVER.bare : WORLDCOVER.built;
        else if (block.use === 'commercial') cls = WORLDCOVER.built;
        else cls = noise > 0.32 ? WORLDCOVER.tree : noise < -0.6 ? WORLDCOVER.grass : WORLDCOVER.built;
      } else cls = ['SA', 'WA', 'NSW'].includes(st) && noise > 0.1 ? WORLDCOVER.crop : WORLDCOVER.grass;
      out[r * n + c] = cls;
    }
  }
  return out;
}

/** Annual mean GHI to DNI ratio by state capital climate (Global Solar Atlas long-term averages, rounded). */
const DNI_RATIO: Record<StateCode, number> = { VIC: 1.03, NSW: 1.08, QLD: 1.06, WA: 1.18, SA: 1.12, TAS: 0.98, ACT: 1.12, NT: 0.86 };

/** Writes land cover, land-surface temperature and the solar rasters. */
export function writeRasters(ctx: TileContext): void {
  const st = ctx.spec.state;
  const lc = ctx.masks.landCover;
  const lcPath = `${ctx.dir}/land-cover-10m.tif`;
  ctx.writer.geotiff(lcPath, { width: 600, height: 600, data: lc, noData: 0, transform: ctx.frame.gridTransform(10), crs: ctx.frame.crs });
  ctx.registry.add('sample_national_land_cover', { path: lcPath, state: st, crs: ctx.frame.crs });

  // Land-surface temperature on a 0.01-degree grid: warmer where built up, cooler with trees and water.
  const shareAt = (lon: number, lat: number) => {
    const [x0, y0] = ctx.frame.local(lon, lat);
    let built = 0, tree = 0, water = 0, total = 0;
    for (let dy = -450; dy <= 450; dy += 100) {
      for (let dx = -450; dx <= 450; dx += 100) {
        const x = x0 + dx, y = y0 + dy;
        if (Math.abs(x) >= TILE_HALF_M || Math.abs(y) >= TILE_HALF_M) continue;
        const v = lc[Math.floor((TILE_HALF_M - y) / 10) * 600 + Math.floor((x + TILE_HALF_M) / 10)];
        total++;
        if (v === 50 || v === 60) built++;
        else if (v === 10 || v === 95) tree++;
        else if (v === 80 || v === 90) water++;
      }
    }
    return total ? { built: built / total, tree: tree / total, water: water / total } : { built: 0.35, tree: 0.2, water: 0 };
  };
  const grid = (step: number, margin: number, value: (lon: number, lat: number) => number, digits: number) => {
    const west = Math.floor((ctx.spec.lon - margin) / step) * step;
    const north = Math.ceil((ctx.spec.lat + margin) / step) * step;
    const w = Math.round((2 * margin) / step) + 1, h = w;
    const data = new Float32Array(w * h);
    const f = 10 ** digits;
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) data[r * w + c] = Math.round(value(west + (c + 0.5) * step, north - (r + 0.5) * step) * f) / f;
    const round = (v: number) => Math.round(v * 1e6) / 1e6;
    return { width: w, height: h, data, noData: NaN, transform: northUpTransform(round(west), round(north), step), crs: 'EPSG:4326' };
  };
  const lst = grid(0.01, 0.045, (lon, lat) => {
    const s = shareAt(lon, lat);
    return ctx.spec.lstBase + 7 * (s.built - 0.4) - 5 * s.tree - 8 * s.water + 0.6 * fractalNoise(lon * 1e5, lat * 1e5, 3000, 2, ctx.tileIndex);
  }, 1);
  const lstPath = `${ctx.dir}/lst-summer-day-1km.tif`;
  ctx.writer.geotiff(lstPath, lst);
  ctx.registry.add('sample_national_lst', { path: lstPath, state: st, crs: 'EPSG:4326' });

  const ghiAt = (lon: number, lat: number) => ctx.spec.ghi * (1 + 0.012 * fractalNoise(lon * 1e5, lat * 1e5, 4000, 2, ctx.tileIndex + 40)) - 0.02 * (lat - ctx.spec.lat);
  const solar = [
    { layer: 'ghi', step: 0.0025, digits: 3, f: ghiAt },
    { layer: 'dni', step: 0.0025, digits: 3, f: (lon: number, lat: number) => ghiAt(lon, lat) * DNI_RATIO[st] },
    // PVOUT for a fixed, optimally tilted system: about 0.9 kWh/kWp per kWh/m2 of GHI at Australian sites.
    { layer: 'pvout', step: 0.01, digits: 3, f: (lon: number, lat: number) => 0.9 * ghiAt(lon, lat) },
    // Optimum tilt: about 0.76 |latitude| + 3 degrees across Australian capitals (Global Solar Atlas).
    { layer: 'tilt', step: 0.04, digits: 1, f: (_lon: number, lat: number) => 0.76 * Math.abs(lat) + 3.1 },
  ];
  for (const s of solar) {
    const g = grid(s.step, s.step === 0.04 ? 0.08 : 0.045, s.f, s.digits);
    const path = `${ctx.dir}/solar-${s.layer}.tif`;
    ctx.writer.geotiff(path, g);
    ctx.registry.add('sample_national_solar', { path, state: st, crs: 'EPSG:4326', layer: s.layer });
  }
}
