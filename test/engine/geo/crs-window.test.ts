import { describe, expect, it } from 'vitest';
import { getTransformer, isGeographic, LONLAT, mgaCrsForLon, mgaZoneForLon, normaliseCrs, requireCrs, transformBBox } from '../../../engine/geo/crs.js';
import { distanceMetres } from '../../../engine/geo/distance.js';
import { createWindow, lonLatToWindow, windowGridSpec, windowLonLatBBox, windowToLonLat } from '../../../engine/geo/window.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';

describe('CRS identifiers', () => {
  it('normalises the usual spellings to EPSG:<code>', () => {
    expect(normaliseCrs(7855)).toBe('EPSG:7855');
    expect(normaliseCrs('epsg:7855')).toBe('EPSG:7855');
    expect(normaliseCrs('urn:ogc:def:crs:EPSG::28355')).toBe('EPSG:28355');
    expect(normaliseCrs('urn:ogc:def:crs:OGC:1.3:CRS84')).toBe('EPSG:4326');
    expect(normaliseCrs('http://www.opengis.net/def/crs/EPSG/0/3577')).toBe('EPSG:3577');
    expect(normaliseCrs('WGS 84 please')).toBeNull();
  });

  it('rejects an unsupported CRS with UNSUPPORTED naming the CRS and the context', async () => {
    await expectEngineError(() => requireCrs('EPSG:2193', 'layer nz.geojson'), 'UNSUPPORTED', 'EPSG:2193', 'nz.geojson');
  });

  it('chooses the MGA zone from longitude (6-degree bands, zone 55 = 144-150 E)', () => {
    expect(mgaZoneForLon(144.96)).toBe(55);
    expect(mgaZoneForLon(151.21)).toBe(56);
    expect(mgaZoneForLon(115.86)).toBe(50);
    expect(mgaZoneForLon(138.6)).toBe(54);
    expect(mgaZoneForLon(130.84)).toBe(52);
    expect(mgaCrsForLon(147.33)).toBe('EPSG:7855');
    expect(isGeographic('EPSG:7844')).toBe(true);
    expect(isGeographic('EPSG:7855')).toBe(false);
  });
});

describe('reprojection', () => {
  it('round-trips lon/lat -> MGA -> lon/lat with error under 0.01 m across Australia', () => {
    const rnd = seededRandom(99);
    let worst = 0;
    for (let i = 0; i < 2000; i++) {
      const lon = rnd.range(113, 153.6);
      const lat = rnd.range(-43.6, -10.5);
      const crs = mgaCrsForLon(lon);
      const [x, y] = getTransformer(LONLAT, crs).forward(lon, lat);
      const [lon2, lat2] = getTransformer(crs, LONLAT).forward(x, y);
      worst = Math.max(worst, distanceMetres(lon, lat, lon2, lat2));
    }
    expect(worst).toBeLessThan(0.01);
  });

  it('matches GDAL for the Merewether DEM extent (EPSG:32756, from the realdata provenance)', () => {
    // PROVENANCE.md (computed with GDAL): x 382249.8-382570.8, y 6354265.4-6354681.4 is
    // lon 151.7403-151.7438, lat -32.9436 to -32.9398, all to 4 decimals.
    const box = transformBBox([382249.8, 6354265.4, 382570.8, 6354681.4], 'EPSG:32756', LONLAT);
    const gdal = [151.7403, -32.9436, 151.7438, -32.9398];
    box.forEach((v, i) => expect(Math.abs(v - gdal[i])).toBeLessThan(1.5e-4));
  });

  it('puts MGA eastings 500 km on the central meridian and scales by 0.9996 there', () => {
    const t = getTransformer(LONLAT, 'EPSG:7855');
    const [x] = t.forward(147, -37);
    expect(x).toBeCloseTo(500000, 3);
    const [, y1] = t.forward(147, -37);
    const [, y2] = t.forward(147, -37.001);
    const ground = distanceMetres(147, -37, 147, -37.001);
    expect((y1 - y2) / ground).toBeCloseTo(0.9996, 5);
  });

  it('transforms a box with densified edges to contain every transformed point', () => {
    const box = transformBBox([320000, 5800000, 330000, 5810000], 'EPSG:7855', LONLAT);
    const t = getTransformer('EPSG:7855', LONLAT);
    for (const [x, y] of [[325000, 5800000], [320000, 5805000], [330000, 5810000]]) {
      const [lon, lat] = t.forward(x, y);
      expect(lon).toBeGreaterThanOrEqual(box[0]);
      expect(lon).toBeLessThanOrEqual(box[2]);
      expect(lat).toBeGreaterThanOrEqual(box[1]);
      expect(lat).toBeLessThanOrEqual(box[3]);
    }
  });
});

describe('the analysis window', () => {
  it('is a 3,000 m square in the subject MGA zone centred on the subject', () => {
    const w = createWindow(144.9631, -37.8136);
    expect(w.crs).toBe('EPSG:7855');
    expect(w.bbox[2] - w.bbox[0]).toBe(3000);
    expect(w.bbox[3] - w.bbox[1]).toBe(3000);
    const [lon, lat] = windowToLonLat(w, w.x, w.y);
    expect(distanceMetres(lon, lat, 144.9631, -37.8136)).toBeLessThan(0.001);
    const [x, y] = lonLatToWindow(w, 144.9631, -37.8136);
    expect(x).toBeCloseTo(w.x, 6);
    expect(y).toBeCloseTo(w.y, 6);
  });

  it('spans about 1.5 km each way on the ground (MGA scale within 0.04%)', () => {
    const w = createWindow(151.2093, -33.8688);
    const [lonE, latE] = windowToLonLat(w, w.bbox[2], w.y);
    const [lonN, latN] = windowToLonLat(w, w.x, w.bbox[3]);
    expect(Math.abs(distanceMetres(w.lon, w.lat, lonE, latE) - 1500)).toBeLessThan(1500 * 0.0006);
    expect(Math.abs(distanceMetres(w.lon, w.lat, lonN, latN) - 1500)).toBeLessThan(1500 * 0.0006);
    const box = windowLonLatBBox(w);
    expect(box[0]).toBeLessThan(w.lon);
    expect(box[2]).toBeGreaterThan(w.lon);
  });

  it('gives a 600 x 600 grid at 5 m with the subject at the centre', () => {
    const w = createWindow(153.026, -27.4705);
    const spec = windowGridSpec(w, 5);
    expect([spec.width, spec.height]).toEqual([600, 600]);
    expect(spec.transform[0] + 300 * 5).toBeCloseTo(w.x, 6);
    expect(spec.transform[3] - 300 * 5).toBeCloseTo(w.y, 6);
    expect(spec.transform[5]).toBe(-5);
  });

  it('rejects out-of-range coordinates with INVALID_ARGUMENT naming the parameter', async () => {
    await expectEngineError(() => createWindow(145, -95), 'INVALID_ARGUMENT', /lat/);
    await expectEngineError(() => createWindow(Number.NaN, -37), 'INVALID_ARGUMENT', /lng/);
    await expectEngineError(() => createWindow(145, -37, -5), 'INVALID_ARGUMENT', /half-width/);
  });
});
