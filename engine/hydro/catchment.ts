/**
 * The catchment of one cell, walked upstream over the D8 directions (breadth-first over donors, no
 * recursion): its size, and whether it reaches the edge of the grid or no-data. A catchment that reaches
 * the edge continues outside the analysed area, so its contributing area is only a lower bound (the "edge
 * contamination" of TauDEM's AreaD8, Tarboton 1997).
 */
import { invalidArgument } from '../errors.js';
import type { Grid } from '../raster/grid.js';
import { D8_DX, D8_DY, D8_NODATA } from './d8.js';

/** What {@link upstreamCatchment} found. */
export interface Catchment {
  /** Cells draining through the cell, itself included (equals its flow accumulation). */
  cells: number;
  /** True when a cell of the catchment lies on the grid edge or next to no-data. */
  reachesEdge: boolean;
}

/** Walks the catchment of `cell` upstream (see the file comment). */
export function upstreamCatchment(directions: Grid<Uint8Array>, cell: number): Catchment {
  const { width: w, height: h, data: dir } = directions;
  if (!Number.isInteger(cell) || cell < 0 || cell >= w * h || dir[cell] === D8_NODATA) throw invalidArgument('cell', `cell ${cell} is not a data cell of the ${w} x ${h} grid`);
  const queue = [cell];
  let reachesEdge = false;
  for (let q = 0; q < queue.length; q++) {
    const c = queue[q];
    const x = c % w;
    const y = (c - x) / w;
    if (x === 0 || y === 0 || x === w - 1 || y === h - 1) reachesEdge = true;
    for (let k = 0; k < 8; k++) {
      const xx = x + D8_DX[k];
      const yy = y + D8_DY[k];
      if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
      const j = yy * w + xx;
      const d = dir[j];
      if (d === D8_NODATA) {
        reachesEdge = true;
        continue;
      }
      // j donates to c when its direction points back along -k, i.e. code (k + 4) mod 8.
      if (d === ((k + 4) & 7)) queue.push(j);
    }
  }
  return { cells: queue.length, reachesEdge };
}
