/**
 * Single-pass, multi-level isolines of a grid: marching squares with fragment joining, as GDAL's
 * `alg/marching_squares` (Oslandia, 2018) and maplibre-contour's `isolines` do it, for every level in one
 * sweep instead of one sweep per level (d3-contour's approach).
 *
 * Geometry (GDAL's convention): the value of pixel (col, row) sits at its centre, (col + 0.5, row + 0.5) in
 * pixel coordinates, where (0, 0) is the north-west corner of the grid and y grows southwards. Squares join
 * four neighbouring pixel centres. The grid is padded with a ring of no-data, and every square with a no-data
 * corner is split into quarter squares around its valid corners, the missing values replaced by the mean of
 * the valid ones (GDAL `Square::upperLeftSquare()` etc.). So lines run to the outer edge of the grid and stop
 * on the edge of a no-data cell, never half a cell short.
 *
 * Rules, all GDAL's so results compare line for line with `gdal_contour`:
 * - a corner is "high" for level L when its value >= L (d3-contour's rule; GDAL's `fudge` moves a value
 *   within 1e-6 of L up by 1e-6, which classifies a value equal to L the same way and differs only for
 *   values less than a micrometre below a level);
 * - crossings are linearly interpolated along the edge between two pixel centres;
 * - saddles (two diagonal corners high, two low) always connect the north-west / south-east diagonal,
 *   whichever side is high: GDAL's fixed choice (`Square::segments`, SADDLE_NE / SADDLE_NW). Deciding by
 *   the centre value instead lets lines of different levels cross; a fixed choice cannot, because the same
 *   diagonal is connected for every level in that square;
 * - every segment runs with the higher ground on its right, looking along it on a north-up map (GDAL's
 *   stated orientation). GDAL emits its NW saddle with the same point order as its NE saddle, which puts
 *   the high side on the left there; here both saddles are oriented by the rule, so every line is.
 *
 * Joining: a crossing is a node identified by (edge, level). Edge nodes are numbered before the square pass
 * (the crossings of an edge are a contiguous run of level indices), so joining is two typed-array writes per
 * segment (`next[from] = to; prev[to] = from`), with no hash map. Each node has at most one successor and one
 * predecessor, so lines are traced by following `next`: chains from a node without a predecessor are open
 * lines (they end on the grid or no-data boundary), what remains are closed rings.
 */
import { invalidArgument } from '../../errors.js';

/** Isolines of a grid in pixel coordinates, packed into flat arrays. */
export interface IsolineSet {
  /** The levels asked for, ascending. */
  levels: Float64Array;
  /** Per line: index into `levels`. */
  lineLevel: Int32Array;
  /** Per line: 1 when the line is a closed ring (its last point repeats its first), else 0. */
  lineClosed: Uint8Array;
  /** Per line `i`, its points are `lineOffsets[i] .. lineOffsets[i + 1] - 1`; length = lines + 1. */
  lineOffsets: Uint32Array;
  /** Interleaved x, y of every point, pixel coordinates ((0, 0) = north-west corner, y southwards). */
  xy: Float64Array;
}

/** Options for {@link isolines}. */
export interface IsolineOptions {
  /**
   * The spacing of `levels` when they are evenly spaced (e.g. the contour interval). Optional: it only lets
   * the per-pixel level search start from an arithmetic guess instead of a binary search.
   */
  step?: number;
}

/** Checks that `levels` are finite and strictly ascending. */
function checkLevels(levels: Float64Array): void {
  for (let i = 0; i < levels.length; i++) {
    if (!Number.isFinite(levels[i]) || (i > 0 && !(levels[i] > levels[i - 1]))) {
      throw invalidArgument('levels', `levels must be finite and strictly ascending; level ${i} is ${levels[i]}`);
    }
  }
}

/**
 * For every pixel, the number of levels at or below its value (`-1` for no-data), so that corner `p` is high
 * for level `k` exactly when `count[p] > k`; and, in the same sweep, the number of crossings on all edges
 * between two valid pixel centres (an edge between counts a and b carries |a - b| crossings). Counts are
 * fixed against the level array itself, so a guess that floating-point division got wrong by one is
 * corrected by direct comparison.
 */
function levelCounts(values: ArrayLike<number>, width: number, levels: Float64Array, step: number | undefined): { counts: Int32Array; noData: number; edgeNodes: number } {
  const n = levels.length;
  const counts = new Int32Array(values.length);
  const first = levels[0];
  const inv = step && step > 0 ? 1 / step : 0;
  let noData = 0;
  let edgeNodes = 0;
  for (let i = 0, c = 0; i < values.length; i++, c++) {
    if (c === width) c = 0;
    const v = values[i];
    if (v !== v) {
      counts[i] = -1;
      noData++;
      continue;
    }
    const k = countAtOrBelow(v, levels, n, first, inv);
    counts[i] = k;
    if (c > 0) {
      const a = counts[i - 1];
      if (a >= 0) edgeNodes += a < k ? k - a : a - k;
    }
    if (i >= width) {
      const a = counts[i - width];
      if (a >= 0) edgeNodes += a < k ? k - a : a - k;
    }
  }
  return { counts, noData, edgeNodes };
}

function countAtOrBelow(v: number, levels: Float64Array, n: number, first: number, inv: number): number {
  let k: number;
  if (inv) {
    // Truncation by `| 0` instead of Math.floor keeps k a small integer for V8 (the hot loop of the pass).
    const x = (v - first) * inv;
    k = x < 0 ? 0 : x >= n ? n : (x | 0) + 1;
  } else {
    // Binary search: the first level above v.
    let lo = 0, hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (levels[mid] <= v) lo = mid + 1;
      else hi = mid;
    }
    k = lo;
  }
  while (k < n && v >= levels[k]) k++;
  while (k > 0 && v < levels[k - 1]) k--;
  return k;
}

/**
 * Links the segments of one square (or quarter square) at one level. `cs` is the marching-squares case with
 * GDAL's bit layout (upper-left 1, lower-left 2, lower-right 4, upper-right 8; a bit is set when that corner
 * is high); `t`, `r`, `b`, `l` are the node ids of the crossings on the top, right, bottom and left edges
 * (only those the case uses are meaningful). Each segment runs from -> to with the high side on its right.
 */
function link(next: Int32Array, prev: Int32Array, cs: number, t: number, r: number, b: number, l: number): void {
  switch (cs) {
    case 1: next[t] = l; prev[l] = t; return; // UL high: top -> left
    case 2: next[l] = b; prev[b] = l; return; // LL high: left -> bottom
    case 3: next[t] = b; prev[b] = t; return; // UL, LL: top -> bottom
    case 4: next[b] = r; prev[r] = b; return; // LR high: bottom -> right
    case 5: // saddle NW (UL, LR high): connect them, cut the low LL and UR corners
      next[b] = l; prev[l] = b;
      next[t] = r; prev[r] = t;
      return;
    case 6: next[l] = r; prev[r] = l; return; // LL, LR: left -> right
    case 7: next[t] = r; prev[r] = t; return; // all but UR: top -> right
    case 8: next[r] = t; prev[t] = r; return; // UR high: right -> top
    case 9: next[r] = l; prev[l] = r; return; // UR, UL: right -> left
    case 10: // saddle NE (LL, UR high): cut each high corner, the low UL and LR stay connected
      next[l] = b; prev[b] = l;
      next[r] = t; prev[t] = r;
      return;
    case 11: next[r] = b; prev[b] = r; return; // all but LR: right -> bottom
    case 12: next[b] = t; prev[t] = b; return; // LR, UR: bottom -> top
    case 13: next[b] = l; prev[l] = b; return; // all but LL: bottom -> left
    case 14: next[l] = t; prev[t] = l; return; // all but UL: left -> top
  }
}

/** Mutable state of one run, shared by the passes. */
interface Run {
  values: ArrayLike<number>;
  width: number;
  height: number;
  levels: Float64Array;
  counts: Int32Array;
  /**
   * For the edge from pixel i to i + 1: the node id of its first crossing minus the lower level count of
   * its two ends, so that the crossing of level k is node `hOff[i] + k`.
   */
  hOff: Int32Array;
  /** The same for the edge from pixel i to i + width. */
  vOff: Int32Array;
  xy: Float64Array;
  next: Int32Array;
  prev: Int32Array;
  nodeLevel: Int32Array;
  nodes: number;
  inv: number;
  /** Column and row of this grid's (0, 0) in the caller's grid (non-zero when all-no-data borders were cropped). */
  c0: number;
  r0: number;
}

/** Mean of two values where either may be NaN (GDAL `Square::upperCenter()` and friends). */
function mid(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return 0.5 * (a + b);
}

/**
 * A square with at least one no-data corner: split into quarter squares around its valid corners (GDAL
 * `Square::process` with `nanCount > 0`). Corners are pixel (c, r) .. (c + 1, r + 1); either may be outside
 * the grid (the padding ring). Crossings on the four spokes from the edge midpoints to the centre get fresh
 * nodes; crossings on the square's own edges reuse the edge nodes, so lines join across squares.
 */
function splitSquare(run: Run, c: number, r: number): void {
  const { values, width: W, height: H, counts } = run;
  const iUL = r * W + c;
  const top0 = r >= 0, bottom0 = r + 1 < H, left0 = c >= 0, right0 = c + 1 < W;
  const vUL = top0 && left0 ? values[iUL] : NaN;
  const vUR = top0 && right0 ? values[iUL + 1] : NaN;
  const vLL = bottom0 && left0 ? values[iUL + W] : NaN;
  const vLR = bottom0 && right0 ? values[iUL + W + 1] : NaN;
  const okUL = vUL === vUL, okUR = vUR === vUR, okLL = vLL === vLL, okLR = vLR === vLR;
  if (!okUL && !okUR && !okLL && !okLR) return;
  const kUL = okUL ? counts[iUL] : -1;
  const kUR = okUR ? counts[iUL + 1] : -1;
  const kLL = okLL ? counts[iUL + W] : -1;
  const kLR = okLR ? counts[iUL + W + 1] : -1;

  const vUC = mid(vUL, vUR), vLC = mid(vUL, vLL), vLoC = mid(vLL, vLR), vRC = mid(vUR, vLR);
  let sum = 0, valid = 0;
  if (okUL) (sum += vUL), valid++;
  if (okUR) (sum += vUR), valid++;
  if (okLL) (sum += vLL), valid++;
  if (okLR) (sum += vLR), valid++;
  const vCe = sum / valid;
  const kUC = countOf(run, vUC), kLC = countOf(run, vLC), kLoC = countOf(run, vLoC), kRC = countOf(run, vRC), kCe = countOf(run, vCe);

  // Spokes from the edge midpoints to the centre (c + 1, r + 1): up, right, down, left. (pc, pr) is the
  // square's column and row in the caller's grid (integers, so the sums below are exact).
  const pc = c + run.c0, pr = r + run.r0;
  const cx = pc + 1, cy = pr + 1;
  const up = spoke(run, vUC, kUC, cx, pr + 0.5, vCe, kCe, cx, cy);
  const right = spoke(run, vRC, kRC, pc + 1.5, cy, vCe, kCe, cx, cy);
  const down = spoke(run, vLoC, kLoC, cx, pr + 1.5, vCe, kCe, cx, cy);
  const left = spoke(run, vLC, kLC, pc + 0.5, cy, vCe, kCe, cx, cy);
  // Edge nodes of the square's own edges (meaningful only when both ends are valid; the quarter case never
  // uses a half-edge whose far end is no-data, because its two corner values are equal).
  const top = okUL && okUR ? run.hOff[iUL] : 0;
  const bottom = okLL && okLR ? run.hOff[iUL + W] : 0;
  const leftE = okUL && okLL ? run.vOff[iUL] : 0;
  const rightE = okUR && okLR ? run.vOff[iUL + 1] : 0;

  if (okUL) quarter(run, kUL, kUC, kLC, kCe, top, up, left, leftE);
  if (okUR) quarter(run, kUC, kUR, kCe, kRC, top, rightE, right, up);
  if (okLL) quarter(run, kLC, kCe, kLL, kLoC, left, down, bottom, leftE);
  if (okLR) quarter(run, kCe, kRC, kLoC, kLR, right, rightE, bottom, down);
}

/** The level count of a derived (mean) value; -1 for NaN. */
function countOf(run: Run, v: number): number {
  return v === v ? countAtOrBelow(v, run.levels, run.levels.length, run.levels[0], run.inv) : -1;
}

/**
 * Numbers the crossings on one spoke, from the edge midpoint (mx, my) with value vm (count km) to the
 * centre (cx, cy) with value vc (count kc), and returns its node offset (node of level k = offset + k).
 */
function spoke(run: Run, vm: number, km: number, mx: number, my: number, vc: number, kc: number, cx: number, cy: number): number {
  if (km < 0) return 0;
  const lo = km < kc ? km : kc, hi = km < kc ? kc : km;
  const offset = run.nodes - lo;
  const { xy, nodeLevel, levels } = run;
  for (let k = lo; k < hi; k++) {
    const t = (levels[k] - vm) / (vc - vm);
    const id = run.nodes++;
    xy[2 * id] = mx + t * (cx - mx);
    xy[2 * id + 1] = my + t * (cy - my);
    nodeLevel[id] = k;
  }
  return offset;
}

/** One quarter square: corner counts and the node offsets of its top, right, bottom and left edges. */
function quarter(run: Run, kUL: number, kUR: number, kLL: number, kLR: number, t: number, r: number, b: number, l: number): void {
  const lo = Math.min(kUL, kUR, kLL, kLR);
  const hi = Math.max(kUL, kUR, kLL, kLR);
  for (let k = lo; k < hi; k++) {
    const cs = (kUL > k ? 1 : 0) | (kLL > k ? 2 : 0) | (kLR > k ? 4 : 0) | (kUR > k ? 8 : 0);
    link(run.next, run.prev, cs, t + k, r + k, b + k, l + k);
  }
}

/**
 * Isolines of `values` (a row-major `width` x `height` grid, row 0 north, NaN = no-data) at every level in
 * `levels` (finite, strictly ascending), in one pass. Lines are in pixel coordinates; see the module comment
 * for the rules. Lines come out in a fixed order (by their first node: open lines first, then rings), so
 * the same input always gives the same output.
 */
export function isolines(values: ArrayLike<number>, width: number, height: number, levels: Float64Array, options: IsolineOptions = {}): IsolineSet {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || values.length !== width * height) {
    throw invalidArgument('grid', `grid of ${values.length} values does not match ${width} x ${height}`);
  }
  checkLevels(levels);
  const empty: IsolineSet = { levels, lineLevel: new Int32Array(0), lineClosed: new Uint8Array(0), lineOffsets: new Uint32Array(1), xy: new Float64Array(0) };
  if (levels.length === 0) return empty;
  // Rows and columns of no-data around the data trace nothing: they are what the padding ring already is. A
  // window read past the edge of a DEM is mostly such a border, so the passes run on the data's bounding box
  // only, with the crop's origin added to every coordinate (the lines are the same, bit for bit).
  const box = dataBounds(values, width, height);
  if (!box) return empty;
  const [c0, r0, c1, r1] = box;
  if (c0 === 0 && r0 === 0 && c1 === width && r1 === height) return isolinesOf(values, width, height, levels, options.step, 0, 0);
  const W = c1 - c0, H = r1 - r0;
  // Same element type as the input, so the passes see one array type (monomorphic) either way.
  const cropped = values instanceof Float32Array ? new Float32Array(W * H) : new Float64Array(W * H);
  for (let r = 0; r < H; r++) {
    for (let c = 0, i = (r + r0) * width + c0; c < W; c++, i++) cropped[r * W + c] = values[i];
  }
  return isolinesOf(cropped, W, H, levels, options.step, c0, r0);
}

/** The bounding box [c0, r0, c1, r1) of the cells with data, or null when every cell is no-data. */
function dataBounds(values: ArrayLike<number>, width: number, height: number): [number, number, number, number] | null {
  let c0 = width, c1 = 0, r0 = height, r1 = 0;
  for (let r = 0; r < height; r++) {
    const row = r * width;
    let first = 0;
    while (first < width && values[row + first] !== values[row + first]) first++;
    if (first === width) continue;
    let last = width - 1;
    while (values[row + last] !== values[row + last]) last--;
    if (first < c0) c0 = first;
    if (last + 1 > c1) c1 = last + 1;
    if (r < r0) r0 = r;
    r1 = r + 1;
  }
  return r1 > 0 ? [c0, r0, c1, r1] : null;
}

/** The three passes over a grid whose (0, 0) cell is (c0, r0) of the caller's grid. */
function isolinesOf(values: ArrayLike<number>, W: number, H: number, levels: Float64Array, step: number | undefined, c0: number, r0: number): IsolineSet {
  const { counts, noData, edgeNodes } = levelCounts(values, W, levels, step);

  // Bound the spoke crossings of split squares (padding ring and no-data edges): at most four runs of the
  // corners' count range each.
  const hOff = new Int32Array(W * H);
  const vOff = new Int32Array(W * H);
  let spokeBound = 0;
  const spread = (c: number, r: number) => {
    let lo = Infinity, hi = -Infinity;
    for (let dr = 0; dr <= 1; dr++) {
      for (let dc = 0; dc <= 1; dc++) {
        const cc = c + dc, rr = r + dr;
        if (cc < 0 || rr < 0 || cc >= W || rr >= H) continue;
        const k = counts[rr * W + cc];
        if (k < 0) continue;
        if (k < lo) lo = k;
        if (k > hi) hi = k;
      }
    }
    return hi > lo ? 4 * (hi - lo) : 0;
  };
  for (let c = -1; c < W; c++) spokeBound += spread(c, -1) + spread(c, H - 1);
  for (let r = 0; r < H - 1; r++) spokeBound += spread(-1, r) + spread(W - 1, r);
  if (noData > 0) {
    for (let r = 0; r < H - 1; r++) {
      for (let c = 0; c < W - 1; c++) {
        const i = r * W + c;
        const kUL = counts[i], kUR = counts[i + 1], kLL = counts[i + W], kLR = counts[i + W + 1];
        // Some corner is no-data (-1); all four are when their AND is -1 (then nothing crosses it).
        if ((kUL | kUR | kLL | kLR) < 0 && (kUL & kUR & kLL & kLR) !== -1) spokeBound += spread(c, r);
      }
    }
  }

  const capacity = edgeNodes + spokeBound;
  const run: Run = {
    values,
    width: W,
    height: H,
    levels,
    counts,
    hOff,
    vOff,
    xy: new Float64Array(2 * capacity),
    next: new Int32Array(capacity).fill(-1),
    prev: new Int32Array(capacity).fill(-1),
    nodeLevel: new Int32Array(capacity),
    nodes: 0,
    inv: step && step > 0 ? 1 / step : 0,
    c0,
    r0,
  };

  // Pass 1: number and place the edge crossings, in scan order (linear interpolation between the two pixel centres).
  const { xy, nodeLevel } = run;
  let id = 0;
  for (let r = 0; r < H; r++) {
    const y = r + r0 + 0.5;
    for (let c = 0; c < W; c++) {
      const i = r * W + c;
      const a = counts[i];
      if (a < 0) continue;
      const va = values[i];
      const x = c + c0 + 0.5;
      if (c + 1 < W) {
        const b = counts[i + 1];
        if (b >= 0 && b !== a) {
          const lo = a < b ? a : b, hi = a < b ? b : a;
          hOff[i] = id - lo;
          const inv = 1 / (values[i + 1] - va);
          for (let k = lo; k < hi; k++, id++) {
            xy[2 * id] = x + (levels[k] - va) * inv;
            xy[2 * id + 1] = y;
            nodeLevel[id] = k;
          }
        }
      }
      if (r + 1 < H) {
        const b = counts[i + W];
        if (b >= 0 && b !== a) {
          const lo = a < b ? a : b, hi = a < b ? b : a;
          vOff[i] = id - lo;
          const inv = 1 / (values[i + W] - va);
          for (let k = lo; k < hi; k++, id++) {
            xy[2 * id] = x;
            xy[2 * id + 1] = y + (levels[k] - va) * inv;
            nodeLevel[id] = k;
          }
        }
      }
    }
  }
  run.nodes = id;

  // Pass 2: every square, padding ring included, links its crossings level by level.
  const { next, prev } = run;
  for (let r = -1; r < H; r++) {
    if (r < 0 || r >= H - 1) {
      for (let c = -1; c < W; c++) splitSquare(run, c, r);
      continue;
    }
    splitSquare(run, -1, r);
    for (let c = 0; c < W - 1; c++) {
      const i = r * W + c;
      const kUL = counts[i], kUR = counts[i + 1], kLL = counts[i + W], kLR = counts[i + W + 1];
      if ((kUL | kUR | kLL | kLR) < 0) {
        if ((kUL & kUR & kLL & kLR) !== -1) splitSquare(run, c, r);
        continue;
      }
      let lo = kUL, hi = kUL;
      if (kUR < lo) lo = kUR; else if (kUR > hi) hi = kUR;
      if (kLL < lo) lo = kLL; else if (kLL > hi) hi = kLL;
      if (kLR < lo) lo = kLR; else if (kLR > hi) hi = kLR;
      if (lo === hi) continue; // no level crosses this square
      const t = hOff[i], b = hOff[i + W], l = vOff[i], rr = vOff[i + 1];
      for (let k = lo; k < hi; k++) {
        const cs = (kUL > k ? 1 : 0) | (kLL > k ? 2 : 0) | (kLR > k ? 4 : 0) | (kUR > k ? 8 : 0);
        link(next, prev, cs, t + k, rr + k, b + k, l + k);
      }
    }
    splitSquare(run, W - 1, r);
  }

  return trace(run);
}

/** Pass 3: follow `next` from every line start, then around every remaining ring. */
function trace(run: Run): IsolineSet {
  const { nodes, next, prev, xy, nodeLevel, levels } = run;
  const visited = new Uint8Array(nodes);
  // A ring has at least three nodes, so points <= nodes + nodes / 3 + 1, and lines <= nodes / 2 + 1.
  const outXy = new Float64Array(2 * (nodes + Math.floor(nodes / 3) + 1));
  const maxLines = Math.floor(nodes / 2) + 1;
  const offsets = new Uint32Array(maxLines + 1);
  const lineLevel = new Int32Array(maxLines);
  const closed = new Uint8Array(maxLines);
  let p = 0; // points written
  let lines = 0;

  const follow = (start: number, ring: boolean) => {
    const begin = p;
    let node = start;
    let lx = NaN, ly = NaN;
    do {
      visited[node] = 1;
      const x = xy[2 * node], y = xy[2 * node + 1];
      // A level exactly equal to a pixel value puts several crossings on that pixel centre: keep one.
      if (x !== lx || y !== ly) {
        outXy[2 * p] = x;
        outXy[2 * p + 1] = y;
        p++;
        lx = x;
        ly = y;
      }
      node = next[node];
    } while (node >= 0 && node !== start);
    if (ring && (outXy[2 * begin] !== lx || outXy[2 * begin + 1] !== ly)) {
      outXy[2 * p] = outXy[2 * begin];
      outXy[2 * p + 1] = outXy[2 * begin + 1];
      p++;
    }
    // Lines that collapsed to a point (or a ring to a there-and-back) carry no contour: drop them.
    if (p - begin < (ring ? 4 : 2)) {
      p = begin;
      return;
    }
    offsets[lines] = begin;
    lineLevel[lines] = nodeLevel[start];
    closed[lines] = ring ? 1 : 0;
    lines++;
  };

  for (let i = 0; i < nodes; i++) if (prev[i] < 0 && !visited[i]) follow(i, false);
  for (let i = 0; i < nodes; i++) if (!visited[i]) follow(i, true);
  offsets[lines] = p;
  return {
    levels,
    lineLevel: lineLevel.slice(0, lines),
    lineClosed: closed.slice(0, lines),
    lineOffsets: offsets.slice(0, lines + 1),
    xy: outXy.slice(0, 2 * p),
  };
}
