import { describe, expect, it } from 'vitest';
import { isolines } from '../../../../engine/surfaces/contours/isolines.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';
import { bumpyField, d3Rings, gridOf, levelRange, plainLines, pointKey, rotateClockwise, type PlainLine } from './fixtures.js';

/** Segments of every line, with the level they belong to. */
function segmentsOf(lines: PlainLine[]) {
  const segs: { level: number; ax: number; ay: number; bx: number; by: number }[] = [];
  for (const l of lines) for (let i = 0; i + 1 < l.points.length; i++) segs.push({ level: l.level, ax: l.points[i][0], ay: l.points[i][1], bx: l.points[i + 1][0], by: l.points[i + 1][1] });
  return segs;
}

/** A line normalised for comparison: rings rotated to start at their smallest point. */
function canonical(l: PlainLine): string {
  let pts = l.points.map(([x, y]) => pointKey(x, y));
  if (l.closed) {
    const ring = pts.slice(0, -1);
    let k = 0;
    for (let i = 1; i < ring.length; i++) if (ring[i] < ring[k]) k = i;
    pts = [...ring.slice(k), ...ring.slice(0, k), ring[k]];
  }
  return `${l.level}|${l.closed}|${pts.join(' ')}`;
}

describe('isolines: hand-worked grids', () => {
  it('a single 10 m peak in a 3 x 3 grid gives one clockwise diamond at 5 m', () => {
    // Centre pixel (1, 1) sits at (1.5, 1.5) with value 10; its four neighbours are 0. Level 5 crosses each
    // edge from the centre halfway: (1.5, 1.0) north, (2.0, 1.5) east, (1.5, 2.0) south, (1.0, 1.5) west.
    // With the high ground on the right the ring runs clockwise on the map: N -> E -> S -> W -> N.
    const set = isolines(Float32Array.from([0, 0, 0, 0, 10, 0, 0, 0, 0]), 3, 3, Float64Array.from([5]));
    const lines = plainLines(set);
    expect(lines).toHaveLength(1);
    expect(lines[0].closed).toBe(true);
    const ring = lines[0].points;
    const start = ring.findIndex(([x, y]) => x === 1.5 && y === 1);
    const order = [...ring.slice(start, -1), ...ring.slice(0, start)];
    expect(order).toEqual([[1.5, 1], [2, 1.5], [1.5, 2], [1, 1.5]]);
    expect(ring[ring.length - 1]).toEqual(ring[0]);
  });

  it('a west-east ramp gives a north-running line that reaches both grid edges', () => {
    // Values 0, 1, 2 at x = 0.5, 1.5, 2.5: level 0.5 crosses at x = 1.0 on every row. The grid is padded with
    // no-data, so the line runs from the southern edge (y = 2) to the northern edge (y = 0), heading north
    // with the higher (eastern) ground on its right.
    const lines = plainLines(isolines(Float32Array.from([0, 1, 2, 0, 1, 2]), 3, 2, Float64Array.from([0.5])));
    expect(lines).toEqual([{ level: 0.5, closed: false, points: [[1, 2], [1, 1.5], [1, 0.5], [1, 0]] }]);
  });

  it('stops lines on the edge of a no-data cell (GDAL quarter squares)', () => {
    // The centre pixel (its cell spans x 1..2, y 1..2) is no-data. In the square of pixels (0,0), (1,0),
    // (0,1), (1,1) the missing corner is replaced by means: centre (1, 1) = (0 + 1 + 0) / 3 = 1/3, right
    // midpoint (1.5, 1) = 1 (only the upper-right value is valid). Level 0.5 crosses that spoke at
    // t = (0.5 - 1) / (1/3 - 1) = 0.75 from (1.5, 1) towards (1, 1): x = 1.5 - 0.75 * 0.5 = 1.125, on the
    // top edge of the no-data cell. Level 1.5 crosses the top row between values 1 and 2 at x = 2.0.
    const values = Float32Array.from([0, 1, 2, 0, NaN, 2, 0, 1, 2]);
    const lines = plainLines(isolines(values, 3, 3, Float64Array.from([0.5, 1.5])));
    const canon = lines.map((l) => `${l.level}: ${l.points.map((p) => p.join(',')).join(' ')}`).sort();
    expect(canon).toEqual([
      '0.5: 1,3 1,2.5 1.125,2',
      '0.5: 1.125,1 1,0.5 1,0',
      '1.5: 1.875,1 2,0.5 2,0',
      '1.5: 2,3 2,2.5 1.875,2',
    ]);
  });

  it('draws nothing for levels outside the values, and for a level equal to the minimum', () => {
    const g = Float32Array.from([1, 2, 3, 4]);
    expect(plainLines(isolines(g, 2, 2, Float64Array.from([0, 1, 10])))).toEqual([]);
    expect(plainLines(isolines(g, 2, 2, new Float64Array(0)))).toEqual([]);
  });

  it('rejects a grid whose size does not match and levels that are not ascending', async () => {
    await expectEngineError(() => isolines(new Float32Array(5), 2, 2, Float64Array.from([1])), 'INVALID_ARGUMENT', /2 x 2/);
    await expectEngineError(() => isolines(new Float32Array(4), 2, 2, Float64Array.from([2, 1])), 'INVALID_ARGUMENT', /ascending/);
  });
});

describe('isolines: analytic surfaces', () => {
  it('a cone gives one closed circle per level at the right radius (within half a cell)', () => {
    // z = 100 - d / 2 around (40, 40) on an 80 x 80 grid: level L is the circle d = 2 (100 - L).
    const W = 80;
    const values = gridOf(W, W, (x, y) => 100 - Math.hypot(x - 40, y - 40) / 2);
    const levels = levelRange(82, 98, 2);
    const lines = plainLines(isolines(values, W, W, levels, { step: 2 }));
    expect(lines.map((l) => l.level).sort((a, b) => a - b)).toEqual([...levels]);
    for (const l of lines) {
      expect(l.closed).toBe(true);
      expect(l.points[0]).toEqual(l.points[l.points.length - 1]);
      const radius = 2 * (100 - l.level);
      for (const [x, y] of l.points) expect(Math.abs(Math.hypot(x - 40, y - 40) - radius)).toBeLessThan(0.5);
    }
  });

  it('a tilted plane gives parallel straight lines at the right spacing, edge to edge', () => {
    // z = 0.3 x + 0.4 y (|grad| = 0.5 per cell), from 0.35 at (0.5, 0.5) to 23.65 at (39.5, 29.5). Linear
    // interpolation is exact on a plane, so every vertex inside the pixel-centre box satisfies
    // 0.3 x + 0.4 y = L, and levels 1 apart are 1 / 0.5 = 2 cells apart.
    const W = 40, H = 30;
    const values = gridOf(W, H, (x, y) => 0.3 * x + 0.4 * y);
    const levels = levelRange(1, 23, 1);
    const lines = plainLines(isolines(values, W, H, levels, { step: 1 }));
    expect(lines).toHaveLength(levels.length);
    for (const l of lines) {
      expect(l.closed).toBe(false);
      for (const [x, y] of l.points) {
        if (x >= 0.5 && x <= W - 0.5 && y >= 0.5 && y <= H - 0.5) expect(0.3 * x + 0.4 * y).toBeCloseTo(l.level, 5); // Float32 grid values: 1e-6 noise
      }
      for (const [x, y] of [l.points[0], l.points[l.points.length - 1]]) {
        const onEdge = x === 0 || x === W || y === 0 || y === H;
        expect(onEdge, `end (${x}, ${y}) on the grid edge`).toBe(true);
      }
    }
    // Distance between the lines of consecutive levels, measured from a vertex of one to the other's line.
    const byLevel = new Map(lines.map((l) => [l.level, l]));
    for (const L of [10, 15, 20]) {
      const [x, y] = byLevel.get(L)!.points.find(([px, py]) => px > 5 && px < W - 5 && py > 5 && py < H - 5)!;
      // Signed distance from (x, y) to the line 0.3 x + 0.4 y = L + 1.
      expect(Math.abs(0.3 * x + 0.4 * y - (L + 1)) / 0.5).toBeCloseTo(2, 5);
    }
  });

  it('keeps the high side on the right of every segment, saddles included', () => {
    // Each segment ends on two grid edges; on each, the corner whose value is >= the level must lie to the
    // right of the segment's direction (right of (dx, dy) on a north-up map is (-dy, dx) in pixel space).
    const W = 50, H = 40;
    const values = bumpyField(W, H, 11);
    const levels = levelRange(80, 130, 2.5);
    const segs = segmentsOf(plainLines(isolines(values, W, H, levels)));
    let checked = 0;
    const at = (c: number, r: number) => values[r * W + c];
    for (const s of segs) {
      const nx = -(s.by - s.ay), ny = s.bx - s.ax;
      for (const [px, py] of [[s.ax, s.ay], [s.bx, s.by]]) {
        // Only crossings on edges between two pixel centres (the interior of the pixel-centre lattice).
        const onH = Number.isInteger(py - 0.5) && px > 0.5 && px < W - 0.5 && py > 0 && py < H;
        const onV = Number.isInteger(px - 0.5) && py > 0.5 && py < H - 0.5 && px > 0 && px < W;
        if (!onH && !onV) continue;
        const [c0, r0, c1, r1] = onH ? [Math.floor(px - 0.5), py - 0.5, Math.floor(px - 0.5) + 1, py - 0.5] : [px - 0.5, Math.floor(py - 0.5), px - 0.5, Math.floor(py - 0.5) + 1];
        const high = at(c0, r0) >= s.level ? [c0, r0] : [c1, r1];
        const side = (high[0] + 0.5 - px) * nx + (high[1] + 0.5 - py) * ny;
        expect(side).toBeGreaterThan(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('rotating the grid 90 degrees rotates the lines with it', () => {
    // One elliptical hill on a slope: no saddle squares, so even the segment topology must rotate exactly.
    // Clockwise rotation maps pixel point (x, y) of the W x H grid to (H - y, x).
    const W = 37, H = 29;
    const values = gridOf(W, H, (x, y) => 50 + 0.2 * x + 25 * Math.exp(-(((x - 15) / 8) ** 2) - ((y - 12) / 5) ** 2));
    const levels = levelRange(52, 76, 2);
    const before = plainLines(isolines(values, W, H, levels)).map((l) => ({ ...l, points: l.points.map(([x, y]) => [H - y, x] as [number, number]) }));
    const after = plainLines(isolines(rotateClockwise(values, W, H), H, W, levels));
    expect(after.length).toBeGreaterThan(5);
    expect(after.map(canonical).sort()).toEqual(before.map(canonical).sort());
  });
});

describe('isolines: against d3-contour and for consistency', () => {
  it('has exactly d3-contour\'s crossing points, and its segments outside saddle squares', () => {
    const W = 60, H = 45;
    const values = bumpyField(W, H, 5);
    const levels = levelRange(85, 125, 5);
    const lines = plainLines(isolines(values, W, H, levels));
    const interior = (x: number, y: number) => x > 0.5 && x < W - 0.5 && y > 0.5 && y < H - 0.5;
    const saddle = (x: number, y: number, L: number) => {
      // The square holding a segment's midpoint; a saddle when exactly the two diagonal corners are high.
      const c = Math.floor(x - 0.5), r = Math.floor(y - 0.5);
      const hi = (cc: number, rr: number) => values[rr * W + cc] >= L;
      const ul = hi(c, r), ur = hi(c + 1, r), ll = hi(c, r + 1), lr = hi(c + 1, r + 1);
      return ul === lr && ur === ll && ul !== ur;
    };
    let compared = 0;
    for (const L of levels) {
      const mine = lines.filter((l) => l.level === L);
      const ref = d3Rings(values, W, H, L);
      const pts = (ls: [number, number][][]) => ls.flatMap((l) => (l.length > 1 && l[0][0] === l[l.length - 1][0] && l[0][1] === l[l.length - 1][1] ? l.slice(0, -1) : l)).filter(([x, y]) => interior(x, y)).map(([x, y]) => pointKey(x, y)).sort();
      expect(pts(mine.map((l) => l.points))).toEqual(pts(ref));
      const segs = (ls: [number, number][][]) => {
        const out: string[] = [];
        for (const l of ls) {
          for (let i = 0; i + 1 < l.length; i++) {
            const [ax, ay] = l[i], [bx, by] = l[i + 1];
            if (!interior(ax, ay) || !interior(bx, by) || saddle((ax + bx) / 2, (ay + by) / 2, L)) continue;
            const a = pointKey(ax, ay), b = pointKey(bx, by);
            out.push(a < b ? `${a}|${b}` : `${b}|${a}`);
          }
        }
        return out.sort();
      };
      const mineSegs = segs(mine.map((l) => l.points));
      expect(mineSegs).toEqual(segs(ref));
      compared += mineSegs.length;
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('never lets lines of different levels cross, on a field full of saddles', () => {
    // An egg-box surface has a saddle between every pair of bumps; 0.25-spaced levels pass through them.
    const W = 48, H = 48;
    const values = gridOf(W, H, (x, y) => 10 * Math.sin(x / 2.3) * Math.cos(y / 2.9) + 0.01 * x);
    const levels = levelRange(-9, 9, 0.25);
    const segs = segmentsOf(plainLines(isolines(values, W, H, levels)));
    // Segments only meet inside one square (or quarter square): bucket them by their midpoint's square.
    const buckets = new Map<string, typeof segs>();
    for (const s of segs) {
      const k = `${Math.floor((s.ax + s.bx) / 2 - 0.5)},${Math.floor((s.ay + s.by) / 2 - 0.5)}`;
      (buckets.get(k) ?? buckets.set(k, []).get(k)!).push(s);
    }
    const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    let pairs = 0;
    let saddles = 0;
    const crossings: string[] = [];
    for (const list of buckets.values()) {
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const p = list[i], q = list[j];
          if (p.level === q.level) {
            saddles++;
            continue;
          }
          const d1 = cross(p.ax, p.ay, p.bx, p.by, q.ax, q.ay), d2 = cross(p.ax, p.ay, p.bx, p.by, q.bx, q.by);
          const d3 = cross(q.ax, q.ay, q.bx, q.by, p.ax, p.ay), d4 = cross(q.ax, q.ay, q.bx, q.by, p.bx, p.by);
          const proper = ((d1 > 1e-12 && d2 < -1e-12) || (d1 < -1e-12 && d2 > 1e-12)) && ((d3 > 1e-12 && d4 < -1e-12) || (d3 < -1e-12 && d4 > 1e-12));
          if (proper) crossings.push(`levels ${p.level} and ${q.level} near (${p.ax}, ${p.ay})`);
          pairs++;
        }
      }
    }
    expect(crossings).toEqual([]);
    expect(pairs).toBeGreaterThan(1000);
    expect(saddles).toBeGreaterThan(0); // the field does exercise saddle squares (two segments, one level)
  });
});

describe('isolines: no-data borders', () => {
  // A window read past the edge of a DEM is mostly no-data around the data; the kernel traces only the data's
  // bounding box. The lines must be exactly those of the full grid.
  const W = 40, H = 30;
  const inner = bumpyField(24, 14, 7);
  const bordered = new Float32Array(W * H).fill(NaN);
  for (let r = 0; r < 14; r++) for (let c = 0; c < 24; c++) if ((r - 7) ** 2 + (c - 12) ** 2 > 4) bordered[(r + 9) * W + c + 11] = inner[r * 24 + c];
  const levels = levelRange(80, 130, 2.5);

  it('gives bit for bit the lines of the uncropped grid, in the same order', () => {
    // A lone valid cell in the far corner traces nothing (its quarter squares are flat) but puts the data's
    // bounding box at (0, 0), so that run takes the uncropped path.
    const anchored = bordered.slice();
    anchored[0] = 100;
    const cropped = isolines(bordered, W, H, levels, { step: 2.5 });
    const full = isolines(anchored, W, H, levels, { step: 2.5 });
    expect(cropped.lineLevel.length).toBeGreaterThan(10);
    expect(cropped).toEqual(full);
  });

  it('places the lines of the cropped box at their columns and rows in the whole grid', () => {
    // Data in columns 11..34 and rows 9..22; lines run to the outer edge of those cells (GDAL's quarter
    // squares), so x in [11, 35] and y in [9, 23], and some reach each edge.
    const set = isolines(bordered, W, H, levels);
    const xs = set.xy.filter((_, i) => i % 2 === 0), ys = set.xy.filter((_, i) => i % 2 === 1);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([11, 35, 9, 23]);
    // The hole of no-data in the middle is ringed: some crossing sits on a quarter-square spoke near it.
    expect(plainLines(set).some((l) => l.points.some(([x, y]) => Math.hypot(x - 23.5, y - 16.5) < 3.5))).toBe(true);
  });

  it('returns no lines for a grid of no-data only', () => {
    expect(isolines(new Float32Array(12).fill(NaN), 4, 3, levels).lineLevel.length).toBe(0);
  });
});
