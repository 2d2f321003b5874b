// The Shapefile and GeoPackage readers on files GDAL writes (ogr2ogr, the reference tool publishers use):
// the same features, attributes and coordinates as the GeoJSON GDAL was given, in MGA zone 55 and lon/lat,
// with UTF-8 and Windows-1252 attribute text. Skips, naming why, where gdal-bin is not installed (it fails
// instead under .ci/run, which installs it).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGeoJsonLayer } from '../../../engine/vector/geojson-reader.js';
import { readGeoPackageLayer } from '../../../engine/vector/geopackage-reader.js';
import { readShapefileLayer } from '../../../engine/vector/shapefile-reader.js';
import { missingTool, needs } from '../../helpers/skip.js';
import { tempDir } from '../../helpers/tmp.js';

const missing = missingTool('ogr2ogr', ['--version'], 'gdal-bin');
const dir = tempDir('gdal-written-');
const ogr = (...args: string[]) => {
  const r = spawnSync('ogr2ogr', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ogr2ogr ${args.join(' ')}: ${r.stderr}`);
};

const fc = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { ZONE_CODE: 'GRZ1', NAME: 'Café Zürich', AREA: 12.5 }, geometry: { type: 'Polygon', coordinates: [[[144.98, -37.81], [144.99, -37.81], [144.99, -37.80], [144.98, -37.80], [144.98, -37.81]], [[144.983, -37.807], [144.983, -37.806], [144.984, -37.806], [144.984, -37.807], [144.983, -37.807]]] } },
    { type: 'Feature', properties: { ZONE_CODE: 'C1Z', NAME: 'Smith St', AREA: 3 }, geometry: { type: 'MultiPolygon', coordinates: [[[[144.99, -37.80], [145.0, -37.80], [145.0, -37.79], [144.99, -37.80]]], [[[145.01, -37.79], [145.02, -37.79], [145.02, -37.78], [145.01, -37.79]]]] } },
  ],
};

/** Every position of a layer's features, flattened. */
const positions = (features: { geometry: unknown }[]) => features.flatMap((f) => (f.geometry as { coordinates: unknown }).coordinates as never).flat(Infinity as 3) as number[];

describe('files written by GDAL', () => {
  for (const crs of ['EPSG:4283', 'EPSG:28355']) {
    it(`Shapefile (UTF-8 and Windows-1252) and GeoPackage in ${crs} read back as the GeoJSON source`, async (ctx) => {
      needs(ctx, missing);
      const src = join(dir, `src-${crs.slice(5)}.geojson`);
      writeFileSync(src, JSON.stringify(fc));
      const tag = crs.slice(5);
      ogr('-f', 'ESRI Shapefile', '-s_srs', 'EPSG:4283', '-t_srs', crs, '-lco', 'ENCODING=UTF-8', join(dir, `utf8-${tag}.shp`), src);
      ogr('-f', 'ESRI Shapefile', '-s_srs', 'EPSG:4283', '-t_srs', crs, '-lco', 'ENCODING=CP1252', join(dir, `cp1252-${tag}.shp`), src);
      ogr('-f', 'GPKG', '-s_srs', 'EPSG:4283', '-t_srs', crs, join(dir, `z-${tag}.gpkg`), src);
      const want = await readGeoJsonLayer(src);
      for (const layer of [await readShapefileLayer(join(dir, `utf8-${tag}.shp`)), await readShapefileLayer(join(dir, `cp1252-${tag}.shp`)), await readGeoPackageLayer(join(dir, `z-${tag}.gpkg`))]) {
        expect(layer.features.map((f) => [f.properties?.ZONE_CODE, f.properties?.NAME, f.properties?.AREA])).toEqual(want.features.map((f) => [f.properties?.ZONE_CODE, f.properties?.NAME, f.properties?.AREA]));
        expect(layer.features.map((f) => f.geometry.type)).toEqual(['Polygon', 'MultiPolygon']);
        const got = positions(layer.features).sort((a, b) => a - b);
        const ref = positions(want.features).sort((a, b) => a - b);
        expect(got.length).toBe(ref.length);
        // A round trip through MGA 55 and back: within a millimetre (1e-8 degrees).
        got.forEach((v, i) => expect(Math.abs(v - ref[i])).toBeLessThan(1e-8));
      }
    });
  }
});
