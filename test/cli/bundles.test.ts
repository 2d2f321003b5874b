// The one-shot bundles (dist/bundles/, scripts/bundle-cli.mjs): `propintel contours` and `propintel hand` run
// from one bundled file as a real process, and must print, write and exit exactly as the CLI does in process.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { northUpTransform } from '../../engine/geo/geo-transform.js';
import { writeGeoTiff } from '../../engine/raster/geotiff-writer.js';
import { tempDir } from '../helpers/tmp.js';
import { SUBJECT, writeDem } from '../engine/surfaces/contours/dem-fixtures.js';
// @ts-expect-error: a plain ES module script without types
import { BUNDLED_COMMANDS } from '../../scripts/bundle-cli.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('propintel-cli-bundles-');

function asProcess(argv: string[]) {
  const r = spawnSync(process.execPath, ['bin/propintel.js', ...argv], { cwd: root, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A cone with a no-data hole, so the lines meet no-data as well as the window edge. */
const cone = (dx: number, dy: number) => (Math.hypot(dx - 300, dy) < 120 ? NaN : 300 - Math.hypot(dx, dy) / 10);
const at = ['--lon', String(SUBJECT.lon), '--lat', String(SUBJECT.lat)];

describe('one-shot CLI bundles', () => {
  it('are built for contours and hand (npm run build and the test setup write them)', () => {
    expect(Object.keys(BUNDLED_COMMANDS).sort()).toEqual(['contours', 'hand']);
    for (const name of Object.keys(BUNDLED_COMMANDS)) expect(existsSync(join(root, 'dist', 'bundles', `${name}.js`)), name).toBe(true);
  });

  it('contours: the bundled process prints byte for byte what the CLI prints in process', async () => {
    const { source } = await writeDem(dir, 'bundle-cone', cone);
    const argv = ['contours', '--dem', source.path, ...at, '--interval', '7.5', '--half-width', '900'];
    const bundled = asProcess(argv);
    expect(bundled).toEqual(await runCli(argv));
    expect(bundled.code).toBe(0);
    expect(JSON.parse(bundled.stdout).features.features.length).toBeGreaterThan(10);
  });

  it('contours: usage and engine errors give the same message and exit code', async () => {
    for (const argv of [['contours', '--dem', 'x.tif', '--lon', '151'], ['contours', '--dem', join(dir, 'none.tif'), ...at], ['contours', '--dem', join(dir, 'none.tif'), ...at, '--interval', '-1']]) {
      const bundled = asProcess(argv);
      expect(bundled, argv.join(' ')).toEqual(await runCli(argv));
      expect(bundled.code).not.toBe(0);
    }
  });

  it('hand: the bundled process writes the same GeoTIFF as the CLI in process', async () => {
    const W = 31, H = 40;
    const data = new Float32Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * W + x] = 20 + Math.abs(x - 15) + 0.1 * (H - 1 - y);
    const demFile = join(dir, 'dem.tif');
    await writeGeoTiff(demFile, { width: W, height: H, data, noData: NaN, transform: northUpTransform(382000, 6355000, 5), crs: 'EPSG:7856' });
    const a = join(dir, 'hand-bundled.tif'), b = join(dir, 'hand-in-process.tif');
    const bundled = asProcess(['hand', '--dem', demFile, '--out', a, '--threshold-km2', '0.000775']);
    const plain = await runCli(['hand', '--dem', demFile, '--out', b, '--threshold-km2', '0.000775']);
    expect(bundled.code).toBe(0);
    expect(plain.code).toBe(0);
    // The summary names the output file and the time and speed taken; the rest must agree.
    const summary = (s: string) => s.replace(/hand-(bundled|in-process)\.tif/g, 'OUT').replace(/computed in .*/, 'computed in T');
    expect(summary(bundled.stdout)).toBe(summary(plain.stdout));
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });
});
