// Terrain tiles (issue 36): a tile decoded with fast-png, its heights checked against the DEM sampled at the
// same points independently (geotiff.js and proj4 here, bilinear by hand), the Terrarium arithmetic on known
// heights, and the refusals. Issue 47: opaque tiles (a browser reads a transparent pixel as -32,768 m), the gaps
// filled without a cliff, DEMs chosen by extent (a z12 tile over half a DEM was empty), zooms from 8.
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { sampleRastersAt } from '../../../engine/raster/sample-points.js';
import { fillHeights, TERRAIN_FILL_REACH_M } from '../../../engine/tiles/terrain-fill.js';
import { encodeTerrarium, terrainPixels, terrariumHeight, TERRAIN_TILE_SIZE } from '../../../engine/tiles/terrain-tiles.js';
import { tileAt } from '../../../engine/tiles/tile-math.js';
import { demAt } from '../../helpers/dem.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { useSampleEngine } from '../../helpers/sample-engine.js';

const world = useSampleEngine(2);

/** The heights of a decoded RGB Terrarium tile, row-major. */
function heightsOf(rgb: ArrayLike<number>): Float64Array {
  const hs = new Float64Array(rgb.length / 3);
  for (let k = 0; k < hs.length; k++) hs[k] = terrariumHeight(rgb[k * 3], rgb[k * 3 + 1], rgb[k * 3 + 2]);
  return hs;
}

describe('Terrarium encoding', () => {
  it('round-trips heights to 1/256 m, below sea level included, opaque (RGB), an unknown height as 0 m', () => {
    const heights = new Float32Array(TERRAIN_TILE_SIZE * TERRAIN_TILE_SIZE).fill(NaN);
    const known = [0, 1, -1, 12.5, 123.456, -45.7, 2228.1, 8848.86];
    known.forEach((h, i) => (heights[i] = h));
    const png = decode(encodeTerrarium(heights));
    expect([png.width, png.height, png.channels]).toEqual([256, 256, 3]);
    known.forEach((h, i) => {
      const [r, g, b] = png.data.slice(i * 3, i * 3 + 3);
      expect(Math.abs(terrariumHeight(r, g, b) - h)).toBeLessThanOrEqual(1 / 512 + 1e-4);
    });
    const last = png.data.length - 3;
    expect(terrariumHeight(png.data[last], png.data[last + 1], png.data[last + 2])).toBe(0);
  });
});

describe('terrain tiles from the sample world', () => {
  it('hold the DEM\'s height at each pixel centre, to the encoding\'s precision', async () => {
    const vic = world.sandbox.find((s) => s.state === 'VIC')!;
    const t = tileAt(vic.lng, vic.lat, 14);
    const { bytes, sources } = await world.engine.terrainTile(t.z, t.x, t.y);
    expect(sources.length).toBeGreaterThan(0);
    const png = decode(bytes);
    expect([png.width, png.height]).toEqual([256, 256]);
    const { lon, lat } = terrainPixels(t);
    const dem = world.engine.store.rastersFor('scores.flood.terrain', 'VIC')[0].path;
    const picks = [0, 37, 256 * 100 + 128, 256 * 200 + 17, 256 * 255 + 255, 256 * 128 + 128];
    const expected = await demAt(dem, picks.map((k) => [lon[k], lat[k]]));
    expect(png.channels).toBe(3);
    picks.forEach((k, i) => {
      const [r, g, b] = png.data.slice(k * 3, k * 3 + 3);
      expect(Math.abs(terrariumHeight(r, g, b) - expected[i]), `pixel ${k}`).toBeLessThan(0.01);
    });
    // Relief: the sample world's terrain is not flat.
    const hs = heightsOf(png.data);
    expect(Math.max(...hs) - Math.min(...hs)).toBeGreaterThan(2);
  });

  it('are sea level (0 m, opaque) where no DEM reaches, and refuse zooms outside 8-15 and tiles off the grid', async () => {
    const ocean = tileAt(150, -45, 12);
    const png = decode((await world.engine.terrainTile(ocean.z, ocean.x, ocean.y)).bytes);
    expect(png.channels).toBe(3);
    expect(heightsOf(png.data).every((h) => h === 0)).toBe(true);
    expect(decode((await world.engine.terrainTile(8, 0, 0)).bytes).channels).toBe(3);
    await expectEngineError(() => world.engine.terrainTile(7, 0, 0), 'INVALID_ARGUMENT');
    await expectEngineError(() => world.engine.terrainTile(16, 0, 0), 'INVALID_ARGUMENT');
    await expectEngineError(() => world.engine.terrainTile(12, 5000, 0), 'INVALID_ARGUMENT');
  });

  it('hold the DEM wherever one reaches the tile, whatever state its centre is in (z12 over half the NSW DEM)', async () => {
    // This z12 tile's centre lies outside NSW's 6 km DEM, which covers part of its north-west: the tile was
    // empty while its z13 child had data.
    const dem = world.engine.store.rastersFor('scores.flood.terrain', 'NSW')[0].path;
    const hs = heightsOf(decode((await world.engine.terrainTile(12, 3766, 2457)).bytes).data);
    const { lon, lat } = terrainPixels({ z: 12, x: 3766, y: 2457 });
    const picks = Array.from({ length: 256 }, (_, i) => i * 257).filter((k) => k % 256 < 40 && Math.floor(k / 256) < 40);
    const expected = await demAt(dem, picks.map((k) => [lon[k], lat[k]]));
    picks.forEach((k, i) => expect(Math.abs(hs[k] - expected[i]), `pixel ${k}`).toBeLessThan(0.01));
    expect(picks.length).toBeGreaterThan(30);
    // And at z8, the zoom of a whole region.
    const z8 = tileAt(lon[0], lat[0], 8);
    const coarse = heightsOf(decode((await world.engine.terrainTile(z8.z, z8.x, z8.y)).bytes).data);
    expect(coarse.filter((h) => h > 5).length).toBeGreaterThan(10);
  });

  it('ease from the DEM\'s edge down to sea level within the reach, with no cliff, the same height for a place in any tile', async () => {
    // 2 x 2 tiles at z12 around the NSW DEM's south-east corner, as one 512-pixel image.
    const S = 512, H = new Float64Array(S * S), inside = new Uint8Array(S * S);
    const dem = world.engine.store.rastersFor('scores.flood.terrain', 'NSW')[0].path;
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const t = { z: 12, x: 3766 + dx, y: 2457 + dy };
      const hs = heightsOf(decode((await world.engine.terrainTile(t.z, t.x, t.y)).bytes).data);
      const { lon, lat } = terrainPixels(t);
      const raw = await sampleRastersAt([dem], lon, lat);
      for (let k = 0; k < 256 * 256; k++) {
        const i = (dy * 256 + Math.floor(k / 256)) * S + dx * 256 + (k % 256);
        H[i] = hs[k];
        inside[i] = Number.isFinite(raw[k]) ? 1 : 0;
      }
      // A place's filled height is its own, not its tile's: the fill of a few pixels alone equals the tile's.
      const lone = [0, 255, 256 * 255, 256 * 256 - 1, 256 * 77 + 201];
      const alone = new Float32Array(lone.length).fill(NaN);
      await fillHeights(alone, Float64Array.from(lone, (k) => lon[k]), Float64Array.from(lone, (k) => lat[k]), [dem]);
      lone.forEach((k, j) => {
        if (!Number.isFinite(raw[k])) expect(Math.abs(alone[j] - hs[k]), `pixel ${k} of ${t.x}/${t.y}`).toBeLessThan(1 / 256 + 1e-3);
      });
    }
    const pixelM = (40_075_016 * Math.cos((33.8 * Math.PI) / 180)) / (256 * 2 ** 12);
    let maxIn = 0, maxOut = 0, maxH = 0, far = 0, filled = 0;
    for (let r = 0; r < S; r++) {
      for (let c = 0; c < S; c++) {
        const i = r * S + c;
        if (inside[i]) maxH = Math.max(maxH, H[i]);
        else filled++;
        for (const j of [c + 1 < S ? i + 1 : -1, r + 1 < S ? i + S : -1]) {
          if (j < 0) continue;
          const step = Math.abs(H[i] - H[j]);
          if (inside[i] && inside[j]) maxIn = Math.max(maxIn, step);
          else maxOut = Math.max(maxOut, step);
        }
      }
    }
    for (let i = 0; i < S * S; i++) if (!inside[i] && H[i] !== 0) far++;
    expect(filled).toBeGreaterThan(S * S / 2);
    // The steepest ramp a smoothstep over the reach makes (1.5 x height / reach a metre), plus the seam where
    // the DEM meets its own coarse average (its relief between neighbouring pixels, at most).
    const ramp = (1.5 * maxH * pixelM) / TERRAIN_FILL_REACH_M;
    expect(maxOut, `steepest step off the DEM (${maxOut.toFixed(2)} m; ramp ${ramp.toFixed(2)}, on the DEM ${maxIn.toFixed(2)})`).toBeLessThan(ramp + maxIn);
    // Sea level past the reach: most of these four tiles is farther than 2 km from the DEM.
    expect(far).toBeLessThan(filled);
    expect(H[S * S - 1]).toBe(0);
  });
});

