import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { northUpTransform } from '../../engine/geo/geo-transform.js';
import { openRaster } from '../../engine/raster/geotiff-reader.js';
import { writeGeoTiff } from '../../engine/raster/geotiff-writer.js';
import type { Grid } from '../../engine/raster/grid.js';
import { tempDir } from '../helpers/tmp.js';
import { needs } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('propintel-cli-hand-');

// A V-valley of 5 m cells in GDA2020 / MGA zone 56, thalweg at column 15: HAND = 0.2 * |col - 15| * 5 m.
const W = 31, H = 40;
const data = new Float32Array(W * H);
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * W + x] = 20 + 0.2 * Math.abs(x - 15) * 5 + 0.02 * (H - 1 - y) * 5;
const dem: Grid<Float32Array> = { width: W, height: H, data, noData: NaN, transform: northUpTransform(382000, 6355000, 5), crs: 'EPSG:7856' };
const demFile = join(dir, 'dem.tif');
await writeGeoTiff(demFile, dem);

describe('propintel hand', () => {
  it('writes a Float32 HAND GeoTIFF and a channel mask that the engine reads back with the DEM\'s CRS and transform', async () => {
    const out = join(dir, 'hand.tif');
    const channels = join(dir, 'channels.tif');
    // 31 cells per row x 25 m2 = 775 m2: every thalweg cell collects at least its row, no side cell does.
    const r = await runCli(['hand', '--dem', demFile, '--out', out, '--channels', channels, '--threshold-km2', '0.000775']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/31 x 40 cells of 5\.00 x 5\.00 m \(EPSG:7856\)/);
    expect(r.stdout).toMatch(/40 channel cells/);
    const hand = await openRaster(out);
    expect(hand.info.crs).toBe('EPSG:7856');
    expect(hand.info.transform).toEqual(dem.transform);
    expect(hand.info.sampleFormat).toBe(3);
    expect(hand.info.bitsPerSample).toBe(32);
    const g = await hand.readPixels([0, 0, W, H]);
    await hand.close();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) expect(g.data[y * W + x]).toBeCloseTo(0.2 * Math.abs(x - 15) * 5, 2);
    const mask = await openRaster(channels);
    const m = await mask.readPixelsNative([0, 0, W, H]);
    await mask.close();
    expect(m.data).toBeInstanceOf(Uint8Array);
    expect(Array.from(m.data).filter((v, i) => v === 1 && i % W === 15).length).toBe(H);
    expect(Array.from(m.data).reduce((s, v) => s + v, 0)).toBe(H);
  });

  it('is a usage error without --dem or --out, and an engine error for a missing file', async () => {
    expect((await runCli(['hand', '--out', join(dir, 'x.tif')])).stderr).toMatch(/--dem is required/);
    expect((await runCli(['hand', '--dem', demFile])).code).toBe(2);
    const missing = await runCli(['hand', '--dem', join(dir, 'none.tif'), '--out', join(dir, 'x.tif')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/none\.tif: raster file not found \[NOT_FOUND\]/);
    expect((await runCli(['hand', '--dem', demFile, '--out', join(dir, 'x.tif'), '--threshold-km2=0'])).stderr).toMatch(/--threshold-km2 must be at least/);
  });

  it('writes a file GDAL reads with the same georeferencing', (ctx) => {
    needs(ctx, existsSync('/usr/bin/gdalinfo') ? '' : 'gdalinfo is not installed (apt-get install gdal-bin)');
    const out = join(dir, 'hand-gdal.tif');
    execFileSync(process.execPath, [join(root, 'bin/propintel.js'), 'hand', '--dem', demFile, '--out', out, '--threshold-km2', '0.000775']);
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', out]).toString()) as { geoTransform: number[]; bands: { type: string }[]; coordinateSystem: { wkt: string } };
    expect(info.geoTransform).toEqual([...dem.transform]);
    expect(info.bands[0].type).toBe('Float32');
    expect(info.coordinateSystem.wkt).toMatch(/MGA zone 56/);
  });
});
