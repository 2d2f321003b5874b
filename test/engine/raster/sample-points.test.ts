// Sampling many points through the lattice transform (engine/raster/sample-points.ts): the heights equal those
// of each point projected exactly with proj4 and sampled on its own, at the coarsest and a fine terrain zoom,
// on the sample world's 5 m DEM.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir, ensureSampleWorld } from '../../../datasets/sample-world.js';
import { openRaster } from '../../../engine/raster/geotiff-reader.js';
import { sampleAtLonLat } from '../../../engine/raster/sample.js';
import { sampleRastersAt } from '../../../engine/raster/sample-points.js';
import { terrainPixels } from '../../../engine/tiles/terrain-tiles.js';
import { tileAt } from '../../../engine/tiles/tile-math.js';

const dem = join(defaultDataDir(), 'nsw', 'dem-5m.tif');

beforeAll(async () => {
  await ensureSampleWorld(defaultDataDir());
}, 300_000);

describe('sampling points through the lattice transform', () => {
  for (const z of [12, 15]) {
    it(`gives the heights of exact per-point projection to within a millimetre (a z${z} tile's pixels)`, async () => {
      const { lon, lat } = terrainPixels(tileAt(151.008, -33.8212, z));
      const fast = await sampleRastersAt([dem], lon, lat);
      const r = await openRaster(dem);
      let worst = 0, compared = 0;
      try {
        const grid = (await r.readBBox([Math.min(...lon), Math.min(...lat), Math.max(...lon), Math.max(...lat)], { crs: 'EPSG:4326', margin: 1 }))!;
        for (let k = 0; k < lon.length; k += 7) {
          const exact = sampleAtLonLat(grid, lon[k], lat[k]);
          expect(Number.isNaN(fast[k]), `pixel ${k}`).toBe(Number.isNaN(exact));
          if (Number.isNaN(exact)) continue;
          worst = Math.max(worst, Math.abs(fast[k] - exact));
          compared++;
        }
      } finally {
        await r.close();
      }
      expect(compared).toBeGreaterThan(1000);
      expect(worst).toBeLessThan(0.001);
    }, 60_000);
  }
});

describe('reading a raster in bands of rows (memory bounded whatever the tile)', () => {
  it('gives the same heights, bit for bit, when the read is cut into bands of a few rows', async () => {
    // A z8 tile spans 150 km; the 6 km DEM in it is read clamped to its extent, and at a 5,000-cell budget in
    // bands of four rows (the bands overlap by one row so each point's bilinear rows are in one band).
    for (const z of [8, 13]) {
      const { lon, lat } = terrainPixels(tileAt(151.008, -33.8212, z));
      const whole = await sampleRastersAt([dem], lon, lat);
      const banded = await sampleRastersAt([dem], lon, lat, { maxCells: 5000 });
      let finite = 0;
      for (let k = 0; k < whole.length; k++) {
        if (Number.isFinite(whole[k])) finite++;
        expect(Object.is(banded[k], whole[k]) || banded[k] === whole[k], `z${z} pixel ${k}: ${banded[k]} vs ${whole[k]}`).toBe(true);
      }
      expect(finite, `z${z}: pixels on the DEM`).toBeGreaterThan(z === 8 ? 10 : 10_000);
    }
  }, 60_000);
});
