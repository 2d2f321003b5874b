/**
 * A growable store of polylines in flat arrays (interleaved x, y plus per-line offsets), the form contour
 * lines take between the isoliner, the clipper and the output: no per-point objects on the hot path.
 */

/** Contour lines packed into flat arrays: what crosses the worker boundary (transferred, not cloned). */
export interface PackedLines {
  /** Per line: its elevation, metres. */
  elevation: Float64Array;
  /** Per line: 1 when closed (last point equals first), else 0. */
  closed: Uint8Array;
  /** Per line `i`, its points are `offsets[i] .. offsets[i + 1] - 1`; length = lines + 1. */
  offsets: Uint32Array;
  /** Interleaved x, y (lon, lat in output) of every point. */
  xy: Float64Array;
}

/** Builds {@link PackedLines} point by point. */
export class LineBuffer {
  private xyData = new Float64Array(1024);
  private points = 0;
  private lineStart = 0;
  private readonly offsets: number[] = [0];
  private readonly elevations: number[] = [];
  private readonly closedFlags: number[] = [];
  /** Per line: the index of the input feature or line it came from (source order). */
  readonly source: number[] = [];

  /** Lines finished so far. */
  get length(): number {
    return this.elevations.length;
  }

  /** Points in the line being built. */
  get open(): number {
    return this.points - this.lineStart;
  }

  /** Appends a point to the line being built, unless it repeats the previous point of that line. */
  add(x: number, y: number): void {
    const p = this.points;
    if (p > this.lineStart && this.xyData[2 * p - 2] === x && this.xyData[2 * p - 1] === y) return;
    if (2 * p + 2 > this.xyData.length) {
      const grown = new Float64Array(this.xyData.length * 2);
      grown.set(this.xyData);
      this.xyData = grown;
    }
    this.xyData[2 * p] = x;
    this.xyData[2 * p + 1] = y;
    this.points = p + 1;
  }

  /** The x and y of point `i` of the line being built (0 = its first point). */
  openPoint(i: number): [number, number] {
    const p = this.lineStart + i;
    return [this.xyData[2 * p], this.xyData[2 * p + 1]];
  }

  /**
   * Finishes the line being built. Lines with fewer than two distinct points, and rings with fewer than
   * three, are discarded (they carry no contour). Returns true when the line was kept.
   */
  end(elevation: number, closed: boolean, source: number): boolean {
    const n = this.points - this.lineStart;
    if (n < (closed ? 4 : 2)) {
      this.discard();
      return false;
    }
    this.offsets.push(this.points);
    this.elevations.push(elevation);
    this.closedFlags.push(closed ? 1 : 0);
    this.source.push(source);
    this.lineStart = this.points;
    return true;
  }

  /** Drops the line being built. */
  discard(): void {
    this.points = this.lineStart;
  }

  /** The finished lines as packed arrays (copies), in the order given by `order` (default: as built). */
  pack(order?: ArrayLike<number>): PackedLines {
    const view: PackedLines = {
      elevation: Float64Array.from(this.elevations),
      closed: Uint8Array.from(this.closedFlags),
      offsets: Uint32Array.from(this.offsets),
      xy: this.xyData.subarray(0, 2 * this.points),
    };
    return selectLines(view, order ?? Array.from({ length: this.length }, (_, i) => i));
  }
}

/** A packed set with only the lines listed in `keep` (indices, in the order given). */
export function selectLines(lines: PackedLines, keep: ArrayLike<number>): PackedLines {
  let total = 0;
  for (let j = 0; j < keep.length; j++) total += lines.offsets[keep[j] + 1] - lines.offsets[keep[j]];
  const out: PackedLines = {
    elevation: new Float64Array(keep.length),
    closed: new Uint8Array(keep.length),
    offsets: new Uint32Array(keep.length + 1),
    xy: new Float64Array(2 * total),
  };
  let p = 0;
  for (let j = 0; j < keep.length; j++) {
    const i = keep[j];
    const a = lines.offsets[i], b = lines.offsets[i + 1];
    out.elevation[j] = lines.elevation[i];
    out.closed[j] = lines.closed[i];
    out.offsets[j] = p;
    out.xy.set(lines.xy.subarray(2 * a, 2 * b), 2 * p);
    p += b - a;
  }
  out.offsets[keep.length] = p;
  return out;
}
