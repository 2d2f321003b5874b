import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { getTransformer } from '../../../engine/geo/crs.js';
import { worldToPixel } from '../../../engine/geo/geo-transform.js';
import { handAtPoint, handTileCache } from '../../../engine/hydro/hand-at-point.js';
import { lineSetFromFeatures } from '../../../engine/hydro/line-set.js';
import { syntheticTerrain } from '../../../engine/hydro/synthetic-terrain.js';
import { writeGeoTiff } from '../../../engine/raster/geotiff-writer.js';
import { cellCentre } from '../../../engine/raster/grid.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { tempDir } from '../../helpers/tmp.js';
import { gridFrom } from './helpers.js';

const dir = tempDir('propintel-hand-');
const toLonLat = getTransformer('EPSG:7855', 'EPSG:4326');

// A V-valley 81 cells wide draining south, thalweg at column 40: side slope 0.2, down-valley slope 0.02,
// 5 m cells. HAND = 0.2 * |col - 40| * 5 m wherever the thalweg beside a cell is a channel.
const A = 0.2;
const S = 0.02;
const valley = gridFrom(81, 200, (x, y) => 50 + A * Math.abs(x - 40) * 5 + S * (199 - y) * 5);
const valleyFile = join(dir, 'valley.tif');
await writeGeoTiff(valleyFile, valley);
const terrainFile = join(dir, 'terrain.tif');
await writeGeoTiff(terrainFile, syntheticTerrain(400, 400, { seed: 5, wavelength: 800, amplitude: 10 }));

function lonLatOfCell(col: number, row: number): [number, number] {
  const [x, y] = cellCentre(valley, col, row);
  return toLonLat.forward(x, y);
}

beforeEach(() => handTileCache().clear());

describe('HAND at a point', () => {
  it('reports HAND, elevation and the nearest drainage across the valley', async () => {
    const [lon, lat] = lonLatOfCell(44, 150);
    const r = await handAtPoint({ dem: valleyFile, lon, lat, halfWidth: 100, snap: 0, thresholdKm2: 0.003 });
    expect(r.hand_m).toBeCloseTo(A * 4 * 5, 2); // 4 m
    expect(r.elevation_m).toBeCloseTo(valley.data[150 * 81 + 44], 3);
    const [tlon, tlat] = lonLatOfCell(40, 150);
    expect(r.drainage!.lon).toBeCloseTo(tlon, 7);
    expect(r.drainage!.lat).toBeCloseTo(tlat, 7);
    expect(r.drainage!.distance_m).toBeCloseTo(20, 0); // four 5 m cells west
    expect(r.drainage!.compass).toBe('W');
    expect(r.drainage!.channel_source).toBe('modelled');
    expect(r.method).toMatchObject({ crs: 'EPSG:7855', cell_size_m: 5, threshold_km2: 0.003, threshold_cells: 120, buffer_m: 40, burned_watercourses: false });
    expect(r.unresolved_share).toBe(0);
    expect(r.cached).toBe(false);
  });

  it('finds a channel entering from outside only with the buffer (the edge effect)', async () => {
    // Surface window of +-100 m (cols 24-64, rows 130-170). The threshold is 3 rows of the valley's
    // catchment (120 cells). Without a buffer the thalweg only becomes a channel on the window's third row,
    // so cells in the first two rows drain down the thalweg to it and their HAND includes the thalweg's
    // fall; with a 40 % buffer (8 rows more upstream) the channel enters the window from outside and every
    // cell sits at its analytic height above the thalweg.
    const [lon, lat] = lonLatOfCell(44, 150);
    const worst = async (bufferFraction: number) => {
      const r = await handAtPoint({ dem: valleyFile, lon, lat, halfWidth: 100, snap: 0, thresholdKm2: 0.003, bufferFraction, includeGrid: true });
      const g = r.grid!;
      let err = 0;
      for (let row = 0; row < g.height; row++) {
        for (let col = 0; col < g.width; col++) {
          const [x, y] = cellCentre(g, col, row);
          const [gc] = worldToPixel(valley.transform, x, y);
          err = Math.max(err, Math.abs(g.data[row * g.width + col] - A * Math.abs(Math.floor(gc) - 40) * 5));
        }
      }
      return { err, rows: g.height };
    };
    const without = await worst(0);
    const withBuffer = await worst(0.4);
    expect(without.rows).toBe(withBuffer.rows);
    expect(withBuffer.err).toBeLessThan(0.01);
    // Two rows of thalweg fall: 2 x 0.02 x 5 m = 0.2 m.
    expect(without.err).toBeCloseTo(2 * S * 5, 3);
  });

  it('leaves fewer window cells draining off the computed area with the buffer (fractal terrain)', async () => {
    const [lon, lat] = toLonLat.forward(320000 + 1000, 5812000 - 1000);
    const none = await handAtPoint({ dem: terrainFile, lon, lat, halfWidth: 400, snap: 0, bufferFraction: 0, thresholdKm2: 0.02 });
    const buffered = await handAtPoint({ dem: terrainFile, lon, lat, halfWidth: 400, snap: 0, bufferFraction: 0.4, thresholdKm2: 0.02 });
    expect(none.unresolved_share).toBeGreaterThan(0.01);
    expect(buffered.unresolved_share).toBeLessThan(none.unresolved_share / 2);
  });

  it('caches per tile: a nearby subject in the same snapped tile reuses the computation', async () => {
    const [lon, lat] = toLonLat.forward(320000 + 1010, 5812000 - 1010);
    const [lon2, lat2] = toLonLat.forward(320000 + 1030, 5812000 - 990);
    const a = await handAtPoint({ dem: terrainFile, lon, lat, halfWidth: 400, snap: 200 });
    const b = await handAtPoint({ dem: terrainFile, lon: lon2, lat: lat2, halfWidth: 400, snap: 200 });
    const c = await handAtPoint({ dem: terrainFile, lon, lat, halfWidth: 400, snap: 200, thresholdKm2: 0.1 });
    expect(a.cached).toBe(false);
    expect(b.cached).toBe(true);
    expect(c.cached).toBe(false);
    expect(b.timings.fill).toBe(0);
    const again = await handAtPoint({ dem: terrainFile, lon, lat, halfWidth: 400, snap: 200 });
    expect(again).toEqual({ ...a, cached: true, timings: again.timings });
  });

  it('burns mapped watercourses given in lon/lat and says so', async () => {
    // A mapped line down column 44 (off the true thalweg): its cells become channels, so the subject on it
    // has HAND 0 and its drainage is mapped.
    const [lonA, latA] = lonLatOfCell(44, 100);
    const [lonB, latB] = lonLatOfCell(44, 199);
    const lines = lineSetFromFeatures([{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[lonA, latA], [lonB, latB]] } }]);
    const [lon, lat] = lonLatOfCell(44, 150);
    const r = await handAtPoint({ dem: valleyFile, lon, lat, halfWidth: 100, snap: 0, thresholdKm2: 0.003, watercourses: lines, watercourseSources: ['sample_watercourses'] });
    expect(r.method.burned_watercourses).toBe(true);
    expect(r.method.burned_sources).toEqual(['sample_watercourses']);
    expect(r.hand_m).toBe(0);
    expect(r.drainage!.channel_source).toBe('mapped');
  });

  it('fails with an EngineError naming the DEM when it is missing, corrupt or has no data at the point', async () => {
    const [lon, lat] = lonLatOfCell(44, 150);
    await expectEngineError(() => handAtPoint({ dem: join(dir, 'missing.tif'), lon, lat }), 'NOT_FOUND', /missing\.tif/);
    const bad = join(dir, 'bad.tif');
    writeFileSync(bad, 'not a tiff');
    await expectEngineError(() => handAtPoint({ dem: bad, lon, lat }), 'INVALID_DATA', /bad\.tif/);
    await expectEngineError(() => handAtPoint({ dem: valleyFile, lon: lon + 1, lat }), 'NOT_FOUND', /no data/);
    await expectEngineError(() => handAtPoint({ dem: valleyFile, lon, lat, bufferFraction: 5 }), 'INVALID_ARGUMENT', /buffer_fraction/);
  });
});
