// Terrain tiles (issue 36): a tile decoded with fast-png, its heights checked against the DEM sampled at the
// same points independently (geotiff.js and proj4 here, bilinear by hand), the Terrarium arithmetic on known
// heights, alpha 0 where no DEM covers, and the refusals.
import { decode } from 'fast-png';
import { fromFile } from 'geotiff';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { encodeTerrarium, terrainPixels, terrariumHeight, TERRAIN_TILE_SIZE } from '../../../engine/tiles/terrain-tiles.js';
import { tileAt } from '../../../engine/tiles/tile-math.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { useSampleEngine } from '../../helpers/sample-engine.js';

const world = useSampleEngine(2);

describe('Terrarium encoding', () => {
  it('round-trips heights to 1/256 m, below sea level included, and marks unknown pixels transparent', () => {
    const heights = new Float32Array(TERRAIN_TILE_SIZE * TERRAIN_TILE_SIZE).fill(NaN);
    const known = [0, 1, -1, 12.5, 123.456, -45.7, 2228.1, 8848.86];
    known.forEach((h, i) => (heights[i] = h));
    const png = decode(encodeTerrarium(heights));
    expect([png.width, png.height, png.channels]).toEqual([256, 256, 4]);
    known.forEach((h, i) => {
      const [r, g, b, a] = png.data.slice(i * 4, i * 4 + 4);
      expect(a).toBe(255);
      expect(Math.abs(terrariumHeight(r, g, b) - h)).toBeLessThanOrEqual(1 / 512 + 1e-4);
    });
    const last = png.data.length - 4;
    expect([terrariumHeight(png.data[last], png.data[last + 1], png.data[last + 2]), png.data[last + 3]]).toEqual([0, 0]);
  });
});

/** The DEM's bilinear value at lon/lat, read with geotiff.js and projected with proj4 (independent of the engine). */
async function demAt(file: string, points: [number, number][]): Promise<number[]> {
  const tiff = await fromFile(file);
  const image = await tiff.getImage();
  const [ox, oy] = image.getOrigin();
  const [rx, ry] = image.getResolution();
  const epsg = image.getGeoKeys()!.ProjectedCSTypeGeoKey as number;
  const defs: Record<number, string> = { 7855: '+proj=utm +zone=55 +south +ellps=GRS80 +units=m +no_defs', 7856: '+proj=utm +zone=56 +south +ellps=GRS80 +units=m +no_defs', 7854: '+proj=utm +zone=54 +south +ellps=GRS80 +units=m +no_defs' };
  const out: number[] = [];
  for (const [lon, lat] of points) {
    const [x, y] = proj4('EPSG:4326', defs[epsg], [lon, lat]);
    // Pixel centres at +0.5: the four around the point, weighted.
    const c = (x - ox) / rx - 0.5, r = (y - oy) / ry - 0.5;
    const c0 = Math.floor(c), r0 = Math.floor(r);
    const win = (await image.readRasters({ window: [c0, r0, c0 + 2, r0 + 2] }))[0] as unknown as ArrayLike<number>;
    const u = c - c0, v = r - r0;
    out.push((1 - v) * ((1 - u) * win[0] + u * win[1]) + v * ((1 - u) * win[2] + u * win[3]));
  }
  return out;
}

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
    picks.forEach((k, i) => {
      const [r, g, b, a] = png.data.slice(k * 4, k * 4 + 4);
      expect(a, `pixel ${k}`).toBe(255);
      expect(Math.abs(terrariumHeight(r, g, b) - expected[i]), `pixel ${k}`).toBeLessThan(0.01);
    });
    // Relief: the sample world's terrain is not flat.
    const hs = Array.from({ length: 256 * 256 }, (_, k) => terrariumHeight(png.data[k * 4], png.data[k * 4 + 1], png.data[k * 4 + 2]));
    expect(Math.max(...hs) - Math.min(...hs)).toBeGreaterThan(2);
  });

  it('are transparent where no DEM covers, and refuse zooms outside 10-15 and tiles off the grid', async () => {
    const ocean = tileAt(150, -45, 12);
    const png = decode((await world.engine.terrainTile(ocean.z, ocean.x, ocean.y)).bytes);
    expect(png.data.every((v, i) => (i % 4 === 3 ? v === 0 : true))).toBe(true);
    await expectEngineError(() => world.engine.terrainTile(9, 0, 0), 'INVALID_ARGUMENT');
    await expectEngineError(() => world.engine.terrainTile(16, 0, 0), 'INVALID_ARGUMENT');
    await expectEngineError(() => world.engine.terrainTile(12, 5000, 0), 'INVALID_ARGUMENT');
  });
});
