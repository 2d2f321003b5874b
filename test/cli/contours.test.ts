import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeArrayBuffer } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TILES } from '../../datasets/generator/tiles.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { openRaster } from '../../engine/raster/geotiff-reader.js';
import { sampleAtLonLat } from '../../engine/raster/sample.js';
import { contoursSurface } from '../../engine/surfaces/contours/contours-surface.js';
import { renameTiffTags, TAG } from '../helpers/tiff.js';
import { tempDir } from '../helpers/tmp.js';
import { SUBJECT, WINDOW, writeDem } from '../engine/surfaces/contours/dem-fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('propintel-cli-contours-');

/** A cone 300 m high at the subject: z = 300 - d / 10. */
const cone = (dx: number, dy: number) => 300 - Math.hypot(dx, dy) / 10;
const at = ['--lon', String(SUBJECT.lon), '--lat', String(SUBJECT.lat)];

describe('propintel contours', () => {
  it('prints the contours layer for a DEM written by the test, as the engine computes it', async () => {
    const { source } = await writeDem(dir, 'cli-cone', cone);
    const r = await runCli(['contours', '--dem', source.path, ...at, '--interval', '10']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const layer = JSON.parse(r.stdout);
    expect(layer).toMatchObject({ available: true, source: 'cli_dem', source_name: source.path, interval_m: 10, interval_source: 'requested', truncated: false });
    expect(layer.levels).toEqual(Array.from({ length: 21 }, (_, i) => 90 + 10 * i));
    expect(layer.features.type).toBe('FeatureCollection');
    const direct = await contoursSurface({ ...SUBJECT, interval: 10, sources: { dem: { kind: 'dem', id: 'cli_dem', name: source.path, path: source.path, floor_m: 1 } } });
    expect(layer).toEqual(JSON.parse(JSON.stringify(direct)));
  });

  it('--half-width narrows the window and --unlimited keeps the exact interval asked', async () => {
    const { source } = await writeDem(dir, 'cli-cone2', cone);
    // 500 m half-width: the cone spans 300 - 707 / 10 = 229.3 m to 300 m; levels 230 .. 295 at 5 m.
    const narrow = JSON.parse((await runCli(['contours', '--dem', source.path, ...at, '--half-width', '500'])).stdout);
    expect(narrow.levels).toEqual(Array.from({ length: 14 }, (_, i) => 230 + 5 * i));
    // The window's cell centres span 88.2 m (corners, d = 2,117.8 m) to 299.6 m: 423 levels at 0.5 m,
    // 212 at 1 m, 85 at 2.5 m, so 0.5 m is widened to 2.5 m; unlimited, with a 0.5 m floor, it is not.
    const widened = JSON.parse((await runCli(['contours', '--dem', source.path, ...at, '--interval', '0.5', '--floor', '0.5'])).stdout);
    expect(widened).toMatchObject({ interval_m: 2.5, interval_source: 'widened_to_fit' });
    const exact = JSON.parse((await runCli(['contours', '--dem', source.path, ...at, '--interval', '0.5', '--floor', '0.5', '--unlimited'])).stdout);
    expect(exact).toMatchObject({ interval_m: 0.5, interval_source: 'requested', truncated: false });
    expect(exact.levels).toHaveLength(423);
    expect(exact.levels[0]).toBe(88.5);
  });

  it('runs on the sample world\'s NSW DEM: every line lies on its level of the DEM', async () => {
    const dem = join(defaultDataDir(), 'nsw', 'dem-5m.tif');
    const nsw = TILES.find((t) => t.id === 'nsw')!;
    const r = await runCli(['contours', '--dem', dem, '--lon', String(nsw.lon), '--lat', String(nsw.lat)]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const layer = JSON.parse(r.stdout);
    // No interval asked: the default 5 m (the tile's relief, creek bed to hill tops, is far under 250 m).
    expect(layer).toMatchObject({ available: true, source: 'cli_dem', source_name: dem, native_interval_m: 1, interval_m: 5, interval_source: 'auto', truncated: false });
    expect(layer.coverage).toBeUndefined();
    expect(layer.levels.length).toBeGreaterThan(3);
    expect(layer.levels.every((l: number) => l % 5 === 0)).toBe(true);
    const features = layer.features.features as { geometry: { type: string; coordinates: number[][] }; properties: { elevation: number } }[];
    expect(features.length).toBeGreaterThan(0);
    expect(new Set(features.map((f) => f.properties.elevation))).toEqual(new Set(layer.levels));
    // Each vertex is a crossing on a cell edge, linearly interpolated: the DEM, interpolated bilinearly at the
    // vertex, gives the line's level back (to the 6-decimal rounding of lon/lat, about 0.1 m on the ground).
    const raster = await openRaster(dem);
    const grid = await raster.readPixels([0, 0, raster.info.width, raster.info.height]);
    await raster.close();
    let worst = 0;
    for (const f of features) {
      expect(f.geometry.type).toBe('LineString');
      expect(f.geometry.coordinates.length).toBeGreaterThanOrEqual(2);
      for (const [lon, lat] of f.geometry.coordinates) worst = Math.max(worst, Math.abs(sampleAtLonLat(grid, lon, lat) - f.properties.elevation));
    }
    expect(worst).toBeLessThan(0.05);
  });

  it('reports bad input: interval out of range (exit 2, naming contour_interval_m), missing flags, missing file', async () => {
    const { source } = await writeDem(dir, 'cli-bad', cone);
    for (const bad of ['0', '-1', '201', 'abc']) {
      const r = await runCli(['contours', '--dem', source.path, ...at, '--interval', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/contour_interval_m/);
    }
    const noDem = await runCli(['contours', ...at]);
    expect(noDem.code).toBe(2);
    expect(noDem.stderr).toMatch(/--dem FILE is required/);
    const missing = await runCli(['contours', '--dem', `${dir}/nope.tif`, ...at]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.tif: raster file not found \[NOT_FOUND\]/);
  });

  it('names the CRS of a DEM in an unsupported one (exit 1: the file, not the command line, is at fault)', async () => {
    // A GeoTIFF in New Zealand Transverse Mercator, which propintel does not transform.
    const file = join(dir, 'cli-nztm.tif');
    const buf = writeArrayBuffer(new Float32Array(100), { width: 10, height: 10, ModelPixelScale: [10, 10, 0], ModelTiepoint: [0, 0, 0, 1750000, 5900000, 0], GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 2193 } as never);
    writeFileSync(file, new Uint8Array(buf));
    const r = await runCli(['contours', '--dem', file, ...at]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/cli-nztm\.tif: unsupported CRS EPSG:2193; supported are .* \[UNSUPPORTED\]/);
  });

  it('--crs declares the CRS of a DEM that has none', async () => {
    const { source } = await writeDem(dir, 'cli-nocrs', cone);
    const file = join(dir, 'cli-nocrs-stripped.tif');
    writeFileSync(file, renameTiffTags(new Uint8Array(readFileSync(source.path)), [TAG.GeoKeyDirectory]));
    const without = await runCli(['contours', '--dem', file, ...at]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/declares no CRS .*\[UNSUPPORTED\]/);
    const declared = await runCli(['contours', '--dem', file, ...at, '--crs', WINDOW.crs, '--interval', '50']);
    expect(declared.code).toBe(0);
    expect(JSON.parse(declared.stdout).levels).toEqual([100, 150, 200, 250]);
  });

  it('prints available: false with the reason for a point outside the DEM', async () => {
    const { source } = await writeDem(dir, 'cli-far', cone, { shiftEast: 20_000 });
    const r = await runCli(['contours', '--dem', source.path, ...at]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ available: false, reason: 'outside_coverage', services_tried: ['cli_dem'] });
    expect(r.stderr).toMatch(/outside the footprint/);
  });

  it('runs as a real process from the built CLI', async () => {
    const { source } = await writeDem(dir, 'cli-process', cone);
    const r = spawnSync(process.execPath, ['bin/propintel.js', 'contours', '--dem', source.path, ...at, '--interval', '20'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const layer = JSON.parse(r.stdout);
    expect(layer.levels).toEqual([100, 120, 140, 160, 180, 200, 220, 240, 260, 280]);
    expect(layer.features.features.every((f: { properties: { elevation: number } }) => f.properties.elevation % 20 === 0)).toBe(true);
  });

  it('is listed in propintel --help', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toMatch(/contours\s+contour lines around a point from any GeoTIFF DEM/);
  });
});
