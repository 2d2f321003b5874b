/**
 * CNOSSOS-EU ground: the mean ground plane of a (sub)path, the equivalent heights of its ends above it, the
 * ground factors G_path and G'_path, and the ground attenuation in homogeneous and favourable conditions
 * (Directive 2002/49/EC Annex II 2.5.6-2.5.7 as amended by (EU) 2021/1226; docs/noise-cnossos.md says which
 * equation each line is).
 */
import { SOUND_SPEED } from './bands.js';

/** A point of the vertical plane: [abscissa along the path, height], metres. */
export type P2 = readonly [number, number];

/** The line z = a x + b. */
export interface Plane {
  a: number;
  b: number;
}

/**
 * The mean ground plane: the least-squares line of the ground polyline `pts` taken as a continuous function of
 * x (the integral fit of the Directive's 2.5.3 appendix, not a fit to the vertices). Vertical steps (walls)
 * weigh nothing.
 */
export function meanPlane(pts: readonly P2[]): Plane {
  const x0 = pts[0][0];
  const l = pts[pts.length - 1][0] - x0;
  // A ground of no length (a sub-path from a point to a wall at the same abscissa): level at its mean height.
  if (!(l > 1e-9)) return { a: 0, b: pts.reduce((s, p) => s + p[1], 0) / pts.length };
  let A = 0, B = 0;
  for (let i = 0; i + 1 < pts.length; i++) {
    const xa = pts[i][0] - x0, xb = pts[i + 1][0] - x0;
    if (xb - xa <= 1e-12) continue;
    const ai = (pts[i + 1][1] - pts[i][1]) / (xb - xa), bi = pts[i][1] - ai * xa;
    A += (2 / 3) * ai * (xb ** 3 - xa ** 3) + bi * (xb ** 2 - xa ** 2);
    B += ai * (xb ** 2 - xa ** 2) + 2 * bi * (xb - xa);
  }
  const a = (3 * (2 * A - B * l)) / l ** 3;
  const b = (2 * B * l - 3 * A) / l ** 2;
  return { a, b: b - a * x0 };
}

const dist = (p: P2, q: P2) => Math.hypot(q[0] - p[0], q[1] - p[1]);

/** The orthogonal projection of `p` on plane `m`. */
function project(p: P2, m: Plane): P2 {
  const t = (p[0] + m.a * (p[1] - m.b)) / (1 + m.a * m.a);
  return [t, m.a * t + m.b];
}

/** One straight (sub)path over its mean plane: what the ground and diffraction formulas take. */
export interface GroundSegment {
  S: P2;
  R: P2;
  plane: Plane;
  /** |SR|, metres. */
  d: number;
  /** Distance between the projections of S and R on the plane. */
  dp: number;
  /** Heights of S and R above the plane (perpendicular), metres. */
  zs: number;
  zr: number;
  /** S or R below the plane. */
  sBelow: boolean;
  rBelow: boolean;
  /** Images of S and R in the plane. */
  Sp: P2;
  Rp: P2;
  gPath: number;
  /** G'_path (2.5.14): G_path corrected towards the source's G near the source. */
  gPrime: number;
  /** dp / (30 (zs + zr)): at most 1 where the source's ground counts. */
  nearness: number;
  /** The favourable heights (2.5.19). */
  zsF: number;
  zrF: number;
}

/** The segment S -> R over `plane`, with its ground factor and the source's `gs` (2.5.14). */
export function groundSegment(S: P2, R: P2, plane: Plane, gPath: number, gs: number): GroundSegment {
  const ps = project(S, plane), pr = project(R, plane);
  const seg: GroundSegment = {
    S,
    R,
    plane,
    d: dist(S, R),
    dp: dist(ps, pr),
    zs: dist(S, ps),
    zr: dist(R, pr),
    sBelow: S[1] < plane.a * S[0] + plane.b - 1e-12,
    rBelow: R[1] < plane.a * R[0] + plane.b - 1e-12,
    Sp: [2 * ps[0] - S[0], 2 * ps[1] - S[1]],
    Rp: [2 * pr[0] - R[0], 2 * pr[1] - R[1]],
    gPath,
    gPrime: gPath,
    nearness: Infinity,
    zsF: 0,
    zrF: 0,
  };
  settle(seg, gs);
  return seg;
}

/**
 * G'_path and the favourable heights from the segment's heights (again after a height is set to 0: 2.5.3,
 * "a point below the mean ground plane keeps a null height").
 */
export function settle(seg: GroundSegment, gs: number): void {
  const { zs, zr, dp } = seg;
  const h = zs + zr;
  seg.nearness = h > 0 ? dp / (30 * h) : Infinity;
  seg.gPrime = seg.nearness <= 1 ? seg.gPath * seg.nearness + gs * (1 - seg.nearness) : seg.gPath;
  const a0 = 2e-4, dzT = h > 0 ? (6e-3 * dp) / h : 0;
  seg.zsF = zs + (h > 0 ? (a0 * (zs / h) ** 2 * dp * dp) / 2 : 0) + dzT;
  seg.zrF = zr + (h > 0 ? (a0 * (zr / h) ** 2 * dp * dp) / 2 : 0) + dzT;
}

/** The ground's w (2.5.17), 1/m, at frequency f for ground factor gw. */
export function groundW(f: number, gw: number): number {
  return (0.0185 * f ** 2.5 * gw ** 2.6) / (f ** 1.5 * gw ** 2.6 + 1.3e3 * f ** 0.75 * gw ** 1.3 + 1.16e6);
}

/** The ground formula (2.5.15) before its lower bound: heights zs, zr over dp, ground factor gw, frequency f. */
export function groundFormula(f: number, dp: number, zs: number, zr: number, gw: number): number {
  const k = (2 * Math.PI * f) / SOUND_SPEED;
  const w = groundW(f, gw);
  const cf = (dp * (1 + 3 * w * dp * Math.exp(-Math.sqrt(w * dp)))) / (1 + w * dp);
  const r = Math.sqrt((2 * cf) / k);
  return -10 * Math.log10(((4 * k * k) / (dp * dp)) * (zs * zs - r * zs + cf / k) * (zr * zr - r * zr + cf / k));
}

/**
 * A_ground,H (2.5.15-2.5.18). `plain`: G_w = G_m = G_path (a segment not starting at the source: the
 * diffraction's receiver side); else both G'_path.
 */
export function groundH(seg: GroundSegment, f: number, plain = false): number {
  // A sub-path of no length (a wall at the source's or receiver's abscissa): the formula's limit, its lower bound.
  if (!(seg.dp > 1e-6)) return -3 * (1 - (plain ? seg.gPath : seg.gPrime));
  if (seg.gPath === 0) return -3;
  const g = plain ? seg.gPath : seg.gPrime;
  return Math.max(groundFormula(f, seg.dp, seg.zs, seg.zr, g), -3 * (1 - g));
}

/**
 * A_ground,F (2.5.19-2.5.20): the favourable heights, G_w = G_path, and the lower bound from G_m (G'_path, or
 * G_path when `plain`) and the unmodified heights.
 */
export function groundF(seg: GroundSegment, f: number, plain = false): number {
  if (!(seg.dp > 1e-6)) return -3 * (1 - (plain ? seg.gPath : seg.gPrime));
  const gm = plain ? seg.gPath : seg.gPrime;
  const min = seg.nearness <= 1 ? -3 * (1 - gm) : -3 * (1 - gm) * (1 + 2 * (1 - 1 / seg.nearness));
  if (seg.gPath === 0) return min;
  return Math.max(groundFormula(f, seg.dp, seg.zsF, seg.zrF, seg.gPath), min);
}
