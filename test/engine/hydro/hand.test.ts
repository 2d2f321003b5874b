import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { burnStreams, rasterizeLines } from '../../../engine/hydro/burn-streams.js';
import { channelMask, DEFAULT_CHANNEL_THRESHOLD_KM2, thresholdCells } from '../../../engine/hydro/channels.js';
import { d8Offsets } from '../../../engine/hydro/d8.js';
import { computeHand } from '../../../engine/hydro/hand-chain.js';
import { syntheticTerrain } from '../../../engine/hydro/synthetic-terrain.js';
import { cellCentre } from '../../../engine/raster/grid.js';
import { openRaster } from '../../../engine/raster/geotiff-reader.js';
import { realdata } from '../../helpers/realdata.js';
import { gridFrom, gridOf } from './helpers.js';
import { needsRealdata } from '../../helpers/skip.js';

describe('HAND', () => {
  it('equals each cell\'s height above the thalweg in a V-shaped valley (analytic, to 1 cm)', () => {
    // z = 50 + a * |x - 20| * 5 m + s * (59 - y) * 5 m: side slope a = 0.2, down-valley slope s = 0.02.
    // Side cells drain straight across (slope 0.2 beats the diagonal's (0.2 + 0.02) / sqrt 2 = 0.156), so
    // HAND is a * |x - 20| * 5 m. The thalweg cell of row 0 collects its whole row, 41 cells, the most a
    // side cell collects is 20, so a 41-cell threshold (41 x 25 m2 = 0.001025 km2) makes exactly the
    // thalweg the channel.
    const w = 41, h = 60, a = 0.2, s = 0.02;
    const dem = gridFrom(w, h, (x, y) => 50 + a * Math.abs(x - 20) * 5 + s * (h - 1 - y) * 5);
    const r = computeHand(dem, { thresholdKm2: 0.001025 });
    expect(r.thresholdCells).toBe(41);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        expect(r.channels.data[i]).toBe(x === 20 ? 1 : 0);
        expect(Math.abs(r.hand.data[i] - a * Math.abs(x - 20) * 5)).toBeLessThan(0.01);
        expect(r.drainage[i]).toBe(y * w + 20);
      }
    }
    expect(r.unresolvedCells).toBe(0);
    expect(r.raisedCells).toBe(0);
  });

  it('is >= 0 everywhere, 0 on channels, and each drainage cell is the first channel on the D8 path', () => {
    const dem = syntheticTerrain(160, 140, { seed: 11, wavelength: 600, amplitude: 8 });
    const r = computeHand(dem, { thresholdKm2: 0.02 });
    const off = d8Offsets(dem.width);
    let resolved = 0;
    for (let i = 0; i < r.hand.data.length; i++) {
      const v = r.hand.data[i];
      if (r.channels.data[i]) {
        expect(v).toBe(0);
        expect(r.drainage[i]).toBe(i);
      }
      if (Number.isNaN(v)) {
        expect(r.drainage[i]).toBe(-1);
        continue;
      }
      resolved++;
      expect(v).toBeGreaterThanOrEqual(0);
      let j = i;
      while (!r.channels.data[j]) j += off[r.directions.data[j]];
      expect(r.drainage[i]).toBe(j);
      expect(v).toBeCloseTo(r.filled.data[i] - r.filled.data[j], 5);
    }
    // Most of this small grid reaches a channel; the rest drains off an edge first (NaN, counted).
    expect(resolved).toBeGreaterThan(0.5 * r.hand.data.length);
    expect(resolved + r.unresolvedCells).toBe(r.hand.data.length);
  });

  it('burns a mapped watercourse through an embankment and says so', () => {
    // A valley draining south, dammed by a 3 m embankment across rows 20-21. Unburned, the pond behind it
    // fills and spills over the embankment crest; burned along the mapped creek (x = 15), flow passes
    // through at creek level and the creek cells are channels whatever their catchment.
    const w = 31, h = 40;
    const valley = (x: number, y: number) => 30 + 0.1 * Math.abs(x - 15) * 5 + 0.01 * (h - 1 - y) * 5 + (y === 20 || y === 21 ? 3 : 0);
    const dem = gridFrom(w, h, valley);
    const mask = rasterizeLines(dem, [[cellCentre(dem, 15, 0)[0], cellCentre(dem, 15, 0)[1], cellCentre(dem, 15, h - 1)[0], cellCentre(dem, 15, h - 1)[1]]]);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(mask[y * w + x]).toBe(x === 15 ? 1 : 0);
    const plain = computeHand(dem, { thresholdKm2: 1 });
    const burned = computeHand(dem, { thresholdKm2: 1, burnMask: mask });
    expect(plain.burned).toBe(false);
    expect(burned.burned).toBe(true);
    expect(plain.raisedCells).toBeGreaterThan(0);
    // Creek cells are channels with HAND 0; heights come from the unburned surface, so a bank cell two
    // columns from the creek stands 2 x 0.1 x 5 m = 1 m above it (rows away from the embankment).
    const i = 10 * w + 13;
    expect(burned.channels.data[10 * w + 15]).toBe(1);
    expect(burned.hand.data[10 * w + 15]).toBe(0);
    expect(burned.hand.data[i]).toBeCloseTo(1, 4);
    expect(burned.drainage[i]).toBe(10 * w + 15);
    for (const v of burned.hand.data) if (!Number.isNaN(v)) expect(v).toBeGreaterThanOrEqual(0);
    const lowered = burnStreams(dem, mask, 5);
    expect(lowered.data[10 * w + 15]).toBeCloseTo(dem.data[10 * w + 15] - 5, 4);
    expect(lowered.data[10 * w + 14]).toBe(dem.data[10 * w + 14]);
  });

  it('keeps its invariants on any small grid, holes and flats included (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 1, max: 15 }),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: -3, max: 8, noNaN: true }), fc.constant(NaN)), { minLength: 225, maxLength: 225 }),
        fc.integer({ min: 1, max: 30 }),
        (w, h, values, minCells) => {
          const dem = { ...gridOf([[0]]), width: w, height: h, data: Float32Array.from(values.slice(0, w * h)) };
          const r = computeHand(dem, { thresholdKm2: (minCells * 25) / 1e6 });
          let nan = 0;
          for (let i = 0; i < w * h; i++) {
            const v = r.hand.data[i];
            if (Number.isNaN(dem.data[i])) {
              expect(Number.isNaN(v)).toBe(true);
              continue;
            }
            if (Number.isNaN(v)) nan++;
            else expect(v).toBeGreaterThanOrEqual(0);
            if (r.channels.data[i]) expect(v).toBe(0);
          }
          // Every data cell either reaches a channel or is counted as draining off the grid.
          expect(nan).toBe(r.unresolvedCells);
        },
      ),
      { numRuns: 300, seed: 17 },
    );
  });

  it('converts the km2 threshold to cells and marks channels at or above it', () => {
    expect(DEFAULT_CHANNEL_THRESHOLD_KM2).toBe(0.05);
    expect(thresholdCells(0.05, 25)).toBe(2000); // 50,000 m2 / 25 m2
    expect(thresholdCells(0.1, 400)).toBe(250); // 20 m cells
    expect(thresholdCells(1e-9, 25)).toBe(1);
    const acc = { width: 3, height: 1, data: Uint32Array.from([1, 2000, 1999]), noData: 0, transform: [0, 5, 0, 0, 0, -5] as const, crs: 'EPSG:7855' };
    expect(Array.from(channelMask(acc, 2000).data)).toEqual([0, 1, 0]);
    expect(Array.from(channelMask(acc, 2000, Uint8Array.from([1, 0, 0])).data)).toEqual([1, 1, 0]);
  });
});

const srtm = realdata('dem/central_qld_srtm1s_dem.tif');
describe('HAND on real terrain (central Queensland SRTM, geographic CRS)', () => {
  it('keeps its invariants on 518,400 real cells measured in metres from degrees', async (ctx) => {
    needsRealdata(ctx, srtm, 'dem/central_qld_srtm1s_dem.tif');
    const r = await openRaster(srtm!);
    const dem = await r.readPixels([0, 0, r.info.width, r.info.height]);
    await r.close();
    expect(dem.crs).toBe('EPSG:4326');
    const out = computeHand(dem, { thresholdKm2: 0.5 });
    // 1 arc-second at 23.3 S: about 28.4 m east-west and 30.7 m north-south.
    expect(out.cellSize.x).toBeCloseTo(28.4, 0);
    expect(out.cellSize.y).toBeCloseTo(30.7, 0);
    let resolved = 0;
    for (let i = 0; i < out.hand.data.length; i++) {
      const v = out.hand.data[i];
      if (Number.isNaN(v)) continue;
      resolved++;
      if (v < 0) throw new Error(`negative HAND ${v} at ${i}`);
      if (out.channels.data[i] && v !== 0) throw new Error(`channel cell ${i} has HAND ${v}`);
    }
    expect(resolved / out.hand.data.length).toBeGreaterThan(0.9);
    // Relief is 220-384 m: HAND stays inside it.
    let max = 0;
    for (const v of out.hand.data) if (v > max) max = v;
    expect(max).toBeLessThan(384 - 220);
  });
});
