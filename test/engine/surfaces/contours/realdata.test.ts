import { describe, expect, it } from 'vitest';
import { getTransformer, LONLAT } from '../../../../engine/geo/crs.js';
import { openRaster } from '../../../../engine/raster/geotiff-reader.js';
import { gridStats } from '../../../../engine/raster/grid-stats.js';
import { unpackContours } from '../../../../engine/surfaces/contours/contours-layer.js';
import { demContours } from '../../../../engine/surfaces/contours/dem-contours.js';
import { levelsInRange } from '../../../../engine/surfaces/contours/interval.js';
import { isolines } from '../../../../engine/surfaces/contours/isolines.js';
import { validateGeometry } from '../../../../engine/vector/geometry-validate.js';
import { realdata } from '../../../helpers/realdata.js';
import { d3Rings, plainLines, pointKey } from './fixtures.js';
import { needsRealdata } from '../../../helpers/skip.js';

const merewether = realdata('dem/merewether_nsw_1m_dem.tif');

describe('contours on real DEMs from ../shared/realdata (skipped when absent)', () => {
  it('the Merewether 1 m LiDAR DEM: the same crossing points as d3-contour at every 1 m level', async (ctx) => {
    needsRealdata(ctx, merewether, 'dem/merewether_nsw_1m_dem.tif');
    const raster = await openRaster(merewether!);
    const grid = await raster.readPixels([0, 0, raster.info.width, raster.info.height]);
    await raster.close();
    const { width: W, height: H } = grid;
    const stats = gridStats(grid);
    const levels = levelsInRange(stats.min, stats.max, 1);
    expect(levels.length).toBeGreaterThan(30); // 16.5 to 52 m
    const lines = plainLines(isolines(grid.data, W, H, levels, { step: 1 }));
    const interior = (x: number, y: number) => x > 0.5 && x < W - 0.5 && y > 0.5 && y < H - 0.5;
    // Crossing points on edges between two valid pixels; d3 treats no-data as -infinity and so has extra
    // points on no-data edges, where this isoliner uses GDAL's quarter squares instead: compare away from them.
    const nearNoData = (x: number, y: number) => {
      for (let r = Math.floor(y - 1.5); r <= Math.floor(y + 0.5); r++) for (let c = Math.floor(x - 1.5); c <= Math.floor(x + 0.5); c++) if (c < 0 || r < 0 || c >= W || r >= H || Number.isNaN(grid.data[r * W + c])) return true;
      return false;
    };
    // Distinct points: LiDAR heights often sit exactly on a level, and then several crossings share a pixel
    // centre, which d3 repeats and this isoliner writes once.
    const keys = (rings: [number, number][][]) => [...new Set(rings.flat().filter(([x, y]) => interior(x, y) && !nearNoData(x, y)).map(([x, y]) => pointKey(x, y)))].sort();
    let compared = 0;
    for (const L of levels) {
      const mine = keys(lines.filter((l) => l.level === L).map((l) => l.points));
      expect(mine).toEqual(keys(d3Rings(grid.data, W, H, L)));
      compared += mine.length;
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('the Merewether DEM through the surface: a partly covered window, valid lon/lat lines', async (ctx) => {
    needsRealdata(ctx, merewether, 'dem/merewether_nsw_1m_dem.tif');
    // The DEM's centre, with a 300 m window: the 321 x 416 m DEM covers under half of it.
    const [lon, lat] = getTransformer('EPSG:32756', LONLAT).forward(382410.3, 6354473.4);
    const layer = unpackContours(await demContours({ kind: 'dem', id: 'merewether', name: 'Merewether 1 m LiDAR', path: merewether! }, lon, lat, { halfWidth: 300, interval: 1 }));
    if (!layer.available) throw new Error(layer.note);
    expect(layer.coverage).toBe('partial');
    expect(layer.covered_fraction).toBeGreaterThan(0.3);
    expect(layer.covered_fraction).toBeLessThan(0.4); // 321 x 416 m of 600 x 600 m is 0.371
    expect(layer.levels.length).toBeGreaterThan(30);
    expect(layer.features.features.every((f) => validateGeometry(f.geometry, true) === null && Number.isInteger(f.properties.elevation))).toBe(true);
  });
});
