// Real data end to end (issue 23): the catalogue `propintel realdata` builds from ../shared/realdata, and the
// engine's answers on real land against references computed here straight from the source files: the zones
// and overlays at real points against a point-in-polygon over the file (turf), the flood score's official
// layer inside LSIO and SBO polygons, distances to real PTV stops against a great-circle computation, and the
// payload schema. Where the real-data folder is absent (it is never in the repository), they run on a
// generated miniature with the same layout and the publishers' fields (test/helpers/realdata-fixture.ts).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { bbox, booleanPointInPolygon, distance, pointToLineDistance } from '@turf/turf';
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ajv2020 } from '../helpers/ajv.js';
import { buildRealCatalogue, REAL_POINTS, REALDATA_FILES, vicmapRoadClass } from '../../datasets/realdata.js';
import { createEngine, type Engine } from '../../engine/runtime/engine.js';
import { PROPERTY_PAYLOAD_SCHEMA } from '../../engine/property/schema.js';
import { seededRandom } from '../../engine/random/seeded-random.js';
import { writeMiniRealdata } from '../helpers/realdata-fixture.js';
import { tempDir } from '../helpers/tmp.js';

const REAL = resolve(process.env.PROPINTEL_REALDATA ?? join(__dirname, '..', '..', '..', 'shared', 'realdata'));
// The real folder is never in the repository (several of its licences are for tests only): where it is
// absent, the same references run against a generated miniature with the publishers' layout and fields.
const real = existsSync(join(REAL, 'PROVENANCE.md'));
let FROM = REAL;
const validate = ajv2020().compile(PROPERTY_PAYLOAD_SCHEMA);

let engine: Engine;
const out = tempDir('realdata-');
type Payload = Record<string, any>;
const read = (rel: string) => JSON.parse(readFileSync(join(FROM, rel), 'utf8')) as FeatureCollection;

beforeAll(async () => {
  if (!real) FROM = await writeMiniRealdata(join(out, '..', `${basename(out)}-mini-realdata`));
  await buildRealCatalogue(FROM, out);
  engine = await createEngine({ datasets: out, threads: 2 });
}, 180_000);
afterAll(async () => {
  await engine?.close();
});

/** The codes of the polygons of `fc` holding the point (the reference). */
function codesAt(fc: FeatureCollection, lng: number, lat: number): string[] {
  return fc.features
    .filter((f) => (f.geometry?.type === 'Polygon' || f.geometry?.type === 'MultiPolygon') && booleanPointInPolygon([lng, lat], f as Feature<Polygon | MultiPolygon>))
    .map((f) => String(f.properties?.ZONE_CODE))
    .sort();
}

/**
 * A point well inside a polygon (at least 3 m from every ring, so not a boundary case where conventions
 * differ): the first of seeded random points in its box that is.
 */
function interiorPoint(f: Feature<Polygon | MultiPolygon>, seed: number): [number, number] | null {
  const [x0, y0, x1, y1] = bbox(f);
  const rings = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates).flat();
  const r = seededRandom(seed);
  for (let i = 0; i < 2000; i++) {
    const p: [number, number] = [x0 + r.next() * (x1 - x0), y0 + r.next() * (y1 - y0)];
    if (!booleanPointInPolygon(p, f)) continue;
    if (rings.every((ring) => pointToLineDistance(p, { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: ring } }, { units: 'meters' }) > 3)) return p;
  }
  return null;
}

/** Points spread over a box, from a fixed seed. */
function pointsIn(box: [number, number, number, number], n: number, seed: number): { lng: number; lat: number }[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => ({ lng: box[0] + r.next() * (box[2] - box[0]), lat: box[1] + r.next() * (box[3] - box[1]) }));
}

describe('the real Victorian catalogue', () => {
  it('infers road classes from Vicmap road types and leaves paths and foot bridges out', () => {
    expect([vicmapRoadClass('FREEWAY', 'road'), vicmapRoadClass('RAMP', 'road'), vicmapRoadClass('HIGHWAY', 'road'), vicmapRoadClass('ROAD', 'bridge'), vicmapRoadClass('STREET', 'road')]).toEqual(['motorway', 'motorway', 'arterial', 'collector', 'local']);
    expect([vicmapRoadClass('TRAIL', 'road'), vicmapRoadClass(null, 'road'), vicmapRoadClass('STREET', 'foot_bridge')]).toEqual([null, null, null]);
  });

  it('answers the zones and overlays a point-in-polygon over the source files finds, at 60 real points', async () => {
    const zones = { yarra: read(REALDATA_FILES.yarraZones), bendigo: read(REALDATA_FILES.bendigoZones) };
    const overlays = { yarra: read(REALDATA_FILES.yarraOverlays), bendigo: read(REALDATA_FILES.bendigoOverlays) };
    // Inside the Yarra extract (the LGA and 1 km around) and around central Bendigo.
    const sets = [
      { name: 'yarra' as const, points: pointsIn([144.965, -37.835, 145.02, -37.775], 40, 7) },
      { name: 'bendigo' as const, points: pointsIn([144.25, -36.78, 144.31, -36.73], 20, 8) },
    ];
    let withZone = 0;
    for (const s of sets) {
      for (const p of s.points) {
        const r = await engine.property({ lat: p.lat, lng: p.lng }, { components: ['planning'] });
        const pl = r.payload as Payload;
        const got = (pl.planning.zone as { source: string; core: { code: string } }[]).filter((z) => z.source.includes(s.name)).map((z) => z.core.code).sort();
        expect(got, `zones at ${p.lat}, ${p.lng}`).toEqual(codesAt(zones[s.name], p.lng, p.lat));
        const ov = ((pl.planning.overlays ?? pl.planning.overlay) as { source: string; core: { code: string } }[]).filter((o) => o.source.includes(s.name)).map((o) => o.core.code).sort();
        expect(ov, `overlays at ${p.lat}, ${p.lng}`).toEqual(codesAt(overlays[s.name], p.lng, p.lat));
        if (got.length) withZone++;
      }
    }
    expect(withZone).toBeGreaterThan(40); // the points mostly fall on zoned land
  }, 120_000);

  it('the flood score finds the LSIO and SBO overlays as an official-layer hit where they cover the point', async () => {
    const overlays = read(REALDATA_FILES.yarraOverlays);
    const flood = overlays.features.filter((f) => ['LSIO', 'SBO'].includes(String(f.properties?.SCHEMECODE)));
    expect(flood.length).toBeGreaterThan(50);
    const sample = flood.filter((_, i) => i % 8 === 0);
    let tested = 0;
    for (const [k, f] of sample.entries()) {
      const p = interiorPoint(f as Feature<Polygon | MultiPolygon>, k + 1);
      if (!p) continue; // a sliver with no point 3 m inside
      tested++;
      const [lng, lat] = p;
      const r = await engine.property({ lat, lng }, { components: ['scores.flood', 'planning'] });
      const pl = r.payload as Payload;
      expect(pl.scores.flood.official_layer, `${f.properties?.ZONE_CODE} at ${lat}, ${lng}`).toBe('hit');
      expect(((pl.planning.overlays ?? pl.planning.overlay) as { core: { code: string } }[]).map((o) => o.core.code)).toContain(String(f.properties?.ZONE_CODE));
    }
    expect(tested).toBeGreaterThan(10);
  }, 120_000);

  it('gives the distance to the nearest real PTV stop as a great-circle computation over the stops file does', async () => {
    const stops = read(REALDATA_FILES.ptvStops).features.map((f) => (f.geometry as { coordinates: number[] }).coordinates);
    for (const p of [...REAL_POINTS.slice(0, 3), ...pointsIn([144.95, -37.83, 145.0, -37.78], 12, 9)]) {
      const r = await engine.property({ lat: p.lat, lng: p.lng }, { components: ['transport'] });
      const nearest = (r.payload as Payload).transport.pt_stop[0];
      let best = Infinity;
      for (const c of stops) best = Math.min(best, distance([p.lng, p.lat], c, { units: 'kilometers' }));
      // The payload rounds to metres; the sphere radii of the two computations differ by under 0.2%.
      expect(Math.abs(nearest.distance_km - best), `at ${p.lat}, ${p.lng}`).toBeLessThan(0.0015 + best * 0.002);
    }
  }, 60_000);

  it('answers every real point with a payload that validates against the schema, naming what it lacks', async () => {
    for (const p of REAL_POINTS) {
      const r = await engine.property({ lat: p.lat, lng: p.lng }, { include_surfaces: true, surfaces: ['contours'] });
      const pl = r.payload as Payload;
      const ok = validate(pl);
      expect(ok, `${p.name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
      // Paths with no real source are not assessed, never an empty "checked" answer.
      expect(pl.meta.coverage_status.development_applications.status).toBe('not_assessed');
      expect(pl.meta.coverage_status['environment.landfill'].status).toBe('not_assessed');
    }
    const merewether = (await engine.property({ lat: REAL_POINTS[4].lat, lng: REAL_POINTS[4].lng }, { include_surfaces: true, surfaces: ['contours'] })).payload as Payload;
    expect(merewether.surfaces.contours).toMatchObject({ available: true, source: 'nsw_dem_merewether' });
    expect(merewether.surfaces.contours.features.features.length).toBeGreaterThan(5);
    // The DEM spans 16.5 to 52 m: every traced level lies within it.
    for (const l of merewether.surfaces.contours.levels as number[]) expect(l >= 16.5 && l <= 52).toBe(true);
  }, 120_000);
});
