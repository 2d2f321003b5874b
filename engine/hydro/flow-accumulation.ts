/**
 * D8 flow accumulation in topological order, without recursion: every cell counts itself plus every cell
 * that drains through it. Each cell's in-degree (how many neighbours drain into it) is counted first; then
 * a scan starts a walk at each cell nobody drains into and follows it downstream, passing its count on and
 * continuing only while the next cell has received all of its donors (its in-degree reaches zero). Every
 * cell is handled once, after all its donors, so the walk order is a topological order of the drainage
 * tree (the "sources first" scheme of e.g. Wallis et al. 2009, TauDEM's queue-based accumulation, done
 * as walks so no queue is needed). The order is returned for the HAND step, which runs it backwards.
 */
import { invalidArgument } from '../errors.js';
import type { Grid } from '../raster/grid.js';
import { D8_DX, D8_DY, D8_NODATA, d8Offsets } from './d8.js';

/** The result of {@link flowAccumulation}. */
export interface FlowAccumulation {
  /** Cells draining through each cell, the cell itself included (so 1 on a ridge); 0 on no-data. */
  accumulation: Grid<Uint32Array>;
  /** Every data cell once, each after all the cells that drain into it (upstream first). */
  order: Int32Array;
}

const DONE = 255;

/**
 * Flow accumulation of a D8 direction grid (codes as in d8.ts). Throws `INVALID_ARGUMENT` when a direction
 * points off the grid or into no-data, or the directions contain a cycle.
 */
export function flowAccumulation(directions: Grid<Uint8Array>): FlowAccumulation {
  const { width: w, height: h, data: dir } = directions;
  const n = w * h;
  if (dir.length !== n) throw invalidArgument('directions', `direction grid must have width x height values, got ${w} x ${h} and ${dir.length}`);
  const off = d8Offsets(w);
  const indeg = new Uint8Array(n);
  let valid = 0;
  for (let y = 0; y < h; y++) {
    const interiorRow = y > 0 && y < h - 1;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const d = dir[i];
      if (d === D8_NODATA) {
        indeg[i] = DONE;
        continue;
      }
      valid++;
      if (d >= 8) continue;
      if (!(interiorRow && x > 0 && x < w - 1)) {
        const xx = x + D8_DX[d];
        const yy = y + D8_DY[d];
        if (xx < 0 || xx >= w || yy < 0 || yy >= h) throw invalidArgument('directions', `cell (${x}, ${y}) drains off the grid (code ${d}); edge cells that leave the grid must be outlets`);
      }
      const r = i + off[d];
      if (dir[r] === D8_NODATA) throw invalidArgument('directions', `cell (${x}, ${y}) drains into a no-data cell`);
      indeg[r]++;
    }
  }

  // Counted in an Int32Array (V8 keeps small integers unboxed; Uint32 reads may not be) and returned as a
  // Uint32Array view of the same buffer: counts never exceed the cell count.
  const acc = new Int32Array(n);
  const order = new Int32Array(valid);
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (indeg[i] !== 0) continue;
    let j = i;
    for (;;) {
      // Donors have already added their totals; add the cell itself.
      const a = acc[j] + 1;
      acc[j] = a;
      indeg[j] = DONE;
      order[k++] = j;
      const d = dir[j];
      if (d >= 8) break;
      const r = j + off[d];
      acc[r] += a;
      // Continue downstream only once r has heard from all its donors.
      if (--indeg[r] !== 0) break;
      j = r;
    }
  }
  if (k !== valid) throw invalidArgument('directions', `flow directions contain a cycle: ${valid - k} cells never drain to an outlet`);
  return {
    accumulation: { width: w, height: h, data: new Uint32Array(acc.buffer), noData: 0, transform: directions.transform, crs: directions.crs },
    order,
  };
}
