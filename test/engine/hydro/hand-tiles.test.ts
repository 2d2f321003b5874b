// HAND as a tile product (issue 24): tiles computed with their margins agree with one whole-DEM run; the
// edge-reach pass agrees with walking each catchment; the tile files round-trip; the store computes a tile
// once (concurrent lookups share the computation) and answers a point as the whole-DEM chain does.
import { readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upstreamCatchment } from '../../../engine/hydro/catchment.js';
import { computeHand } from '../../../engine/hydro/hand-chain.js';
import { HandTileStore } from '../../../engine/hydro/hand-tile-store.js';
import { catchmentReachesEdge, DRAINAGE_TRUNCATED, handTileLayout, handTileOf, handTileWindows, keepTileCore, openHandTile, writeHandTile } from '../../../engine/hydro/hand-tiles.js';
import { syntheticTerrain } from '../../../engine/hydro/synthetic-terrain.js';
import { getTransformer, LONLAT } from '../../../engine/geo/crs.js';
import { pixelToWorld } from '../../../engine/geo/geo-transform.js';
import type { Grid } from '../../../engine/raster/grid.js';
import { writeGeoTiff } from '../../../engine/raster/geotiff-writer.js';
import { tempDir } from '../../helpers/tmp.js';

const W = 520;
const H = 460;
const dem = syntheticTerrain(W, H, { seed: 5, wavelength: 800, amplitude: 10 });
// A hole of no-data, so the comparison also meets cells next to it.
for (let r = 200; r < 230; r++) for (let c = 300; c < 340; c++) dem.data[r * W + c] = NaN;
const whole = computeHand(dem);

function window(g: Grid<Float32Array>, win: readonly number[]): Grid<Float32Array> {
  const [c0, r0, c1, r1] = win;
  const out = new Float32Array((c1 - c0) * (r1 - r0));
  for (let r = r0; r < r1; r++) out.set(g.data.subarray(r * g.width + c0, r * g.width + c1), (r - r0) * (c1 - c0));
  const t = g.transform;
  return { width: c1 - c0, height: r1 - r0, data: out, noData: NaN, transform: [t[0] + c0 * t[1], t[1], 0, t[3] + r0 * t[5], 0, t[5]], crs: g.crs };
}

/** True when the cell or one of its eight neighbours is no-data or off the DEM. */
function nearNoData(c: number, r: number): boolean {
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const cc = c + dc, rr = r + dr;
      if (cc < 0 || rr < 0 || cc >= W || rr >= H || Number.isNaN(dem.data[rr * W + cc])) return true;
    }
  }
  return false;
}

describe('HAND tiles', () => {
  it('lays a DEM out in tiles, or as one tile when it fits within one tile and its margins', () => {
    expect(handTileLayout(1200, 1200)).toEqual({ width: 1200, height: 1200, size: 1200, margin: 0, cols: 1, rows: 1 });
    const l = handTileLayout(W, H, 128, 96);
    expect([l.cols, l.rows]).toEqual([5, 4]);
    expect(handTileWindows(l, 0)).toEqual({ core: [0, 0, 128, 128], computed: [0, 0, 224, 224] });
    expect(handTileWindows(l, 6)).toEqual({ core: [128, 128, 256, 256], computed: [32, 32, 352, 352] });
    expect(handTileWindows(l, 19)).toEqual({ core: [512, 384, 520, 460], computed: [416, 288, 520, 460] });
    expect(handTileOf(l, 130, 300)).toBe(2 * 5 + 1);
    expect(() => handTileWindows(l, 20)).toThrow(/tile 20 is not one of the 20 tiles/);
  });

  it('marks the catchments that reach the edge or no-data exactly as walking each one does', () => {
    const reach = catchmentReachesEdge(whole.directions, whole.order);
    let checked = 0;
    for (let i = 0; i < W * H; i += 97) {
      if (Number.isNaN(dem.data[i])) continue;
      expect(!!reach[i], `cell ${i}`).toBe(upstreamCatchment(whole.directions, i).reachesEdge);
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('tiled HAND agrees with one whole-DEM run within 0.01 m away from no-data, with the same drainage', () => {
    const layout = handTileLayout(W, H, 128, 160);
    let compared = 0;
    let sameDrainage = 0;
    let drained = 0;
    const worst: string[] = [];
    for (let t = 0; t < layout.cols * layout.rows; t++) {
      const { core, computed } = handTileWindows(layout, t);
      const part = window(dem, computed);
      const data = keepTileCore(computeHand(part), part, null, computed, core, W);
      const cw = core[2] - core[0];
      for (let r = core[1]; r < core[3]; r++) {
        for (let c = core[0]; c < core[2]; c++) {
          if (nearNoData(c, r)) continue;
          const k = (r - core[1]) * cw + (c - core[0]);
          const a = data.hand[k];
          const b = whole.hand.data[r * W + c];
          if (Number.isNaN(b)) continue; // the whole-DEM run drains it off the DEM: nothing to agree with
          compared++;
          if (!(Math.abs(a - b) <= 0.01) && worst.length < 5) worst.push(`(${c}, ${r}): tiled ${a}, whole ${b}`);
          if (whole.drainage[r * W + c] >= 0) {
            drained++;
            if (data.drainage[k] === whole.drainage[r * W + c]) sameDrainage++;
          }
        }
      }
    }
    expect(worst).toEqual([]);
    expect(compared).toBeGreaterThan(0.85 * W * H); // the rest drains off the DEM in the whole run too
    expect(sameDrainage / drained).toBeGreaterThan(0.999);
  });

  it('writes a tile file and reads each cell back', () => {
    const layout = handTileLayout(W, H, 128, 96);
    const { core, computed } = handTileWindows(layout, 7);
    const part = window(dem, computed);
    const data = keepTileCore(computeHand(part), part, null, computed, core, W);
    const file = join(tempDir('hand-tile-'), 't.hand');
    writeHandTile(file, { key: 'k', core, demWidth: W, transform: [...dem.transform], crs: dem.crs, cellSizeM: 5, thresholdKm2: 0.05, burned: false, burnedSources: [], marginM: 480 }, data);
    const f = openHandTile(file);
    try {
      expect(f.header.core).toEqual(core);
      for (const [c, r] of [[core[0], core[1]], [core[2] - 1, core[3] - 1], [core[0] + 50, core[1] + 77]]) {
        const k = (r - core[1]) * (core[2] - core[0]) + (c - core[0]);
        expect(f.cell(c, r)).toEqual({ hand: data.hand[k], drainage: data.drainage[k], drainageElevation: data.drainageElevation[k], drainageAreaKm2: data.drainageAreaKm2[k], flags: data.drainageFlags[k] });
      }
      expect(() => f.cell(core[2], core[1])).toThrow(/outside the tile core/);
    } finally {
      f.close();
    }
  });

  it('computes a tile once for concurrent lookups and answers a point as the whole-DEM chain does', async () => {
    const dir = tempDir('hand-store-');
    const demFile = join(dir, 'dem.tif');
    await writeGeoTiff(demFile, dem);
    let runs = 0;
    const { computeHandTile } = await import('../../../engine/hydro/hand-tile-store.js');
    const store = new HandTileStore({ dir: join(dir, 'tiles'), tileSize: 128, margin: 160, compute: (input) => (runs++, computeHandTile(input)) });
    const toLonLat = getTransformer(dem.crs, LONLAT);
    const at = (c: number, r: number) => toLonLat.forward(...pixelToWorld(dem.transform, c + 0.5, r + 0.5));
    const points = [[60, 60], [70, 90], [260, 180], [450, 400]] as const;
    const answers = await Promise.all(points.map(([c, r]) => store.at(demFile, ...at(c, r))));
    expect(runs).toBe(3); // the first two points share tile 0
    expect(store.computed).toBe(3);
    answers.forEach((a, i) => {
      const [c, r] = points[i];
      const cell = r * W + c;
      expect(a!.hand_m).toBeCloseTo(whole.hand.data[cell], 2);
      const d = whole.drainage[cell];
      expect(a!.drainage!.contributing_area_km2).toBeCloseTo((whole.accumulation.data[d] * 25) / 1e6, 3);
      const [dlon, dlat] = at(d % W, Math.floor(d / W));
      expect([a!.drainage!.lon, a!.drainage!.lat]).toEqual([dlon, dlat]);
      const reach = catchmentReachesEdge(whole.directions, whole.order);
      expect(a!.drainage!.catchment_truncated).toBe(!!reach[d]);
      expect(a!.cached).toBe(false);
    });
    expect((await store.at(demFile, ...at(61, 61)))!.cached).toBe(true);
    expect(runs).toBe(3);
    expect(await store.at(demFile, ...at(-5, 10))).toBeNull(); // off the DEM
    // A new store on the same directory finds the files: nothing is computed again.
    const again = new HandTileStore({ dir: join(dir, 'tiles'), tileSize: 128, margin: 160, compute: () => Promise.reject(new Error('must not compute')) });
    expect((await again.at(demFile, ...at(260, 180)))!.hand_m).toBe(answers[2]!.hand_m);
    expect(again.found).toBe(1);
    store.close();
    again.close();
    // A tile file damaged on disk is computed again, not served or failed.
    const [tileFile] = readdirSync(join(dir, 'tiles')).filter((f) => f.endsWith('.hand')).map((f) => join(dir, 'tiles', f));
    truncateSync(tileFile, statSync(tileFile).size - 100); // header intact, values cut short
    const repaired = new HandTileStore({ dir: join(dir, 'tiles'), tileSize: 128, margin: 160 });
    const p = readdirSync(join(dir, 'tiles')).length;
    const answersAgain = await Promise.all(points.map(([c, r]) => repaired.at(demFile, ...at(c, r))));
    expect(answersAgain.map((a) => a!.hand_m)).toEqual(answers.map((a) => a!.hand_m));
    expect(repaired.computed).toBe(1);
    expect(readdirSync(join(dir, 'tiles')).length).toBe(p);
    repaired.close();
    expect(DRAINAGE_TRUNCATED).toBe(2);
  });
});
