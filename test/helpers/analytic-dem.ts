/** Analytic DEMs for the score tests: a surface z = f(east, north) in metres around a subject, on an MGA grid. */
import { createWindow, windowGridSpec } from '../../engine/geo/window.js';
import { cellCentre, createGrid, type Grid } from '../../engine/raster/grid.js';

/** A subject in inner Melbourne (MGA zone 55). */
export const SUBJECT = { lon: 144.98, lat: -37.8 } as const;

/**
 * A Float32 DEM of `cell` metres over the square of `halfWidth` metres around (lon, lat), whose value at
 * each cell centre is `f(east, north)` with east/north in metres from the subject.
 */
export function analyticDem(f: (east: number, north: number) => number, options: { lon?: number; lat?: number; halfWidth?: number; cell?: number } = {}): Grid<Float32Array> {
  const w = createWindow(options.lon ?? SUBJECT.lon, options.lat ?? SUBJECT.lat, options.halfWidth ?? 1700);
  const spec = windowGridSpec(w, options.cell ?? 10);
  const g = createGrid(spec, Float32Array);
  for (let r = 0; r < g.height; r++) {
    for (let c = 0; c < g.width; c++) {
      const [x, y] = cellCentre(g, c, r);
      g.data[r * g.width + c] = f(x - w.x, y - w.y);
    }
  }
  return g;
}
