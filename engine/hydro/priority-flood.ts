/**
 * Depression filling by Priority-Flood (Barnes, Lehman & Mulla 2014, "Priority-Flood: An optimal
 * depression-filling and watershed-labeling algorithm for digital elevation models", Computers &
 * Geosciences 62:117-127), in the variant of Zhou, Sun & Fu (2016, "An efficient variant of the
 * Priority-Flood algorithm for filling depressions in raster DEMs", Computers & Geosciences 90:87-96).
 *
 * The flood starts from every cell on the grid edge or next to no-data (water can leave there) and grows
 * inward, lowest boundary cell first. A cell reached from a neighbour at level `z` ends at
 * `max(own elevation, z)`: that is its spill level, the lowest level at which water standing on it could
 * leave the grid. Barnes's improvement floods the inside of a depression with a plain FIFO instead of the
 * priority queue (Algorithm 2); Zhou's adds that a cell reached from a lower one is final at its own
 * elevation, so whole slopes are traced with a plain queue too, and only cells that still border unvisited
 * lower ground enter the heap. Both change the order of work, never the result.
 *
 * With `epsilon` (the default) each cell raised inside a depression or flat sits one Float32 step
 * (`nextafter`) above the cell that reached it (Barnes et al. 2014, Algorithm 3, "Priority-Flood+epsilon"),
 * so every cell has a strictly lower neighbour and D8 needs no separate flat resolution; flats drain toward
 * their outlet along the breadth-first flood. The cost is a rise of at most (flat width in cells) x ulp:
 * about 7.6e-6 m per cell at 100 m elevation, so under 1 cm across a 1,000-cell flat.
 */
import { invalidArgument } from '../errors.js';
import type { Grid } from '../raster/grid.js';
import { CellHeap } from './cell-queue.js';
import { d8Offsets } from './d8.js';

/** Options for {@link fillDepressions}. */
export interface FillOptions {
  /**
   * Raise filled cells by one Float32 step per cell along the flood so that every cell drains (Barnes et al.
   * 2014, Algorithm 3). Default true. With false the result is the exact spill-level surface (flats stay flat).
   */
  epsilon?: boolean;
}

/** The result of {@link fillDepressions}. */
export interface FillResult {
  /** The filled surface (Float32, metres, no-data NaN), same georeferencing as the input. */
  filled: Grid<Float32Array>;
  /** Cells whose value was raised. */
  raisedCells: number;
}

const F32 = new Float32Array(1);
const I32 = new Int32Array(F32.buffer);
const SMALLEST_POSITIVE_F32 = 1.401298464324817e-45;

/** The next Float32 value above `v` (C's nextafterf(v, +inf)). */
export function nextUpFloat32(v: number): number {
  if (v === 0) return SMALLEST_POSITIVE_F32;
  F32[0] = v;
  I32[0] += v > 0 ? 1 : -1;
  return F32[0];
}

/**
 * Fills every depression of `dem` to its spill level (see the file comment). No-data cells (NaN or the
 * grid's no-data value) stay no-data and act as outlets, like the grid edge.
 */
export function fillDepressions(dem: Grid<Float32Array>, options: FillOptions = {}): FillResult {
  const { width: w, height: h } = dem;
  const n = w * h;
  if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1 || dem.data.length !== n) {
    throw invalidArgument('dem', `DEM must be a grid with width x height values, got ${w} x ${h} and ${dem.data.length} values`);
  }
  const epsilon = options.epsilon ?? true;
  // Work on a copy with a one-cell halo of closed cells, so neighbour loops need no bounds checks.
  const W = w + 2;
  const N = W * (h + 2);
  const z = new Float32Array(N);
  const closed = new Uint8Array(N).fill(1);
  const src = dem.data;
  const sentinel = Number.isNaN(dem.noData) ? null : dem.noData;
  let noDataCells = 0;
  for (let y = 0; y < h; y++) {
    const row = (y + 1) * W + 1;
    z.set(src.subarray(y * w, y * w + w), row);
    closed.fill(0, row, row + w);
    for (let p = row, e = row + w; p < e; p++) {
      const v = z[p];
      if (v !== v || v === sentinel) {
        z[p] = NaN;
        closed[p] = 1;
        noDataCells++;
      }
    }
  }
  const off = d8Offsets(W);
  const heap = new CellHeap(4 * (w + h));
  // Each cell enters each queue at most once, so N entries never overflow; untouched pages cost nothing.
  const fifo = new Int32Array(N);
  let fHead = 0;
  let fTail = 0;
  // Slope cells are traced breadth-first too: a front that climbs evenly leaves few lower cells unvisited
  // beside it, so few slope cells need the heap (depth-first tracing sends most of them there).
  const slope = new Int32Array(N);
  let sHead = 0;
  let sTail = 0;

  // Seeds: data cells on the edge or next to no-data, where water can leave.
  const seed = (p: number) => {
    if (closed[p]) return;
    closed[p] = 1;
    heap.push(z[p], p);
  };
  for (let x = 1; x <= w; x++) {
    seed(W + x);
    seed(h * W + x);
  }
  for (let y = 2; y < h; y++) {
    seed(y * W + 1);
    seed(y * W + w);
  }
  if (noDataCells > 0) {
    for (let y = 1; y <= h; y++) {
      for (let p = y * W + 1, e = y * W + w; p <= e; p++) {
        if (z[p] === z[p]) continue;
        for (let k = 0; k < 8; k++) {
          const q = p + off[k];
          if (z[q] === z[q] && !closed[q] && q % W !== 0 && q % W !== W - 1 && q >= W && q < N - W) seed(q);
        }
      }
    }
  }

  let raised = 0;
  for (;;) {
    let c: number;
    let spread: boolean;
    if (fHead < fTail) {
      c = fifo[fHead++];
      if (fHead === fTail) fHead = fTail = 0;
      spread = true;
    } else if (sHead < sTail) {
      c = slope[sHead++];
      if (sHead === sTail) sHead = sTail = 0;
      spread = false;
    } else if (heap.size > 0) {
      c = heap.pop();
      spread = true;
    } else break;
    const zc = z[c];
    if (spread) {
      // Unvisited neighbours at or below the spill level join the depression FIFO, raised to it; higher
      // ones are final at their own elevation and are traced up the slope.
      let level = zc;
      if (epsilon) {
        if (zc === 0) level = SMALLEST_POSITIVE_F32;
        else {
          F32[0] = zc;
          I32[0] += zc > 0 ? 1 : -1;
          level = F32[0];
        }
      }
      for (let k = 0; k < 8; k++) {
        const j = c + off[k];
        if (closed[j]) continue;
        closed[j] = 1;
        const v = z[j];
        if (v <= level) {
          if (v < level) {
            z[j] = level;
            raised++;
          }
          fifo[fTail++] = j;
        } else {
          slope[sTail++] = j;
        }
      }
    } else {
      // A slope cell: strictly higher unvisited neighbours are final too; if any unvisited neighbour is not
      // higher, the cell goes to the heap so that neighbour is flooded in elevation order.
      let border = false;
      for (let k = 0; k < 8; k++) {
        const j = c + off[k];
        if (closed[j]) continue;
        const zj = z[j];
        if (zj > zc) {
          closed[j] = 1;
          slope[sTail++] = j;
        } else if (!border) {
          // Zhou et al. (2016): the lower neighbour j needs this cell in the heap only if no closed cell
          // lower than j touches it. Such a cell is still waiting in a queue or the heap (once processed it
          // would have closed j), and will close j at its own elevation.
          let covered = false;
          for (let kk = 0; kk < 8; kk++) {
            const q = j + off[kk];
            if (closed[q] && z[q] < zj) {
              covered = true;
              break;
            }
          }
          if (!covered) border = true;
        }
      }
      if (border) heap.push(zc, c);
    }
  }
  const out = new Float32Array(n);
  for (let y = 0; y < h; y++) out.set(z.subarray((y + 1) * W + 1, (y + 1) * W + 1 + w), y * w);
  return { filled: { width: w, height: h, data: out, noData: NaN, transform: dem.transform, crs: dem.crs }, raisedCells: raised };
}
