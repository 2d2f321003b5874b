/**
 * D8 flow directions (O'Callaghan & Mark 1984, "The extraction of drainage networks from digital elevation
 * data", CVGIP 28:323-344): each cell drains to the neighbour with the steepest downward slope, drop over
 * centre-to-centre distance (diagonals are sqrt(dx^2 + dy^2) away). Ties go to the first neighbour in code
 * order (E, SE, S, SW, W, NW, N, NE), so the result is deterministic.
 *
 * Run it on a filled surface ({@link fillDepressions} with epsilon): every cell then has a strictly lower
 * neighbour or lies on the edge. An edge cell (or a cell next to no-data) with no lower neighbour inside is
 * an outlet: water leaves the grid there. An interior cell with no lower neighbour (only possible on an
 * unfilled surface) is a pit and drains nowhere.
 */
import { invalidArgument } from '../errors.js';
import type { Grid } from '../raster/grid.js';
import { metricCellSize } from './cell-size.js';
import { D8_DX, D8_DY, D8_NODATA, D8_OUTLET, D8_PIT, d8Distances } from './d8.js';

/**
 * D8 flow directions of a surface: a Uint8 grid of direction codes 0-7 (see d8.ts), {@link D8_OUTLET},
 * {@link D8_PIT} or {@link D8_NODATA} (the grid's no-data value).
 */
export function d8FlowDirections(surface: Grid<Float32Array>): Grid<Uint8Array> {
  const { width: w, height: h } = surface;
  const n = w * h;
  if (surface.data.length !== n || w < 1 || h < 1) throw invalidArgument('surface', `surface must have width x height values, got ${w} x ${h} and ${surface.data.length}`);
  let z = surface.data;
  if (!Number.isNaN(surface.noData)) {
    // One no-data test (v !== v) in the hot loop: turn a sentinel no-data value into NaN first.
    const nd = surface.noData;
    z = Float32Array.from(z, (v) => (v === nd ? NaN : v));
  }
  const { x: cx, y: cy } = metricCellSize(surface);
  const dist = d8Distances(cx, cy);
  const inv = new Float64Array(8);
  for (let k = 0; k < 8; k++) inv[k] = 1 / dist[k];
  const iOrth = inv[0];
  const iDiag = inv[1];
  const iVert = inv[2];
  const dir = new Uint8Array(n);

  for (let y = 0; y < h; y++) {
    const interiorRow = y > 0 && y < h - 1;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const zi = z[i];
      if (zi !== zi) {
        dir[i] = D8_NODATA;
        continue;
      }
      let best = 0;
      let bestK = -1;
      let edge = false;
      if (interiorRow && x > 0 && x < w - 1) {
        // Unrolled in code order E, SE, S, SW, W, NW, N, NE; NaN neighbours fail every comparison.
        const a = z[i + 1], b = z[i + w + 1], c = z[i + w], d = z[i + w - 1];
        const e = z[i - 1], f = z[i - w - 1], g = z[i - w], k7 = z[i - w + 1];
        let s = (zi - a) * iOrth;
        if (s > best) { best = s; bestK = 0; }
        s = (zi - b) * iDiag;
        if (s > best) { best = s; bestK = 1; }
        s = (zi - c) * iVert;
        if (s > best) { best = s; bestK = 2; }
        s = (zi - d) * iDiag;
        if (s > best) { best = s; bestK = 3; }
        s = (zi - e) * iOrth;
        if (s > best) { best = s; bestK = 4; }
        s = (zi - f) * iDiag;
        if (s > best) { best = s; bestK = 5; }
        s = (zi - g) * iVert;
        if (s > best) { best = s; bestK = 6; }
        s = (zi - k7) * iDiag;
        if (s > best) { best = s; bestK = 7; }
        if (bestK < 0) edge = a !== a || b !== b || c !== c || d !== d || e !== e || f !== f || g !== g || k7 !== k7;
      } else {
        edge = true;
        for (let k = 0; k < 8; k++) {
          const xx = x + D8_DX[k];
          const yy = y + D8_DY[k];
          if (xx < 0 || xx >= w || yy < 0 || yy >= h) continue;
          const s = (zi - z[yy * w + xx]) * inv[k];
          if (s > best) {
            best = s;
            bestK = k;
          }
        }
      }
      dir[i] = bestK >= 0 ? bestK : edge ? D8_OUTLET : D8_PIT;
    }
  }
  return { width: w, height: h, data: dir, noData: D8_NODATA, transform: surface.transform, crs: surface.crs };
}
