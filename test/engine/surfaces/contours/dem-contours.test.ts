import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateGeometry } from '../../../../engine/vector/geometry-validate.js';
import { unpackContours, type ContoursAvailable } from '../../../../engine/surfaces/contours/contours-layer.js';
import { demContours } from '../../../../engine/surfaces/contours/dem-contours.js';
import { featureJsonLength } from '../../../../engine/surfaces/contours/feature-size.js';
import type { ContourRequestOptions } from '../../../../engine/surfaces/contours/request.js';
import type { DemContourSource } from '../../../../engine/surfaces/contours/sources.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';
import { renameTiffTags, TAG } from '../../../helpers/tiff.js';
import { tempDir } from '../../../helpers/tmp.js';
import { rotateClockwise } from './fixtures.js';
import { availableLayer, offsets, SUBJECT, WINDOW, writeDem } from './dem-fixtures.js';

const dir = tempDir('propintel-contours-');

/** The largest distance from a point of `a` to its nearest point of `b` (1 m buckets; distances under 1 m). */
function farthestFromNearest(a: [number, number][], b: [number, number][]): number {
  const buckets = new Map<string, [number, number][]>();
  for (const p of b) {
    const k = `${Math.floor(p[0])},${Math.floor(p[1])}`;
    (buckets.get(k) ?? buckets.set(k, []).get(k)!).push(p);
  }
  let worst = 0;
  for (const [x, y] of a) {
    let best = Infinity;
    for (let i = -1; i <= 1; i++) for (let j = -1; j <= 1; j++) for (const [bx, by] of buckets.get(`${Math.floor(x) + i},${Math.floor(y) + j}`) ?? []) best = Math.min(best, Math.hypot(bx - x, by - y));
    worst = Math.max(worst, best);
  }
  return worst;
}

async function run(source: DemContourSource, options: ContourRequestOptions = {}): Promise<ContoursAvailable> {
  return availableLayer(unpackContours(await demContours(source, SUBJECT.lon, SUBJECT.lat, options)));
}

/** z = 300 - d / 10 (d = metres from the subject): level L is the circle of radius 10 (300 - L) m. */
const cone = (dx: number, dy: number) => 300 - Math.hypot(dx, dy) / 10;
let coneSource: Promise<DemContourSource> | undefined;
/** The cone DEM, written once for the tests that only read it. */
const coneDem = () => (coneSource ??= writeDem(dir, 'cone', cone).then((d) => d.source));

/** Byte size of a delivered feature. */
const bytesOf = (f: ContoursAvailable['features']['features'][number]) => featureJsonLength(f.properties.elevation, f.geometry.coordinates.flat(), 0, f.geometry.coordinates.length);

describe('contours from a DEM: geometry', () => {
  it('a cone gives circles at the right radii (within half a cell), closed rings running clockwise', async () => {
    const source = await coneDem();
    const layer = await run(source);
    // Relief in the window: 300 at the centre down to 300 - 2121 / 10 = 88 at the corners: 42 levels at 5 m.
    expect(layer).toMatchObject({ interval_m: 5, interval_source: 'auto', truncated: false, native_interval_m: 1 });
    expect(layer.coverage).toBeUndefined();
    expect(layer.levels).toEqual(Array.from({ length: 42 }, (_, i) => 90 + 5 * i));
    const rings = layer.features.features.filter((f) => f.properties.elevation >= 155);
    expect(rings).toHaveLength(29); // 155 .. 295, one ring each
    let worst = 0;
    for (const f of rings) {
      const radius = 10 * (300 - f.properties.elevation);
      const pts = offsets(f.geometry.coordinates);
      expect(pts[0]).toEqual(pts[pts.length - 1]);
      for (const [x, y] of pts) worst = Math.max(worst, Math.abs(Math.hypot(x, y) - radius));
      // Clockwise on the map (high ground, the cone's top, on the right): negative shoelace area.
      let area = 0;
      for (let i = 0; i + 1 < pts.length; i++) area += pts[i][0] * pts[i + 1][1] - pts[i + 1][0] * pts[i][1];
      expect(area).toBeLessThan(0);
    }
    // Half a 5 m cell, plus the 6-decimal lon/lat rounding (0.11 m).
    expect(worst).toBeLessThan(2.5 + 0.12);
  });

  it('stops lines at the window edge', async () => {
    const source = await coneDem();
    const layer = await run(source);
    const arcs = layer.features.features.filter((f) => f.properties.elevation <= 145); // radius >= 1,550 m
    expect(arcs.length).toBeGreaterThan(8);
    let outside = 0, ends = Infinity;
    for (const f of arcs) {
      const pts = offsets(f.geometry.coordinates);
      for (const [x, y] of pts) outside = Math.max(outside, Math.max(Math.abs(x), Math.abs(y)) - 1500);
      for (const [x, y] of [pts[0], pts[pts.length - 1]]) ends = Math.min(ends, Math.max(Math.abs(x), Math.abs(y)));
    }
    expect(outside).toBeLessThan(0.12); // nothing beyond the edge (rounding aside)
    expect(ends).toBeGreaterThan(1500 - 0.12); // every end on the edge
  });

  it('a tilted plane gives parallel straight lines at the right spacing', async () => {
    // z = 100 + 0.02 dx + 0.01 dy: |grad| = 0.02236 m/m, so 5 m levels are 5 / 0.02236 = 223.6 m apart.
    const plane = (dx: number, dy: number) => 100 + 0.02 * dx + 0.01 * dy;
    // The DEM extends beyond the window (as a real tile does), so lines run straight to the window edge.
    const { source } = await writeDem(dir, 'plane', plane, { margin: 4 });
    const layer = await run(source, { interval: 5 });
    expect(layer.interval_source).toBe('requested');
    const grad = Math.hypot(0.02, 0.01);
    const byLevel = new Map(layer.features.features.map((f) => [f.properties.elevation, offsets(f.geometry.coordinates)]));
    expect(byLevel.size).toBe(layer.features.features.length); // one straight line per level
    expect(byLevel.size).toBe(17); // levels 60 .. 140 over the window's 55.1 .. 144.9 m
    let off = 0;
    for (const [level, pts] of byLevel) {
      for (const [x, y] of pts) off = Math.max(off, Math.abs(plane(x, y) - level) / grad);
      if (byLevel.has(level + 5)) {
        const [x, y] = pts[Math.floor(pts.length / 2)];
        expect(Math.abs(plane(x, y) - (level + 5)) / grad).toBeCloseTo(5 / grad, 0);
      }
    }
    // Every vertex on its plane line to within the lon/lat rounding (0.12 m) and Float32 storage.
    expect(off).toBeLessThan(0.15);
  });

  it('rotating the DEM 90 degrees rotates the lines', async () => {
    // An elliptical hill on a slope (no saddles). Turning the grid clockwise about the subject maps a
    // point (dx, dy) to (dy, -dx).
    const hill = (dx: number, dy: number) => 50 + 0.01 * dx + 40 * Math.exp(-(((dx - 300) / 500) ** 2) - ((dy + 200) / 250) ** 2);
    const { source, grid } = await writeDem(dir, 'hill', hill);
    const rotated = rotateClockwise(grid.data, grid.width, grid.height);
    const { source: turned } = await writeDem(dir, 'hill-turned', (dx, dy) => {
      const c = Math.floor((dx + 1500) / 5), r = Math.floor((1500 - dy) / 5);
      return rotated[r * grid.width + c];
    });
    const a = await run(source, { interval: 5 });
    const b = await run(turned, { interval: 5 });
    expect(b.levels).toEqual(a.levels);
    expect(b.features.features.length).toBe(a.features.features.length);
    // Vertex sets match both ways to within the lon/lat rounding (which is not rotation-invariant, so a
    // point or two may merge differently).
    let worst = 0;
    for (const level of a.levels) {
      const expected = a.features.features.filter((f) => f.properties.elevation === level).flatMap((f) => offsets(f.geometry.coordinates).map(([x, y]) => [y, -x] as [number, number]));
      const got = b.features.features.filter((f) => f.properties.elevation === level).flatMap((f) => offsets(f.geometry.coordinates));
      worst = Math.max(worst, farthestFromNearest(got, expected), farthestFromNearest(expected, got));
    }
    expect(worst).toBeLessThan(0.3);
  });

  it('outputs valid RFC 7946 GeoJSON: lon/lat LineStrings with an elevation, 6 decimals at most', async () => {
    const source = await coneDem();
    const layer = await run(source);
    expect(layer.features.type).toBe('FeatureCollection');
    expect(JSON.parse(JSON.stringify(layer))).toEqual(layer);
    const problems: string[] = [];
    for (const f of layer.features.features) {
      if (Object.keys(f).join() !== 'type,properties,geometry' || f.type !== 'Feature' || f.geometry.type !== 'LineString') problems.push('shape');
      const invalid = validateGeometry(f.geometry, true);
      if (invalid) problems.push(invalid.message);
      if (!Number.isFinite(f.properties.elevation)) problems.push('elevation');
      for (const [lon, lat] of f.geometry.coordinates) {
        if (!(lon > 151.18 && lon < 151.22 && lat > -33.89 && lat < -33.85)) problems.push(`not lon/lat near the subject: ${lon}, ${lat}`);
        if (Math.round(lon * 1e6) / 1e6 !== lon || Math.round(lat * 1e6) / 1e6 !== lat) problems.push(`more than 6 decimals: ${lon}, ${lat}`);
      }
    }
    expect(problems).toEqual([]);
    expect(layer.features.features.length).toBeGreaterThan(40);
  });
});

describe('contours from a DEM: coverage', () => {
  it('a window half outside the footprint reports covered_fraction about 0.5, lines stopping at the boundary', async () => {
    // The DEM holds only the western 300 of the window's 600 columns: its east edge is the window's centre line.
    const { source } = await writeDem(dir, 'half', cone, { columns: [0, 300] });
    const layer = await run(source);
    expect(layer.coverage).toBe('partial');
    expect(layer.covered_fraction).toBeGreaterThan(0.49);
    expect(layer.covered_fraction).toBeLessThan(0.51);
    let east = -Infinity, atBoundary = 0;
    for (const f of layer.features.features) {
      const pts = offsets(f.geometry.coordinates);
      for (const [x] of pts) east = Math.max(east, x);
      for (const [x] of [pts[0], pts[pts.length - 1]]) if (Math.abs(x) < 0.12) atBoundary++;
    }
    expect(east).toBeLessThan(0.12);
    expect(atBoundary).toBeGreaterThan(20);
  });

  it('is unavailable, naming the source, when the DEM has no data in the window', async () => {
    const { source } = await writeDem(dir, 'elsewhere', cone, { shiftEast: 10_000 });
    const layer = await demContours(source, SUBJECT.lon, SUBJECT.lat);
    expect(layer).toEqual({
      available: false,
      source: 'test_elsewhere',
      source_name: 'Test DEM elsewhere',
      reason: 'outside_coverage',
      note: expect.stringMatching(/outside the footprint of Test DEM elsewhere/),
      services_tried: ['test_elsewhere'],
    });
    const { source: empty } = await writeDem(dir, 'all-nodata', () => NaN);
    expect(await demContours(empty, SUBJECT.lon, SUBJECT.lat)).toMatchObject({ available: false, reason: 'outside_coverage' });
  });

  it('reports a missing DEM, one without georeferencing and one without a CRS as errors naming the file', async () => {
    await expectEngineError(() => demContours({ kind: 'dem', id: 'x', name: 'x', path: `${dir}/missing.tif` }, SUBJECT.lon, SUBJECT.lat), 'NOT_FOUND', /missing\.tif/);
    const source = await coneDem();
    const bytes = new Uint8Array(readFileSync(source.path)); // a copy: Buffer#slice would share memory
    const noGeoref = join(dir, 'no-georef.tif');
    writeFileSync(noGeoref, renameTiffTags(bytes, [TAG.ModelPixelScale, TAG.ModelTiepoint]));
    await expectEngineError(() => demContours({ ...source, path: noGeoref }, SUBJECT.lon, SUBJECT.lat), 'INVALID_DATA', /no-georef\.tif: no georeferencing/);
    const noCrs = join(dir, 'no-crs.tif');
    writeFileSync(noCrs, renameTiffTags(bytes, [TAG.GeoKeyDirectory]));
    await expectEngineError(() => demContours({ ...source, path: noCrs }, SUBJECT.lon, SUBJECT.lat), 'UNSUPPORTED', /no-crs\.tif: the file declares no CRS/);
    // Declared by the catalogue (or the CLI's --crs), the same file works.
    expect((await demContours({ ...source, path: noCrs, crs: WINDOW.crs }, SUBJECT.lon, SUBJECT.lat)).available).toBe(true);
  });
});

describe('contours from a DEM: interval_source', () => {
  it('requested', async () => {
    const source = await coneDem();
    const layer = await run(source, { interval: 2 }); // 212 m of relief: 106 levels
    expect(layer).toMatchObject({ interval_m: 2, interval_source: 'requested' });
    expect(layer.levels.every((l) => l % 2 === 0)).toBe(true);
  });

  it('raised_to_floor: 0.5 m on the national model becomes 1 m', async () => {
    // 85.025 m to 114.975 m across the window's cell centres: levels 86 .. 114 at 1 m.
    const { source } = await writeDem(dir, 'gentle', (dx) => 100 + dx / 100);
    const layer = await run(source, { interval: 0.5 });
    expect(layer).toMatchObject({ interval_m: 1, interval_source: 'raised_to_floor' });
    expect(layer.levels).toEqual(Array.from({ length: 29 }, (_, i) => 86 + i));
  });

  it('widened_to_fit: 1 m over 212 m of relief is too many levels', async () => {
    const source = await coneDem();
    const layer = await run(source, { interval: 1 });
    expect(layer).toMatchObject({ interval_m: 2, interval_source: 'widened_to_fit' });
  });

  it('auto: widened over steep relief when no interval is asked', async () => {
    // z = 900 - d / 2.5: about 850 m of relief; 5 m would be 170 levels, 10 m 85, 25 m 34.
    const { source } = await writeDem(dir, 'steep', (dx, dy) => 900 - Math.hypot(dx, dy) / 2.5);
    const layer = await run(source);
    expect(layer).toMatchObject({ interval_m: 25, interval_source: 'auto' });
    expect(layer.levels.every((l) => l % 25 === 0)).toBe(true);
  });
});

describe('contours from a DEM: truncation, in the spec order', () => {
  // A 40 x 40 field of 8 m hills, 75 m apart, on flat ground: 1,600 small rings at the 5 m level.
  const hills = (dx: number, dy: number) => {
    const hx = (((dx + 1500) % 75) + 75) % 75 - 37.5, hy = (((dy + 1500) % 75) + 75) % 75 - 37.5;
    return 8 * Math.exp(-(hx * hx + hy * hy) / (2 * 15 * 15));
  };

  it('only the 1,200-line cap acts: truncated, segments_dropped 0, the nearest 1,200 lines kept', async () => {
    const { source } = await writeDem(dir, 'hills', hills);
    const all = await run(source, { limits: { maxLines: Infinity } });
    expect(all.features.features).toHaveLength(1600);
    expect(all.truncated).toBe(false);
    const capped = await run(source);
    expect(capped.truncated).toBe(true);
    expect(capped.segments_dropped).toBe(0);
    expect(capped.features.features).toEqual(all.features.features.slice(0, 1200));
    expect(capped.truncated_note).toMatch(/^400 of 1600 contour lines were left out: 400 beyond the 1,200-line cap/);
    expect(capped.truncated_note).toMatch(/still span the window's full elevation range, 5 m to 5 m/);
    // Source order is nearest the subject first: every kept ring is nearer than every dropped one.
    const nearest = (f: (typeof all.features.features)[number]) => Math.min(...offsets(f.geometry.coordinates).map(([x, y]) => Math.hypot(x, y)));
    const keptFar = Math.max(...all.features.features.slice(0, 1200).map(nearest));
    const droppedNear = Math.min(...all.features.features.slice(1200).map(nearest));
    expect(keptFar).toBeLessThanOrEqual(droppedNear);
  });

  it('a single line over the per-feature limit is dropped at any spacing', async () => {
    const source = await coneDem();
    const full = await run(source, { interval: 50 });
    const ring200 = full.features.features.find((f) => f.properties.elevation === 200)!; // radius 1,000 m
    const limit = bytesOf(ring200) - 1;
    for (const interval of [50, 25, 100]) {
      const layer = await run(source, { interval, limits: { maxFeatureBytes: limit } });
      const unlimited = await run(source, { interval });
      const over = unlimited.features.features.filter((f) => bytesOf(f) > limit);
      expect(over.length).toBeGreaterThanOrEqual(1);
      expect(layer.truncated).toBe(true);
      expect(layer.segments_dropped).toBe(over.length);
      expect(layer.features.features.some((f) => f.properties.elevation === 200)).toBe(false);
      expect(layer.features.features.every((f) => bytesOf(f) <= limit)).toBe(true);
      expect(layer.features.features.length).toBe(unlimited.features.features.length - over.length);
    }
  });

  it('over the byte budget, lines are dropped band by band in rotation until the layer fits', async () => {
    const source = await coneDem();
    const full = await run(source, { interval: 10 });
    const size = (fs: typeof full.features.features) => fs.reduce((s, f) => s + bytesOf(f), 0) + fs.length - 1;
    const budget = Math.floor(size(full.features.features) * 0.6);
    const cut = await run(source, { interval: 10, limits: { maxLayerBytes: budget } });
    expect(cut.truncated).toBe(true);
    expect(size(cut.features.features)).toBeLessThanOrEqual(budget);
    const dropped = full.features.features.length - cut.features.features.length;
    expect(cut.segments_dropped).toBe(dropped);
    // Per band: the kept lines are the head of that band's lines in source order, and the numbers dropped
    // differ by at most one between bands that still have lines (the rotation).
    const drops: number[] = [];
    for (const level of full.levels) {
      const before = full.features.features.filter((f) => f.properties.elevation === level);
      const after = cut.features.features.filter((f) => f.properties.elevation === level);
      expect(after).toEqual(before.slice(0, after.length));
      if (after.length > 0) drops.push(before.length - after.length);
    }
    expect(Math.max(...drops) - Math.min(...drops)).toBeLessThanOrEqual(1);
    expect(cut.truncated_note).toMatch(/0 beyond the 1,200-line cap .* and \d+ dropped for size/);
  });
});
