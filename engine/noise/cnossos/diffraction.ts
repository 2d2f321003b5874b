/**
 * CNOSSOS-EU diffraction (Directive 2002/49/EC Annex II 2.5.8 as amended by (EU) 2021/1226): the
 * attenuation of a path difference, the curved rays of favourable conditions, the edges a path goes over
 * (the upper convex hull of the profile) and which side of a line a point lies.
 */
import type { P2 } from './ground.js';

/** Δdif (2.5.21): 10 C_h lg(3 + (40 / λ) C'' δ) where that argument's term is at least -2, else 0; C_h = 1. */
export function deltaDif(delta: number, lambda: number, cpp = 1): number {
  const t = (40 / lambda) * cpp * delta;
  return t >= -2 ? 10 * Math.log10(3 + t) : 0;
}

/** C'' (2.5.22): 1 for one edge (or edges under 0.3 m apart), else (1 + (5λ/e)^2) / (1/3 + (5λ/e)^2). */
export function cDoublePrime(lambda: number, e: number, edges: number): number {
  if (edges < 2 || e <= 0.3) return 1;
  const x = (5 * lambda) / e;
  return (1 + x * x) / (1 / 3 + x * x);
}

/** Radius of the curved rays of favourable conditions for a path of horizontal length d: max(1000, 8 d). */
export const rayRadius = (d: number) => Math.max(1000, 8 * d);

/** The arc of radius Γ = rayRadius(d) over a chord of length `chord` (2.5.24). */
export function arc(chord: number, d: number): number {
  const G = rayRadius(d);
  // A chord past the circle's diameter (an edge kilometres off the line) is the half circle, not NaN.
  return 2 * G * Math.asin(Math.min(1, chord / (2 * G)));
}

/** +1 when P is above the line through A and B at P's abscissa, -1 below, 0 on it. */
export function sideOf(A: P2, B: P2, P: P2): number {
  // A vertical line (both ends at one abscissa): above or below both ends.
  if (B[0] === A[0]) return P[1] > Math.max(A[1], B[1]) ? 1 : P[1] < Math.min(A[1], B[1]) ? -1 : 0;
  const y = A[1] + ((B[1] - A[1]) * (P[0] - A[0])) / (B[0] - A[0]);
  return P[1] > y ? 1 : P[1] < y ? -1 : 0;
}

/** Indices of the upper convex hull of `pts` (sorted by abscissa), first to last, strictly convex vertices only. */
export function upperHull(pts: readonly P2[]): number[] {
  const h: number[] = [];
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i];
    while (h.length >= 2) {
      const a = pts[h[h.length - 2]], b = pts[h[h.length - 1]];
      if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0) h.pop();
      else break;
    }
    h.push(i);
  }
  return h;
}

/**
 * How far the curved rays of favourable conditions lower each abscissa of a path of horizontal length d (<= 0
 * between its ends): the sagitta of the arc of radius rayRadius(d) through both ends. The edges a favourable
 * path goes over are those of the profile lowered so (RIVM 2019-0023 Annex G1).
 */
export function sagitta(x: number, d: number): number {
  const G = rayRadius(d);
  return Math.sqrt(G * G - (d * d) / 4) - Math.sqrt(G * G - (x - d / 2) ** 2);
}
