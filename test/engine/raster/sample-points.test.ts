// Projecting a tile's pixel lattice at control points only (engine/raster/sample-points.ts): the interpolated
// positions against every pixel projected exactly, in MGA and in lon/lat, at the coarsest and finest terrain
// zooms; the bound the module comment states.
import { describe, expect, it } from 'vitest';
import { getTransformer, LONLAT } from '../../../engine/geo/crs.js';
import { projectLattice } from '../../../engine/raster/sample-points.js';
import { terrainPixels, TERRAIN_TILE_SIZE } from '../../../engine/tiles/terrain-tiles.js';
import { tileAt } from '../../../engine/tiles/tile-math.js';

/** The largest distance between the lattice's interpolated and exact positions, in the CRS's units. */
function worstError(crs: string, z: number, lon0: number, lat0: number): number {
  const { lon, lat } = terrainPixels(tileAt(lon0, lat0, z));
  const fast = projectLattice(crs, lon, lat, { width: TERRAIN_TILE_SIZE, height: TERRAIN_TILE_SIZE });
  const t = getTransformer(LONLAT, crs);
  let worst = 0;
  for (let k = 0; k < lon.length; k++) {
    const [x, y] = t.forward(lon[k], lat[k]);
    worst = Math.max(worst, Math.hypot(fast.x[k] - x, fast.y[k] - y));
  }
  return worst;
}

describe('projecting a pixel lattice at control points', () => {
  it('stays within 6 cm of the exact position in MGA at z10, 4 mm at z12 and under a millimetre from z14', () => {
    // Northcote (MGA zone 55) and a point near a zone's edge (Merewether, zone 56's west).
    for (const [lon, lat, crs] of [[144.987, -37.752, 'EPSG:7855'], [151.75, -32.95, 'EPSG:7856']] as const) {
      // Measured: 5.7 / 0.36 / 0.022 cm at z10 / z12 / z14 (the error shrinks with the square of the span).
      expect(worstError(crs, 10, lon, lat)).toBeLessThan(0.06);
      expect(worstError(crs, 12, lon, lat)).toBeLessThan(0.004);
      expect(worstError(crs, 14, lon, lat)).toBeLessThan(0.001);
    }
  });

  it('keeps lon/lat grids (a geographic DEM) within a millionth of a degree at z10', () => {
    expect(worstError(LONLAT, 10, 146.3, -23.3)).toBeLessThan(1e-6);
  });
});
