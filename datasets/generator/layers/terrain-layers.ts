/**
 * Layers derived from the ground: the DEM, watercourses, flood extents (overlay masks), the flood-study depth
 * and hazard rasters, design rainfall, and the state contour-line datasets.
 */
import { contours } from 'd3-contour';
import type { Feature, Position } from 'geojson';
import { northUpTransform } from '../../../engine/geo/geo-transform.js';
import { DEM_CELL_M, TILE_HALF_M } from '../frame.js';
import { ellipse, maskToPolygons, tileMask } from '../geometry.js';
import { llFeature, polygonal, type TileContext } from '../context.js';
import type { Lot } from '../layout.js';
import { fractalNoise } from '../value-noise.js';

/** 1% AEP flood rise above the creek bed at along-flow position u, metres. */
export function floodRise(ctx: TileContext, u: number): number {
  const flat = ctx.spec.terrain.valleyDepth < 9;
  return (flat ? 2.6 : 4.2) + 0.9 * Math.sin(u / 700 + ctx.tileIndex) + (ctx.floodOffset ?? 0);
}

/**
 * The depth a residential lot's centre must reach for each tile's flood-related sandbox address (its rule
 * in datasets/generator/sandbox.ts plus a margin for the 10 m mask grid): VIC in the 1% flood, NSW deeper
 * than 0.2 m, QLD deeper than 0.3 m, SA inside the evidence area (ground up to 1.5 m above the flood).
 */
const SANDBOX_FLOOD_DEPTH: Partial<Record<string, number>> = { vic: 0.3, nsw: 0.5, qld: 0.6, sa: -1.2 };

/**
 * How far to raise this tile's 1% flood so that the sandbox rule `rule` has a residential lot: 0 when a lot
 * already passes (the world is then exactly what it was), else just enough that the least dry residential
 * lot within 650 m of the creek stands at the rule's depth plus a margin. The caller redraws the flood masks.
 */
export function floodOffsetForSandbox(ctx: TileContext, rule: ((lot: Lot) => boolean) | null): number {
  const need = SANDBOX_FLOOD_DEPTH[ctx.spec.id];
  if (need === undefined || !rule || ctx.layout.lots.some(rule)) return 0;
  let best = -Infinity;
  for (const l of ctx.layout.lots) {
    if (!l.use.startsWith('residential') || Math.abs(ctx.terrain.creekDistance(l.centre[0], l.centre[1])) >= 650) continue;
    best = Math.max(best, floodDepthAt(ctx, l.centre[0], l.centre[1]));
  }
  return best === -Infinity ? 0 : Math.max(0, need - best);
}

/** Height of the 1% AEP flood above the ground at (x, y), metres (negative: dry). */
export function floodDepthAt(ctx: TileContext, x: number, y: number): number {
  const [u] = ctx.terrain.uv(x, y);
  return floodRise(ctx, u) - ctx.terrain.heightAboveBed(x, y);
}

/**
 * The broad floodplain South Australia's evidence-required control covers: ground up to 1.5 m above the 1%
 * AEP flood level.
 */
export function inEvidenceArea(ctx: TileContext, x: number, y: number): boolean {
  return Math.abs(ctx.terrain.creekDistance(x, y)) < 700 && floodDepthAt(ctx, x, y) > -1.5;
}

/** The 1% AEP flood depth (m, negative when dry) on the 10 m grid, from the shared elevation grid; NaN far from the creek. */
function floodDepthGrid(ctx: TileContext): Float32Array {
  const n = 600;
  const out = new Float32Array(n * n).fill(NaN);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [x, y] = ctx.frame.cellCentre(c, r, 10);
      if (Math.abs(ctx.terrain.creekDistance(x, y)) >= 700) continue;
      const [u] = ctx.terrain.uv(x, y);
      out[r * n + c] = floodRise(ctx, u) - (ctx.elev10[r * n + c] - ctx.terrain.bedAt(u));
    }
  }
  return out;
}

/** Computes the flood masks (10 m cells) every flood layer shares. */
export function floodMasks(ctx: TileContext): Pick<TileContext['masks'], 'flood1pct' | 'floodPlanning' | 'floodway'> {
  const depth = floodDepthGrid(ctx);
  const mask = (min: number) => depth.map((d) => (d > min ? 1 : 0)) as unknown as Uint8Array;
  return { flood1pct: Uint8Array.from(mask(0)), floodPlanning: Uint8Array.from(mask(-0.5)), floodway: Uint8Array.from(mask(1.2)) };
}

/** The 5 m DEM. NT's tile stands at the edge of the LiDAR footprint: its eastern strip is no-data. */
export function writeDem(ctx: TileContext): void {
  const n = (2 * TILE_HALF_M) / DEM_CELL_M;
  const data = ctx.terrain.grid(DEM_CELL_M);
  if (ctx.spec.id === 'nt') {
    // Footprint edge 1,200 m east of the tile centre, slightly irregular like a survey boundary.
    for (let r = 0; r < n; r++) {
      const y = TILE_HALF_M - (r + 0.5) * DEM_CELL_M;
      const edge = 1200 + 60 * Math.sin(y / 400);
      for (let c = 0; c < n; c++) if (-TILE_HALF_M + (c + 0.5) * DEM_CELL_M > edge) data[r * n + c] = NaN;
    }
  }
  const path = `${ctx.dir}/dem-5m.tif`;
  ctx.writer.geotiff(path, { width: n, height: n, data, noData: NaN, transform: ctx.frame.gridTransform(DEM_CELL_M), crs: ctx.frame.crs });
  ctx.registry.add('sample_national_dem', { path, state: ctx.spec.state, crs: ctx.frame.crs });
}

/** The creek (a watercourse line) and a retarding basin beside it (a water body). */
export function writeWater(ctx: TileContext): void {
  const line = ctx.terrain.centreline(20);
  // Beside the creek on the side away from the hills.
  const [bx, by] = ctx.terrain.xy(650, ctx.terrain.creekV(650) - 75 * ctx.spec.terrain.hillSide);
  const basin = ellipse(bx, by, 60, 35, (ctx.spec.terrain.creekAngle * Math.PI) / 180, 24);
  const wide = ctx.spec.creekName.includes('River');
  const features: Feature[] = [
    llFeature(ctx, { name: ctx.spec.creekName, waterway: wide ? 'river' : 'stream', major: wide, water_type: wide ? 'river' : 'creek', source: 'sample_national_watercourses' }, { type: 'LineString', coordinates: line }),
    llFeature(ctx, { name: `${ctx.spec.creekName} retarding basin`, water_type: 'retarding_basin', major: false, source: 'sample_national_watercourses' }, { type: 'Polygon', coordinates: [basin] }),
  ];
  if (wide) {
    // A wide river is major water for walkability: its channel as a polygon 40 m across.
    const left = line.map((_, i) => offsetPoint(line, i, 20));
    const right = line.map((_, i) => offsetPoint(line, i, -20)).reverse();
    features.push(llFeature(ctx, { name: ctx.spec.creekName, water_type: 'river', major: true, source: 'sample_national_watercourses' }, { type: 'Polygon', coordinates: [[...left, ...right, left[0]]] }));
  }
  const path = `${ctx.dir}/watercourses.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add('sample_national_watercourses', { path, state: ctx.spec.state });
}

function offsetPoint(line: Position[], i: number, d: number): Position {
  const a = line[Math.max(0, i - 1)], b = line[Math.min(line.length - 1, i + 1)];
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len = Math.hypot(dx, dy) || 1;
  return [line[i][0] - (dy / len) * d, line[i][1] + (dx / len) * d];
}

/**
 * The 1% AEP flood study (NSW and QLD tiles): peak depth (m) and AIDR 2017 hazard class H1-H6 on a 10 m grid,
 * no-data outside the study area. Hazard here is classed from depth alone with the velocity a modest creek
 * flood implies (under 1 m/s on the floodplain): H1 < 0.3 m, H2 < 0.5 m, H3 < 1.2 m, H4 < 2.0 m, H5 < 4.0 m,
 * else H6. A real study classes depth times velocity; this is a documented simplification for synthetic data.
 */
export function writeFloodStudy(ctx: TileContext): void {
  if (!ctx.spec.has.floodStudy) return;
  const cell = 10;
  const n = (2 * TILE_HALF_M) / cell;
  const depth = new Float32Array(n * n).fill(NaN);
  const hazard = new Uint8Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [x, y] = ctx.frame.cellCentre(c, r, cell);
      const [u] = ctx.terrain.uv(x, y);
      if (Math.abs(u) > 2600 || Math.abs(ctx.terrain.creekDistance(x, y)) > 800) continue;
      const raw = floodRise(ctx, u) - (ctx.elev10[r * n + c] - ctx.terrain.bedAt(u));
      const d = Math.max(0, Math.round(raw * 100) / 100);
      depth[r * n + c] = d;
      if (d > 0) hazard[r * n + c] = d < 0.3 ? 1 : d < 0.5 ? 2 : d < 1.2 ? 3 : d < 2 ? 4 : d < 4 ? 5 : 6;
    }
  }
  const id = `sample_${ctx.spec.id}_flood_study`;
  const t = ctx.frame.gridTransform(cell);
  const dp = `${ctx.dir}/flood-study-1pct-depth.tif`;
  const hp = `${ctx.dir}/flood-study-1pct-hazard.tif`;
  ctx.writer.geotiff(dp, { width: n, height: n, data: depth, noData: NaN, transform: t, crs: ctx.frame.crs });
  ctx.writer.geotiff(hp, { width: n, height: n, data: hazard, noData: 0, transform: t, crs: ctx.frame.crs });
  ctx.registry.add(id, { path: dp, state: ctx.spec.state, crs: ctx.frame.crs, layer: 'depth' });
  ctx.registry.add(id, { path: hp, state: ctx.spec.state, crs: ctx.frame.crs, layer: 'hazard' });
}

/** 1% AEP 1-hour design rainfall on the BoM's 0.025-degree grid around the tile. */
export function writeIfd(ctx: TileContext): void {
  const step = 0.025;
  const west = Math.floor((ctx.spec.lon - 0.075) / step) * step;
  const north = Math.ceil((ctx.spec.lat + 0.075) / step) * step;
  const w = 7, h = 7;
  const data = new Float32Array(w * h);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = ctx.spec.ifd1pct1h * (1 + 0.04 * fractalNoise(c * 2500, r * 2500, 9000, 2, ctx.tileIndex * 31 + 5));
      data[r * w + c] = Math.round(v * 10) / 10;
    }
  }
  const path = `${ctx.dir}/ifd-1pct-1h.tif`;
  ctx.writer.geotiff(path, { width: w, height: h, data, noData: NaN, transform: northUpTransform(round(west), round(north), step), crs: 'EPSG:4326' });
  ctx.registry.add('sample_national_ifd', { path, state: ctx.spec.state, crs: 'EPSG:4326' });
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * Contour lines at `interval` metres traced from the ground on a 10 m grid (d3-contour), cut where the
 * traced rings run along the grid border so they are open lines like a published contour dataset.
 */
export function contourLines(ctx: TileContext, interval: number, keep: (x: number, y: number) => boolean = () => true): { elevation: number; line: Position[] }[] {
  const cell = 10;
  const n = (2 * TILE_HALF_M) / cell;
  const values = Array.from(ctx.elev10);
  let lo = Infinity, hi = -Infinity;
  for (const z of values) {
    if (z < lo) lo = z;
    if (z > hi) hi = z;
  }
  const thresholds: number[] = [];
  for (let z = Math.ceil(lo / interval) * interval; z <= hi; z += interval) thresholds.push(Math.round(z * 1000) / 1000);
  const out: { elevation: number; line: Position[] }[] = [];
  // Grid point (gx, gy) is at the corner between cells; cell centres sit at +0.5.
  const toLocal = ([gx, gy]: Position): Position => [-TILE_HALF_M + gx * cell, TILE_HALF_M - gy * cell];
  const onBorder = ([gx, gy]: Position) => gx <= 0.5 || gy <= 0.5 || gx >= n - 0.5 || gy >= n - 0.5;
  for (const mp of contours().size([n, n]).thresholds(thresholds)(values)) {
    for (const poly of mp.coordinates) {
      for (const ring of poly) {
        let run: Position[] = [];
        const flush = () => {
          if (run.length > 1) out.push({ elevation: mp.value, line: run.map(toLocal) });
          run = [];
        };
        for (let i = 0; i < ring.length; i++) {
          const p = ring[i];
          if (onBorder(p) || !keep(...(toLocal(p) as [number, number]))) flush();
          else run.push(p);
        }
        flush();
      }
    }
  }
  return out;
}

/** The state contour datasets: VIC metro (1 m) and statewide (10 m), QLD (1 m), TAS (5 m). */
export function writeStateContours(ctx: TileContext): void {
  const which = ctx.spec.has.stateContours;
  if (!which) return;
  const write = (id: string, interval: number, file: string, props: (z: number) => Record<string, unknown>, keep?: (x: number, y: number) => boolean) => {
    const lines = contourLines(ctx, interval, keep);
    const features = lines.map((l) => llFeature(ctx, { elevation: l.elevation, ...props(l.elevation), source: id }, { type: 'LineString', coordinates: l.line }));
    const path = `${ctx.dir}/${file}`;
    ctx.writer.geojson(path, features);
    ctx.registry.add(id, { path, state: ctx.spec.state, layer: 'lines' });
  };
  if (which === 'vic') {
    // Vicmap's 1 m metro contours cover the western part of this tile; the 10 m statewide set covers all of it.
    const metroEdge = 600;
    write('sample_vic_contours_metro', 1, 'contours-vicmap-metro-1m.geojson', (z) => ({ ALTITUDE: z, FEATURE_TYPE: z % 5 === 0 ? 'contour_index' : 'contour' }), (x) => x < metroEdge);
    const fp = `${ctx.dir}/contours-vicmap-metro-footprint.geojson`;
    const ring: Position[] = [[-TILE_HALF_M, -TILE_HALF_M], [metroEdge, -TILE_HALF_M], [metroEdge, TILE_HALF_M], [-TILE_HALF_M, TILE_HALF_M], [-TILE_HALF_M, -TILE_HALF_M]];
    ctx.writer.geojson(fp, [llFeature(ctx, { name: 'Vicmap Elevation metro 1 m coverage' }, { type: 'Polygon', coordinates: [ring] })]);
    ctx.registry.add('sample_vic_contours_metro', { path: fp, state: 'VIC', layer: 'footprint' });
    write('sample_vic_contours_statewide', 10, 'contours-vicmap-statewide-10m.geojson', (z) => ({ ALTITUDE: z, FEATURE_TYPE: 'contour' }));
  } else if (which === 'qld') {
    write('sample_qld_contours', 1, 'contours-qld-1m.geojson', (z) => ({ feature: z % 5 === 0 ? 'Index contour' : 'Contour' }));
  } else {
    write('sample_tas_contours', 5, 'contours-tas-5m.geojson', (z) => ({ ELEVATION: z, CONT_TYPE: z % 25 === 0 ? 'Index' : 'Intermediate' }));
  }
}

/** Flood-extent polygons from a mask (10 m cells), dropping slivers under `minArea` m2. */
export function maskPolygons(mask: Uint8Array, minArea = 3000) {
  return polygonal(maskToPolygons(mask, 10, minArea));
}
