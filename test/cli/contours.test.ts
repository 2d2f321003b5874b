import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { contoursSurface } from '../../engine/surfaces/contours/contours-surface.js';
import { renameTiffTags, TAG } from '../helpers/tiff.js';
import { tempDir } from '../helpers/tmp.js';
import { SUBJECT, WINDOW, writeDem } from '../engine/surfaces/contours/dem-fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('propintel-cli-contours-');

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), shutdown: new Promise(() => {}) });
  return { code, stdout, stderr };
}

/** A cone 300 m high at the subject: z = 300 - d / 10. */
const cone = (dx: number, dy: number) => 300 - Math.hypot(dx, dy) / 10;
const at = ['--lon', String(SUBJECT.lon), '--lat', String(SUBJECT.lat)];

describe('propintel contours', () => {
  it('prints the contours layer for a DEM written by the test, as the engine computes it', async () => {
    const { source } = await writeDem(dir, 'cli-cone', cone);
    const r = await run(['contours', '--dem', source.path, ...at, '--interval', '10']);
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
    const narrow = JSON.parse((await run(['contours', '--dem', source.path, ...at, '--half-width', '500'])).stdout);
    expect(narrow.levels).toEqual(Array.from({ length: 14 }, (_, i) => 230 + 5 * i));
    // The window's cell centres span 88.2 m (corners, d = 2,117.8 m) to 299.6 m: 423 levels at 0.5 m,
    // 212 at 1 m, 85 at 2.5 m, so 0.5 m is widened to 2.5 m; unlimited, with a 0.5 m floor, it is not.
    const widened = JSON.parse((await run(['contours', '--dem', source.path, ...at, '--interval', '0.5', '--floor', '0.5'])).stdout);
    expect(widened).toMatchObject({ interval_m: 2.5, interval_source: 'widened_to_fit' });
    const exact = JSON.parse((await run(['contours', '--dem', source.path, ...at, '--interval', '0.5', '--floor', '0.5', '--unlimited'])).stdout);
    expect(exact).toMatchObject({ interval_m: 0.5, interval_source: 'requested', truncated: false });
    expect(exact.levels).toHaveLength(423);
    expect(exact.levels[0]).toBe(88.5);
  });

  it('reports bad input: interval out of range (exit 2, naming contour_interval_m), missing flags, missing file', async () => {
    const { source } = await writeDem(dir, 'cli-bad', cone);
    for (const bad of ['0', '-1', '201', 'abc']) {
      const r = await run(['contours', '--dem', source.path, ...at, '--interval', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/contour_interval_m/);
    }
    const noDem = await run(['contours', ...at]);
    expect(noDem.code).toBe(2);
    expect(noDem.stderr).toMatch(/--dem FILE is required/);
    const missing = await run(['contours', '--dem', `${dir}/nope.tif`, ...at]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.tif: raster file not found \[NOT_FOUND\]/);
  });

  it('--crs declares the CRS of a DEM that has none', async () => {
    const { source } = await writeDem(dir, 'cli-nocrs', cone);
    const file = join(dir, 'cli-nocrs-stripped.tif');
    writeFileSync(file, renameTiffTags(new Uint8Array(readFileSync(source.path)), [TAG.GeoKeyDirectory]));
    const without = await run(['contours', '--dem', file, ...at]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/declares no CRS .*\[UNSUPPORTED\]/);
    const declared = await run(['contours', '--dem', file, ...at, '--crs', WINDOW.crs, '--interval', '50']);
    expect(declared.code).toBe(0);
    expect(JSON.parse(declared.stdout).levels).toEqual([100, 150, 200, 250]);
  });

  it('prints available: false with the reason for a point outside the DEM', async () => {
    const { source } = await writeDem(dir, 'cli-far', cone, { shiftEast: 20_000 });
    const r = await run(['contours', '--dem', source.path, ...at]);
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
    const r = await run(['--help']);
    expect(r.stdout).toMatch(/contours\s+contour lines around a point from any GeoTIFF DEM/);
  });
});
