/** DEM GeoTIFFs for the contours surface tests, built around a subject in its MGA zone. */
import { join } from 'node:path';
import { getTransformer, LONLAT } from '../../../../engine/geo/crs.js';
import { northUpTransform } from '../../../../engine/geo/geo-transform.js';
import { createWindow, windowGridSpec, type Window } from '../../../../engine/geo/window.js';
import { writeGeoTiff } from '../../../../engine/raster/geotiff-writer.js';
import type { Grid } from '../../../../engine/raster/grid.js';
import type { ContoursAvailable, ContoursLayer } from '../../../../engine/surfaces/contours/contours-layer.js';
import type { DemContourSource } from '../../../../engine/surfaces/contours/sources.js';

/** The test subject: central Sydney (NSW, so the national DEM applies), MGA zone 56. */
export const SUBJECT = { lon: 151.2, lat: -33.87 } as const;
export const WINDOW: Window = createWindow(SUBJECT.lon, SUBJECT.lat);

/** Options for {@link writeDem}. */
export interface DemOptions {
  /** Cell size, metres; default 5. */
  cell?: number;
  /** Keep only these columns of the window grid [from, to) (a DEM covering part of the window). */
  columns?: [number, number];
  /** Shift the whole grid east by this many metres (a DEM somewhere else). */
  shiftEast?: number;
  /** Extra cells beyond the window on every side (a DEM larger than the window); default 0. */
  margin?: number;
}

/**
 * Writes a DEM on the window's own grid (5 m cells, 600 x 600) with `f(dx, dy)` at every cell centre, where
 * dx, dy are metres east and north of the subject; returns its source descriptor and the grid.
 */
export async function writeDem(dir: string, name: string, f: (dx: number, dy: number) => number, options: DemOptions = {}): Promise<{ source: DemContourSource; grid: Grid<Float32Array> }> {
  const cell = options.cell ?? 5;
  const spec = windowGridSpec(WINDOW, cell);
  const m = options.margin ?? 0;
  const [c0, c1] = options.columns ?? [-m, spec.width + m];
  const west = spec.transform[0] + c0 * cell + (options.shiftEast ?? 0);
  const north = spec.transform[3] + m * cell;
  const width = c1 - c0;
  const height = spec.height + 2 * m;
  const data = new Float32Array(width * height);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const x = west + (c + 0.5) * cell, y = north - (r + 0.5) * cell;
      data[r * width + c] = f(x - WINDOW.x, y - WINDOW.y);
    }
  }
  const grid: Grid<Float32Array> = { width, height, data, noData: NaN, transform: northUpTransform(west, north, cell), crs: WINDOW.crs };
  const path = join(dir, `${name}.tif`);
  await writeGeoTiff(path, grid);
  return { source: { kind: 'dem', id: `test_${name}`, name: `Test DEM ${name}`, path }, grid };
}

/** Narrows a layer to the available form (fails the test otherwise). */
export function availableLayer(layer: ContoursLayer): ContoursAvailable {
  if (!layer.available) throw new Error(`layer unavailable: ${layer.reason}: ${layer.note}`);
  return layer;
}

const toMga = getTransformer(LONLAT, WINDOW.crs);

/** A feature's vertices as metres east and north of the subject (MGA grid metres). */
export function offsets(coordinates: number[][]): [number, number][] {
  return coordinates.map(([lon, lat]) => {
    const [x, y] = toMga.forward(lon, lat);
    return [x - WINDOW.x, y - WINDOW.y];
  });
}
