import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeArrayBuffer } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { getTransformer, LONLAT } from '../../../engine/geo/crs.js';
import { northUpTransform, pixelToWorld } from '../../../engine/geo/geo-transform.js';
import { createWindow, windowGridSpec } from '../../../engine/geo/window.js';
import { encodeGeoTiff, writeGeoTiff } from '../../../engine/raster/geotiff-writer.js';
import { openRaster } from '../../../engine/raster/geotiff-reader.js';
import { gridStats } from '../../../engine/raster/grid-stats.js';
import type { Grid } from '../../../engine/raster/grid.js';
import { LATTICE_STEP, sourcePixelPositions } from '../../../engine/raster/resample.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { realdata } from '../../helpers/realdata.js';
import { renameTiffTags, TAG } from '../../helpers/tiff.js';
import { tempDir } from '../../helpers/tmp.js';
import { needsRealdata } from '../../helpers/skip.js';

const dir = tempDir();

/** A 200 x 150 grid at 5 m in MGA 55 whose value is a known function of the cell. */
function planeGrid(noData = NaN): Grid<Float32Array> {
  const width = 200, height = 150;
  const data = new Float32Array(width * height);
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) data[r * width + c] = 100 + 0.5 * c - 0.25 * r;
  data[7 * width + 9] = noData; // one missing cell
  return { width, height, data, noData, transform: northUpTransform(320000, 5812000, 5), crs: 'EPSG:7855' };
}

describe('GeoTIFF write and read back', () => {
  it('round-trips values, CRS, transform and NaN no-data', async () => {
    const file = join(dir, 'plane.tif');
    const g = planeGrid();
    await writeGeoTiff(file, g);
    const r = await openRaster(file);
    try {
      expect(r.info).toMatchObject({ width: 200, height: 150, bands: 1, crs: 'EPSG:7855', sampleFormat: 3, bitsPerSample: 32 });
      expect(r.info.transform).toEqual([320000, 5, 0, 5812000, 0, -5]);
      expect(Number.isNaN(r.info.noData)).toBe(true);
      const back = await r.readPixels([0, 0, 200, 150]);
      expect(back.transform).toEqual(g.transform);
      for (let i = 0; i < g.data.length; i++) {
        if (Number.isNaN(g.data[i])) expect(back.data[i]).toBeNaN();
        else expect(back.data[i]).toBe(g.data[i]);
      }
    } finally {
      await r.close();
    }
  });

  it('reads a window at native resolution with its own transform, and NaN outside the raster', async () => {
    const file = join(dir, 'plane-9999.tif');
    await writeGeoTiff(file, planeGrid(-9999));
    const r = await openRaster(file);
    try {
      expect(r.info.noData).toBe(-9999);
      const w = await r.readPixels([190, 140, 210, 160]); // 10 x 10 inside, the rest outside
      expect([w.width, w.height]).toEqual([20, 20]);
      expect(w.transform).toEqual([320000 + 190 * 5, 5, 0, 5812000 - 140 * 5, 0, -5]);
      expect(w.data[0]).toBe(100 + 0.5 * 190 - 0.25 * 140);
      expect(w.data[9 * 20 + 9]).toBe(100 + 0.5 * 199 - 0.25 * 149);
      expect(w.data[10]).toBeNaN(); // column 200: outside
      expect(w.data[10 * 20]).toBeNaN(); // row 150: outside
      const missing = await r.readPixels([9, 7, 10, 8]);
      expect(missing.data[0]).toBeNaN(); // -9999 became NaN
      expect(gridStats(w).count).toBe(100);
    } finally {
      await r.close();
    }
  });

  it('reads the native cells covering an analysis window around a point', async () => {
    const file = join(dir, 'window.tif');
    await writeGeoTiff(file, planeGrid());
    const r = await openRaster(file);
    try {
      const [lon, lat] = getTransformer('EPSG:7855', LONLAT).forward(320500, 5811625);
      const win = createWindow(lon, lat, 100);
      const g = await r.readWindow(win);
      expect(g).not.toBeNull();
      // 200 m across at 5 m: 40 cells, or 41 when the window edges fall inside cells.
      expect(g!.width).toBeGreaterThanOrEqual(40);
      expect(g!.width).toBeLessThanOrEqual(41);
      const [x0, y0] = pixelToWorld(g!.transform, 0, 0);
      // The cells cover the window (edges within a nanometre count as on a cell boundary).
      expect(x0).toBeLessThanOrEqual(win.bbox[0] + 1e-6);
      expect(y0).toBeGreaterThanOrEqual(win.bbox[3] - 1e-6);
      expect(await r.readWindow(createWindow(146, -37))).toBeNull();
    } finally {
      await r.close();
    }
  });

  it('resamples onto a shifted grid in the same CRS (bilinear reproduces a plane exactly)', async () => {
    const file = join(dir, 'resample.tif');
    await writeGeoTiff(file, planeGrid());
    const r = await openRaster(file);
    try {
      const target = { width: 50, height: 40, transform: northUpTransform(320102.5, 5811897.5, 5), crs: 'EPSG:7855' } as const;
      const g = await r.readOnto(target, { method: 'bilinear' });
      for (let row = 0; row < 40; row++) {
        for (let col = 0; col < 50; col++) {
          // Target cell centre sits at source fractional pixel (20.5 + col + 0.5, 20.5 + row + 0.5) - 0.5.
          const sc = 20.5 + col, sr = 20.5 + row;
          expect(g.data[row * 50 + col]).toBeCloseTo(100 + 0.5 * sc - 0.25 * sr, 3);
        }
      }
      const nearest = await r.readOnto(target, { method: 'nearest' });
      expect(nearest.data[0]).toBe(100 + 0.5 * 21 - 0.25 * 21);
    } finally {
      await r.close();
    }
  });

  it('resamples a lon/lat raster onto an MGA window grid, matching the analytic surface', async () => {
    // f(lon, lat) = 1000 lon + 2000 lat on a 0.0001-degree grid: bilinear interpolation of a linear
    // function is exact, so any error comes from the coordinate mapping.
    const width = 400, height = 400, west = 144.94, north = -37.79, step = 0.0001;
    const data = new Float32Array(width * height);
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) {
      data[r * width + c] = 1000 * (west + (c + 0.5) * step) + 2000 * (north - (r + 0.5) * step) + 80000;
    }
    const file = join(dir, 'lonlat.tif');
    await writeGeoTiff(file, { width, height, data, noData: NaN, transform: northUpTransform(west, north, step), crs: 'EPSG:4326' });
    const r = await openRaster(file);
    try {
      expect(r.info.crs).toBe('EPSG:4326');
      const win = createWindow(144.96, -37.81, 800);
      const spec = windowGridSpec(win, 10);
      const g = await r.readOnto(spec);
      const toLL = getTransformer(spec.crs, LONLAT);
      let checked = 0;
      for (let row = 0; row < spec.height; row += 7) {
        for (let col = 0; col < spec.width; col += 7) {
          const [x, y] = pixelToWorld(spec.transform, col + 0.5, row + 0.5);
          const [lon, lat] = toLL.forward(x, y);
          const expected = 1000 * lon + 2000 * lat + 80000;
          // Float32 holds ~0.008 at 80,000; the mapping error adds a little on top.
          expect(Math.abs(g.data[row * spec.width + col] - expected)).toBeLessThan(0.02);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(100);
    } finally {
      await r.close();
    }
  });

  it('keeps the lattice approximation of source positions within 0.01 pixel of the exact transform', () => {
    const src = { transform: northUpTransform(144.9, -37.7, 0.00005), crs: 'EPSG:4326' };
    const win = createWindow(144.96, -37.81);
    const spec = windowGridSpec(win, 5);
    const { cols, rows } = sourcePixelPositions(src, spec);
    const toLL = getTransformer(spec.crs, LONLAT);
    let worst = 0;
    for (let row = 3; row < spec.height; row += LATTICE_STEP + 3) {
      for (let col = 5; col < spec.width; col += LATTICE_STEP + 1) {
        const [x, y] = pixelToWorld(spec.transform, col + 0.5, row + 0.5);
        const [lon, lat] = toLL.forward(x, y);
        const ec = (lon - 144.9) / 0.00005, er = (-37.7 - lat) / 0.00005;
        worst = Math.max(worst, Math.abs(cols[row * spec.width + col] - ec), Math.abs(rows[row * spec.width + col] - er));
      }
    }
    expect(worst).toBeLessThan(0.01);
  });

  it('gives the exact source positions in the same CRS, offset and at another cell size (to 1e-9 pixel)', () => {
    const win = createWindow(144.96, -37.81);
    const spec = windowGridSpec(win, 10);
    // A land-cover-like source: 10 m cells on a grid offset by a third of a cell, in the window's CRS.
    const src = { transform: northUpTransform(spec.transform[0] - 1003.3, spec.transform[3] + 997.7, 7.5), crs: spec.crs };
    const { cols, rows } = sourcePixelPositions(src, spec);
    let worst = 0;
    for (let row = 0; row < spec.height; row += 7) {
      for (let col = 0; col < spec.width; col += 5) {
        const [x, y] = pixelToWorld(spec.transform, col + 0.5, row + 0.5);
        const ec = (x - src.transform[0]) / 7.5, er = (src.transform[3] - y) / 7.5;
        worst = Math.max(worst, Math.abs(cols[row * spec.width + col] - ec), Math.abs(rows[row * spec.width + col] - er));
      }
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it('reads class rasters in their native type', async () => {
    const width = 30, height = 20;
    const data = new Uint8Array(width * height).map((_, i) => (i % 7) + 1);
    const file = join(dir, 'classes.tif');
    await writeGeoTiff(file, { width, height, data, noData: 0, transform: northUpTransform(500000, 6000000, 10), crs: 'EPSG:7856' });
    const r = await openRaster(file);
    try {
      const g = await r.readPixelsNative([25, 15, 35, 25]);
      expect(g.data).toBeInstanceOf(Uint8Array);
      expect(g.noData).toBe(0);
      expect(g.data[0]).toBe(((15 * width + 25) % 7) + 1);
      expect(g.data[9]).toBe(0); // outside
    } finally {
      await r.close();
    }
  });

  it('round-trips every sample type across several tiles, with and without compression', async () => {
    // 300 x 270 spans two tiles each way at 256, so edge tiles are padded; predictor 2 for integers, 3 for floats.
    const width = 300, height = 270;
    const types = [Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array] as const;
    for (const T of types) {
      for (const compression of ['deflate', 'none'] as const) {
        const data = new T(width * height);
        for (let i = 0; i < data.length; i++) data[i] = T === Float32Array || T === Float64Array ? Math.sin(i / 37) * 1000 + i / 7 : (i * 7919) % (T === Int8Array ? 127 : 250);
        const file = join(dir, `types-${T.name}-${compression}.tif`);
        await writeGeoTiff(file, { width, height, data, noData: 0, transform: northUpTransform(500000, 6000000, 2), crs: 'EPSG:7856' }, { compression });
        const r = await openRaster(file);
        try {
          expect(r.info).toMatchObject({ width, height, compression: compression === 'deflate' ? 8 : 1, tiled: true, crs: 'EPSG:7856' });
          const back = await r.readPixelsNative([0, 0, width, height]);
          expect(back.data.constructor).toBe(T);
          expect(Array.from(back.data)).toEqual(Array.from(data));
        } finally {
          await r.close();
        }
      }
    }
  });

  it('compresses a smooth DEM well below its raw size', () => {
    const width = 512, height = 512;
    const data = new Float32Array(width * height);
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) data[r * width + c] = Math.round((40 + 0.02 * c + 10 * Math.sin(r / 80)) * 100) / 100;
    const bytes = encodeGeoTiff({ width, height, data, noData: NaN, transform: northUpTransform(0, 0, 5), crs: 'EPSG:7855' });
    expect(bytes.byteLength).toBeLessThan(width * height * 4 * 0.6);
  });

  it('refuses to encode a grid whose data does not match its shape', async () => {
    await expectEngineError(() => encodeGeoTiff({ ...planeGrid(), width: 7 }), 'INVALID_ARGUMENT', /values but width x height/);
  });
});

describe('GeoTIFF bad input: a named error at open, never half-loaded data', () => {
  const good = () => encodeGeoTiff(planeGrid());

  it('rejects a file that is not a TIFF', async () => {
    const file = join(dir, 'garbage.tif');
    writeFileSync(file, Buffer.from('this is not a tiff at all, just text'));
    await expectEngineError(() => openRaster(file), 'INVALID_DATA', 'garbage.tif', /not a readable GeoTIFF/);
  });

  it('rejects a truncated file before reading pixels', async () => {
    const bytes = good();
    const file = join(dir, 'truncated.tif');
    writeFileSync(file, bytes.subarray(0, bytes.length - 5000));
    await expectEngineError(() => openRaster(file), 'INVALID_DATA', 'truncated.tif', /truncated/);
  });

  it('a tile whose compressed bytes are garbled: the header opens (a COG is read by window, so tiles are decoded when read), and the first read touching it fails naming the file', async () => {
    // 64-pixel tiles: 4 x 3 of them. The encoder writes the IFD first and the tiles after it in order, so the
    // end of the file is the last (south-east) tile's DEFLATE stream.
    const bytes = encodeGeoTiff(planeGrid(), { tileSize: 64 });
    const bad = Uint8Array.from(bytes);
    bad.fill(0xff, bad.length - 200, bad.length - 20);
    const file = join(dir, 'garbled.tif');
    writeFileSync(file, bad);
    const r = await openRaster(file);
    try {
      await expectEngineError(() => r.readPixels([0, 0, 200, 150]), 'INVALID_DATA', 'garbled.tif', /cannot decode pixels/);
      // Tiles the damage does not touch still read: the failure is the read's, not the raster's.
      const first = await r.readPixels([0, 0, 16, 16]);
      expect(first.data[0]).toBe(100);
    } finally {
      await r.close();
    }
  });

  it('rejects an unsupported CRS naming it', async () => {
    const file = join(dir, 'nztm.tif');
    const buf = writeArrayBuffer(new Float32Array(100), { width: 10, height: 10, ModelPixelScale: [10, 10, 0], ModelTiepoint: [0, 0, 0, 1750000, 5900000, 0], GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 2193 } as never);
    writeFileSync(file, new Uint8Array(buf));
    await expectEngineError(() => openRaster(file), 'UNSUPPORTED', 'nztm.tif', 'EPSG:2193');
  });

  it('rejects a raster with no georeferencing', async () => {
    const file = join(dir, 'nogeo.tif');
    writeFileSync(file, renameTiffTags(good(), [TAG.ModelPixelScale, TAG.ModelTiepoint, TAG.GeoKeyDirectory]));
    await expectEngineError(() => openRaster(file), 'INVALID_DATA', 'nogeo.tif', /no georeferencing/);
  });

  it('rejects a raster with no CRS unless the catalogue declares one', async () => {
    const file = join(dir, 'nocrs.tif');
    writeFileSync(file, renameTiffTags(good(), [TAG.GeoKeyDirectory]));
    await expectEngineError(() => openRaster(file), 'UNSUPPORTED', 'nocrs.tif', /declares no CRS/);
    const r = await openRaster(file, { crs: 'EPSG:7855' });
    expect(r.info.crs).toBe('EPSG:7855');
    await r.close();
  });

  it('rejects a CRS that disagrees with the catalogue', async () => {
    const file = join(dir, 'mismatch.tif');
    writeFileSync(file, good());
    await expectEngineError(() => openRaster(file, { crs: 'EPSG:28355' }), 'INVALID_DATA', 'mismatch.tif', /inconsistent CRS/, 'EPSG:7855', 'EPSG:28355');
  });

  it('reports a missing file as NOT_FOUND', async () => {
    await expectEngineError(() => openRaster(join(dir, 'nope.tif')), 'NOT_FOUND', 'nope.tif');
  });
});

describe('real DEMs from ../shared/realdata (skipped when absent)', () => {
  const merewether = realdata('dem/merewether_nsw_1m_dem.tif');
  it('reads the Merewether 1 m LiDAR DEM (tiled, DEFLATE, EPSG:32756)', async (ctx) => {
    needsRealdata(ctx, merewether, 'dem/merewether_nsw_1m_dem.tif');
    const r = await openRaster(merewether!);
    try {
      expect(r.info).toMatchObject({ width: 321, height: 416, crs: 'EPSG:32756', compression: 8, tiled: true });
      const s = gridStats(await r.readPixels([0, 0, 321, 416]));
      // PROVENANCE.md: elevation 16.5-52.0 m.
      expect(s.min).toBeGreaterThanOrEqual(16.4);
      expect(s.max).toBeLessThanOrEqual(52.1);
      expect(s.count).toBeGreaterThan(321 * 416 * 0.9);
    } finally {
      await r.close();
    }
  });

  const melbourne = realdata('dem/inner_melbourne_mapdeck_mesh_20m_mga55.tif');
  it('resamples the inner-Melbourne DEM (GDA94 MGA 55) onto a GDA2020 window grid', async (ctx) => {
    needsRealdata(ctx, melbourne, 'dem/inner_melbourne_mapdeck_mesh_20m_mga55.tif');
    const r = await openRaster(melbourne!);
    try {
      expect(r.info.crs).toBe('EPSG:28355');
      const win = createWindow(144.99, -37.80);
      const g = await r.readOnto(windowGridSpec(win, 20));
      const s = gridStats(g);
      expect(s.count).toBe(150 * 150);
      expect(s.min).toBeGreaterThan(-5);
      expect(s.max).toBeLessThan(77);
    } finally {
      await r.close();
    }
  });
});
