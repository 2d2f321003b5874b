import { describe, expect, it } from 'vitest';
import type { BBox } from '../../../../engine/geo/bbox.js';
import { clipLineToRect } from '../../../../engine/surfaces/contours/clip.js';
import { LineBuffer } from '../../../../engine/surfaces/contours/line-buffer.js';

const RECT: BBox = [0, 0, 10, 10];

function clip(points: [number, number][], closed = false) {
  const buf = new LineBuffer();
  const n = clipLineToRect(Float64Array.from(points.flat()), 0, points.length, closed, RECT, buf, 42, 7);
  const packed = buf.pack();
  const pieces: { closed: boolean; points: number[][] }[] = [];
  for (let i = 0; i < packed.elevation.length; i++) {
    expect(packed.elevation[i]).toBe(42);
    const pts: number[][] = [];
    for (let p = packed.offsets[i]; p < packed.offsets[i + 1]; p++) pts.push([packed.xy[2 * p], packed.xy[2 * p + 1]]);
    pieces.push({ closed: packed.closed[i] === 1, points: pts });
  }
  expect(n).toBe(pieces.length);
  expect(buf.source.every((s) => s === 7)).toBe(true);
  return pieces;
}

describe('clipping lines to the window square', () => {
  it('cuts a segment crossing the square at both edges', () => {
    expect(clip([[-5, 5], [15, 5]])).toEqual([{ closed: false, points: [[0, 5], [10, 5]] }]);
    // A diagonal from (-2, -1) to (12, 6): y = -1 + (x + 2) / 2 meets x = 0 at y = 0 and x = 10 at y = 5.
    expect(clip([[-2, -1], [12, 6]])).toEqual([{ closed: false, points: [[0, 0], [10, 5]] }]);
  });

  it('keeps a line wholly inside untouched, rings still closed', () => {
    const ring: [number, number][] = [[2, 2], [8, 2], [8, 8], [2, 8], [2, 2]];
    expect(clip(ring, true)).toEqual([{ closed: true, points: ring }]);
  });

  it('splits a line that leaves and re-enters into pieces, in its own direction', () => {
    const line: [number, number][] = [[-1, 2], [5, 2], [5, 12], [8, 12], [8, 5], [12, 5]];
    expect(clip(line)).toEqual([
      { closed: false, points: [[0, 2], [5, 2], [5, 10]] },
      { closed: false, points: [[8, 10], [8, 5], [10, 5]] },
    ]);
  });

  it('does not split a crossing ring at its start point', () => {
    // The ring starts inside at (5, 5), leaves at (10, 5), comes back at (10, 8): one piece, walked from the
    // outside vertex (15, 5) so it reads (10, 8) -> (5, 8) -> (5, 5) -> (10, 5).
    const ring: [number, number][] = [[5, 5], [15, 5], [15, 8], [5, 8], [5, 5]];
    expect(clip(ring, true)).toEqual([{ closed: false, points: [[10, 8], [5, 8], [5, 5], [10, 5]] }]);
  });

  it('drops lines outside and lines that only touch a corner', () => {
    expect(clip([[11, 11], [20, 20]])).toEqual([]);
    expect(clip([[-5, 5], [5, -5]])).toEqual([]); // touches the corner (0, 0) only
    expect(clip([[-3, -3], [-1, 20]])).toEqual([]);
  });
});
