import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTransformer, LONLAT } from '../../../../engine/geo/crs.js';
import { createWindow } from '../../../../engine/geo/window.js';
import { unpackContours, type ContoursAvailable } from '../../../../engine/surfaces/contours/contours-layer.js';
import type { ContourRequestOptions } from '../../../../engine/surfaces/contours/request.js';
import type { VectorContourSource } from '../../../../engine/surfaces/contours/sources.js';
import { vectorContours } from '../../../../engine/surfaces/contours/vector-contours.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';
import { tempDir } from '../../../helpers/tmp.js';

const dir = tempDir('propintel-contour-lines-');
/** A Melbourne subject (VIC: the state's own contour lines apply), MGA zone 55. */
const SUBJECT = { lon: 145.0, lat: -37.8 };
const W = createWindow(SUBJECT.lon, SUBJECT.lat);
const toLonLat = getTransformer(W.crs, LONLAT);
const toMga = getTransformer(LONLAT, W.crs);

type Line = { elevation: number; points: [number, number][]; multi?: boolean };

/** East-west lines at elevation e, 40 m apart northwards, 5 km long (longer than the 3 km window). */
function terraces(elevations: number[], spacing = 40, centre = 30): Line[] {
  return elevations.map((e) => ({ elevation: e, points: Array.from({ length: 51 }, (_, i) => [-2500 + i * 100, (e - centre) * spacing] as [number, number]) }));
}

/** Writes lines (given as metres east/north of the subject) as GeoJSON, in lon/lat or in MGA. */
function writeLines(name: string, lines: Line[], crs: 'lonlat' | 'mga' = 'lonlat', extra: object[] = []): string {
  const coords = (pts: [number, number][]) => pts.map(([dx, dy]) => (crs === 'mga' ? [W.x + dx, W.y + dy] : toLonLat.forward(W.x + dx, W.y + dy)));
  const features = lines.map((l) => ({
    type: 'Feature',
    properties: { elevation: l.elevation, name: `c${l.elevation}` },
    geometry: l.multi ? { type: 'MultiLineString', coordinates: [coords(l.points)] } : { type: 'LineString', coordinates: coords(l.points) },
  }));
  const path = join(dir, `${name}.geojson`);
  writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features: [...features, ...extra] }));
  return path;
}

const metro = (path: string, extra: Partial<VectorContourSource> = {}): VectorContourSource => ({ kind: 'vector', id: 'vic_metro', name: 'Vicmap Elevation metro 1 m contours', state: 'VIC', path, native_interval_m: 1, floor_m: 1, ...extra });
const statewide = (path: string): VectorContourSource => ({ kind: 'vector', id: 'vic_statewide', name: 'Vicmap Elevation statewide 10 m contours', state: 'VIC', path, native_interval_m: 10, floor_m: 10 });

async function run(source: VectorContourSource, options: ContourRequestOptions = {}): Promise<ContoursAvailable> {
  const layer = unpackContours(await vectorContours(source, SUBJECT.lon, SUBJECT.lat, options));
  if (!layer.available) throw new Error(`unavailable: ${layer.note}`);
  return layer;
}

const offsets = (coords: number[][]) => coords.map(([lon, lat]) => {
  const [x, y] = toMga.forward(lon, lat);
  return [x - W.x, y - W.y];
});

// 61 terraces (0 .. 60 m, 1,200 m either side of the subject) and a 35 m ring wholly inside the window.
const ring: Line = { elevation: 35, points: [[300, 300], [700, 300], [700, 700], [300, 700], [300, 300]] };
const base = [...terraces(Array.from({ length: 61 }, (_, i) => i)), ring];

describe('contours from a state contour-line dataset', () => {
  it('keeps the lines whose elevation is a multiple of the interval, clipped to the window, in file order', async () => {
    const layer = await run(metro(writeLines('base', base)), { interval: 5 });
    expect(layer).toMatchObject({ source: 'vic_metro', native_interval_m: 1, interval_m: 5, interval_source: 'requested', truncated: false });
    expect(layer.levels).toEqual(Array.from({ length: 13 }, (_, i) => 5 * i));
    const elevations = layer.features.features.map((f) => f.properties.elevation);
    expect(elevations).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 35]); // file order; the ring last
    for (const f of layer.features.features.slice(0, 13)) {
      const pts = offsets(f.geometry.coordinates);
      // Clipped at the window's west and east edges (the lines are 5 km long), direction kept (west to east).
      expect(pts[0][0]).toBeCloseTo(-1500, 0);
      expect(pts[pts.length - 1][0]).toBeCloseTo(1500, 0);
      expect(pts.every(([x, y]) => Math.abs(x) <= 1500.12 && Math.abs(y - (f.properties.elevation - 30) * 40) < 0.2)).toBe(true);
    }
    const kept = layer.features.features[13].geometry.coordinates;
    expect(kept[0]).toEqual(kept[kept.length - 1]); // the ring inside stays closed
  });

  it('auto: the default 5 m on a 1 m dataset when no interval is asked', async () => {
    const layer = await run(metro(writeLines('auto', base)));
    expect(layer).toMatchObject({ interval_m: 5, interval_source: 'auto' });
  });

  it('raised_to_floor: 5 m from the statewide 10 m dataset becomes 10 m', async () => {
    const layer = await run(statewide(writeLines('statewide', base)), { interval: 5 });
    expect(layer).toMatchObject({ native_interval_m: 10, interval_m: 10, interval_source: 'raised_to_floor', levels: [0, 10, 20, 30, 40, 50, 60] });
  });

  it('widened_to_fit: a spacing the dataset does not hold, or too many levels', async () => {
    const a = await run(statewide(writeLines('fifteen', base)), { interval: 15 });
    expect(a).toMatchObject({ interval_m: 20, interval_source: 'widened_to_fit', levels: [0, 20, 40, 60] });
    // 300 terraces 9 m apart (all inside the window): 300 levels at 1 m, 150 at 2 m, 60 at 5 m.
    const dense = terraces(Array.from({ length: 300 }, (_, i) => i), 9, 150);
    const b = await run(metro(writeLines('dense', dense)), { interval: 1 });
    expect(b).toMatchObject({ interval_m: 5, interval_source: 'widened_to_fit' });
    expect(b.levels).toHaveLength(60);
  });

  it('reads a dataset stored in a projected CRS the same as one in lon/lat', async () => {
    const lonlat = await run(metro(writeLines('ll', base)), { interval: 10 });
    const projected = await run(metro(writeLines('mga', base, 'mga'), { crs: W.crs }), { interval: 10 });
    expect(projected.levels).toEqual(lonlat.levels);
    const flat = (l: ContoursAvailable) => l.features.features.flatMap((f) => f.geometry.coordinates.flat());
    const a = flat(lonlat), b = flat(projected);
    expect(b.length).toBe(a.length);
    expect(Math.max(...a.map((v, i) => Math.abs(v - b[i])))).toBeLessThanOrEqual(1.01e-6); // one unit of rounding
  });

  it('takes MultiLineString features and a custom elevation property', async () => {
    const path = join(dir, 'multi.geojson');
    const line = (e: number) => terraces([e])[0].points.map(([dx, dy]) => toLonLat.forward(W.x + dx, W.y + dy));
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { ALTITUDE: 20 }, geometry: { type: 'MultiLineString', coordinates: [line(20), line(40).map(([x, y]) => [x, y])] } }] }));
    const layer = await run(metro(path, { elevation_property: 'ALTITUDE' }), { interval: 10 });
    expect(layer.features.features).toHaveLength(2);
    expect(layer.levels).toEqual([20]);
  });

  it('is unavailable, naming the dataset, when it has no lines in the window (no fallback)', async () => {
    const far = terraces([100, 110]).map((l) => ({ ...l, points: l.points.map(([x, y]) => [x, y + 5000] as [number, number]) }));
    const layer = await vectorContours(metro(writeLines('far', far)), SUBJECT.lon, SUBJECT.lat);
    expect(layer).toEqual({
      available: false,
      source: 'vic_metro',
      source_name: 'Vicmap Elevation metro 1 m contours',
      reason: 'no_lines_in_window',
      note: expect.stringMatching(/has no contour lines in the window .* not substituted/),
      services_tried: ['vic_metro'],
    });
  });

  it('is available with no features when lines exist but none at the interval', async () => {
    const layer = await run(metro(writeLines('odd', terraces([11, 13, 17]))), { interval: 10 });
    expect(layer).toMatchObject({ available: true, levels: [], truncated: false });
    expect(layer.features.features).toEqual([]);
  });

  it('rejects features that are not lines or carry no elevation, naming the file', async () => {
    const noElevation = writeLines('bad-elev', [], 'lonlat', [{ type: 'Feature', properties: { name: 'x' }, geometry: { type: 'LineString', coordinates: [[145, -37.8], [145.01, -37.8]] } }]);
    await expectEngineError(() => vectorContours(metro(noElevation), SUBJECT.lon, SUBJECT.lat), 'INVALID_DATA', /bad-elev\.geojson/, /"elevation"/);
    const polygon = writeLines('bad-geom', [], 'lonlat', [{ type: 'Feature', properties: { elevation: 5 }, geometry: { type: 'Polygon', coordinates: [[[145, -37.8], [145.01, -37.8], [145.01, -37.79], [145, -37.8]]] } }]);
    await expectEngineError(() => vectorContours(metro(polygon), SUBJECT.lon, SUBJECT.lat), 'INVALID_DATA', /bad-geom\.geojson/, /Polygon/);
  });
});
