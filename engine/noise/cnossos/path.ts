/**
 * One propagation path's attenuation per octave band along its cut profile, in homogeneous and favourable
 * conditions (CNOSSOS-EU, Directive 2002/49/EC Annex II 2.5.5: A = A_div + A_atm + A_boundary, plus a
 * reflection's absorption and retro-diffraction), and the path's levels LH = LW - A_H, LF = LW - A_F.
 *
 * A_boundary is the ground attenuation of the whole path where nothing diffracts; the diffraction A_dif
 * (with the ground on each side of the edges) where the profile's upper hull has edges between source and
 * receiver, or a terrain point passes the Rayleigh test; and, for a lateral path round vertical edges, the
 * ground of the unfolded path plus the edges' Δdif. docs/noise-cnossos.md walks through each step and what
 * the ISO/TR 17534-4 cases decide where the texts leave a choice.
 */
import { A_WEIGHTING, airAbsorption, BAND_COUNT, OCTAVE_BANDS, SOUND_SPEED } from './bands.js';
import { arc, cDoublePrime, deltaDif, sagitta, sideOf, upperHull } from './diffraction.js';
import { groundF, groundH, groundSegment, meanPlane, settle, type GroundSegment, type P2 } from './ground.js';
import type { CutPoint, CutProfile } from './profile.js';

/** The atmosphere and source of a calculation. */
export interface PathConditions {
  /** Sound power per band (or one number for every band), dB. Default 93 (the ISO/TR cases). */
  lw?: number | readonly number[];
  /** Air temperature, degrees C (default 10) and relative humidity, % (default 70). */
  temperature?: number;
  humidity?: number;
}

/** How the path's boundary attenuation was found. */
export type PathKind = 'ground' | 'diffraction' | 'terrain_edge' | 'lateral';

/** One path's levels per band, dB. `LF` is null where the path does not exist in favourable conditions. */
export interface PathLevels {
  LH: number[];
  LF: number[] | null;
  kindH: PathKind;
  kindF: PathKind;
}

const dist = (p: P2, q: P2) => Math.hypot(q[0] - p[0], q[1] - p[1]);

/** The profile laid out in its vertical plane, and its ground. */
interface Layout {
  cps: CutPoint[];
  /** Abscissa of each cut point: cumulative horizontal distance from the source. */
  xs: number[];
  /** Each cut point in the plane: (abscissa, z). */
  P: P2[];
  /** The ground polyline (walls' feet and tops, roofs included) and, per cut point, its last polyline index. */
  ground: P2[];
  gidx: number[];
}

function layout(profile: CutProfile): Layout {
  const cps = profile.cutPoints;
  const xs: number[] = [];
  let s = 0;
  for (let i = 0; i < cps.length; i++) {
    if (i > 0) s += Math.hypot(cps[i].coordinate.x - cps[i - 1].coordinate.x, cps[i].coordinate.y - cps[i - 1].coordinate.y);
    xs.push(s);
  }
  const ground: P2[] = [];
  const gidx: number[] = [];
  // On a roof from the start when the first building crossing leaves one.
  let roof = cps.find((c) => c.type === 'Wall')?.intersectionType === 'BUILDING_EXIT';
  cps.forEach((c, i) => {
    const x = xs[i];
    if (c.type === 'GroundEffect') {
      gidx.push(ground.length - 1);
      return;
    }
    if (c.type === 'Wall') {
      const t = c.intersectionType;
      if (t === 'BUILDING_ENTER' || t === 'THIN_WALL_ENTER_EXIT') {
        ground.push([x, c.zGround]);
        roof = true;
      }
      ground.push([x, c.coordinate.z]);
      if (t === 'BUILDING_EXIT' || t === 'THIN_WALL_ENTER_EXIT') {
        ground.push([x, c.zGround]);
        roof = false;
      }
    } else if (c.type === 'Reflection' || !(roof && c.type === 'Topography')) ground.push([x, c.zGround]);
    gidx.push(ground.length - 1);
  });
  return { cps, xs, P: cps.map((c, i): P2 => [xs[i], c.coordinate.z]), ground, gidx };
}

/** G_path over the cut points i0 .. i1 (2.5.6): segments weighted by length, roofs G = 0. */
function gPath(L: Layout, i0: number, i1: number): number {
  let total = 0, acc = 0, roof = false;
  for (let i = 0; i < i1; i++) {
    const c = L.cps[i];
    if (c.type === 'Wall') {
      if (!roof && c.intersectionType === 'BUILDING_ENTER') roof = true;
      else if (roof && c.intersectionType === 'BUILDING_EXIT') roof = false;
    }
    if (i < i0) continue;
    const len = L.xs[i + 1] - L.xs[i];
    acc += len * (roof ? 0 : c.groundCoefficient);
    total += len;
  }
  return total > 0 ? acc / total : 0;
}

/** Path differences of a diffraction over edges O_1 .. O_n (e between them): for S-R, S'-R, S-R' and S'-R'. */
interface Differences {
  delta: number;
  dSpR: number;
  dSRp: number;
  dPrime: number;
}

/** The path difference of S -> O_1 ... O_n -> R against S -> R, straight or (favourable) curved (2.5.23-2.5.25). */
function difference(S: P2, O1: P2, On: P2, R: P2, e: number, curved: boolean, signed: boolean): number {
  const so = dist(S, O1), or = dist(On, R), sr = dist(S, R);
  const side = signed ? sideOf(S, R, O1) : 1;
  if (!curved) return side * (so + e + or - sr);
  if (side >= 0) return arc(so, sr) + arc(e, sr) + arc(or, sr) - arc(sr, sr);
  // Under the line of sight: A is the point of SR above (below) O_1.
  const t = R[0] === S[0] ? 0 : (O1[0] - S[0]) / (R[0] - S[0]);
  const A: P2 = [S[0] + t * (R[0] - S[0]), S[1] + t * (R[1] - S[1])];
  return 2 * arc(dist(S, A), sr) + 2 * arc(dist(A, R), sr) - arc(so, sr) - arc(e, sr) - arc(or, sr) - arc(sr, sr);
}

function differences(s1: GroundSegment, s2: GroundSegment, O1: P2, On: P2, e: number, curved: boolean): Differences {
  const S = s1.S, R = s2.R;
  return {
    delta: difference(S, O1, On, R, e, curved, true),
    dSpR: difference(s1.Sp, O1, On, R, e, curved, !curved),
    dSRp: difference(S, O1, On, s2.Rp, e, curved, !curved),
    dPrime: difference(s1.Sp, O1, On, s2.Rp, e, curved, true),
  };
}

/** What diffracts on a path, in one condition. */
type Boundary =
  | { kind: 'ground' }
  | { kind: 'diffraction' | 'terrain_edge'; edges: number; e: number; s1: GroundSegment; s2: GroundSegment; diff: Differences; hullEdges: number[] }
  | { kind: 'lateral'; edges: number; e: number; delta: number };

/** The edges and sub-paths of the profile in one condition (favourable: `curved`). */
function boundary(L: Layout, whole: GroundSegment, profileType: CutProfile['profileType'], curved: boolean, gs: number): Boundary {
  const { cps, P, ground, gidx } = L;
  const n = cps.length, S = P[0], R = P[n - 1];
  const lateral = profileType === 'LEFT' || profileType === 'RIGHT';
  // Candidates for horizontal edges: the terrain's bends and walls' tops (not on a lateral path), lowered by
  // the favourable rays' sagitta when curved.
  const d = L.xs[n - 1];
  const cand = [0];
  for (let i = 1; i < n - 1; i++) if (cps[i].type === 'Topography' || (cps[i].type === 'Wall' && !lateral && cps[i].coordinate.z !== cps[i].zGround)) cand.push(i);
  cand.push(n - 1);
  const hull = upperHull(cand.map((i): P2 => [P[i][0], P[i][1] + (curved ? sagitta(P[i][0], d) : 0)])).map((j) => cand[j]);
  if (hull.length > 2) {
    const edges = hull.slice(1, -1);
    const i1 = edges[0], j0 = edges[edges.length - 1];
    // The source side's ground ends at the foot of the first obstacle.
    let i1g = gidx[i1];
    if (cps[i1].type === 'Wall' && i1g - 1 > gidx[0]) i1g -= cps[i1].intersectionType === 'BUILDING_ENTER' ? 1 : cps[i1].intersectionType === 'THIN_WALL_ENTER_EXIT' ? 2 : 0;
    const s1 = groundSegment(S, P[i1], meanPlane(ground.slice(gidx[0], i1g + 1)), gPath(L, 0, i1), gs);
    const s2 = groundSegment(P[j0], R, meanPlane(ground.slice(gidx[j0], gidx[n - 1] + 1)), gPath(L, j0, n - 1), cps[j0].groundCoefficient);
    let e = 0;
    for (let k = 0; k + 1 < edges.length; k++) e += dist(P[edges[k]], P[edges[k + 1]]);
    return { kind: 'diffraction', edges: edges.length, e, s1, s2, diff: differences(s1, s2, P[i1], P[j0], e, curved), hullEdges: edges };
  }
  const vedges = cps.flatMap((c, i) => (c.type === 'VEdgeDiffraction' ? [i] : []));
  if (vedges.length) {
    let e = 0;
    for (let k = 0; k + 1 < vedges.length; k++) e += dist(P[vedges[k]], P[vedges[k + 1]]);
    const c0 = cps[0].coordinate, c1 = cps[n - 1].coordinate;
    const direct = Math.hypot(c1.x - c0.x, c1.y - c0.y, c1.z - c0.z);
    return { kind: 'lateral', edges: vedges.length, e, delta: dist(S, P[vedges[0]]) + e + dist(P[vedges[vedges.length - 1]], R) - direct };
  }
  // No obstacle: a terrain point that passes the Rayleigh test in some band diffracts (the last such point).
  let found: Boundary = { kind: 'ground' };
  for (let i = 1; i < n - 1; i++) {
    if (cps[i].type === 'Reflection') continue;
    const iO = gidx[i], O = ground[iO];
    if (O[0] <= S[0] + 1e-9 || O[0] >= R[0] - 1e-9) continue;
    const dH = sideOf(S, R, O) * (dist(S, O) + dist(O, R) - whole.d);
    if (!OCTAVE_BANDS.some((_, b) => dH > -lambdaOf(b) / 20)) continue;
    const s1 = groundSegment(S, O, meanPlane(ground.slice(0, iO + 1)), gPath(L, 0, i), gs);
    const s2 = groundSegment(O, R, meanPlane(ground.slice(iO)), gPath(L, i, n - 1), gs);
    const straight = differences(s1, s2, O, O, 0, false);
    if (!OCTAVE_BANDS.some((_, b) => dH > lambdaOf(b) / 4 - straight.dPrime)) continue;
    found = { kind: 'terrain_edge', edges: 1, e: 0, s1, s2, diff: curved ? differences(s1, s2, O, O, 0, true) : straight, hullEdges: [] };
  }
  return found;
}

/** Wavelength of band b, m (nominal frequency). */
const lambdaOf = (b: number) => SOUND_SPEED / OCTAVE_BANDS[b];

/** Per band, the boundary attenuation (A_ground or A_dif) of the path in one condition. */
function boundaryAttenuation(B: Boundary, whole: GroundSegment, b: number, favourable: boolean): number {
  const f = OCTAVE_BANDS[b], lambda = lambdaOf(b);
  const ground = favourable ? groundF(whole, f) : groundH(whole, f);
  if (B.kind === 'ground') return ground;
  const cpp = cDoublePrime(lambda, B.e, B.edges);
  // A lateral path: the unfolded path's ground and the vertical edges' Δdif, uncapped.
  if (B.kind === 'lateral') return ground + deltaDif(B.delta, lambda, cpp);
  const { delta, dSpR, dSRp, dPrime } = B.diff;
  // The Rayleigh test: the edge counts in this band when the path passes over it, or nearly (5.7).
  if (!(delta >= 0 || (delta > -lambda / 20 && delta > lambda / 4 - dPrime))) return ground;
  let dSR = deltaDif(delta, lambda, cpp);
  const dSpRv = deltaDif(dSpR, lambda, cpp), dSRpv = deltaDif(dSRp, lambda, cpp);
  const aSO = favourable ? groundF(B.s1, f) : groundH(B.s1, f);
  const aOR = favourable ? groundF(B.s2, f, true) : groundH(B.s2, f, true);
  let gSO: number, gOR: number;
  // (2.5.31-2.5.33) A source (receiver) below its side's mean plane: that side's ground whole, and Δdif of its image.
  if (!B.s1.sBelow) gSO = -20 * Math.log10(1 + (10 ** (-aSO / 20) - 1) * 10 ** (-(dSpRv - dSR) / 20));
  else {
    gSO = aSO;
    dSR = dSpRv;
  }
  if (!B.s2.rBelow) gOR = -20 * Math.log10(1 + (10 ** (-aOR / 20) - 1) * 10 ** (-(dSRpv - dSR) / 20));
  else {
    gOR = aOR;
    dSR = dSRpv;
  }
  return Math.min(25, Math.max(0, dSR)) + gSO + gOR;
}

/** The level of a band's path with attenuation a. */
function levels(lw: readonly number[], a: (b: number) => number): number[] {
  return lw.map((w, b) => w - a(b));
}

/** A path's LH and LF per band (dB) for its sound power, from its cut profile. */
export function pathLevels(profile: CutProfile, conditions: PathConditions = {}, favourableProfile: CutProfile = profile): PathLevels {
  const lw = Array.isArray(conditions.lw) ? [...conditions.lw] : new Array<number>(BAND_COUNT).fill((conditions.lw as number | undefined) ?? 93);
  if (lw.length !== BAND_COUNT) throw new RangeError(`lw must be one number or ${BAND_COUNT}`);
  const alpha = airAbsorption(conditions.temperature ?? 10, conditions.humidity ?? 70);
  const run = (prof: CutProfile, favourable: boolean) => {
    const L = layout(prof);
    const n = L.cps.length, gs = L.cps[0].groundCoefficient;
    const whole = groundSegment(L.P[0], L.P[n - 1], meanPlane(L.ground), gPath(L, 0, n - 1), gs);
    if (prof.profileType === 'DIRECT' || prof.profileType === 'REFLECTION') {
      // (2.5.3) A source or receiver below the mean plane keeps a null height.
      if (whole.sBelow) whole.zs = 0;
      if (whole.rBelow) whole.zr = 0;
      if (whole.sBelow || whole.rBelow) settle(whole, gs);
    }
    const B = boundary(L, whole, prof.profileType, favourable, gs);
    // Divergence over the direct distance of the real S and R on a lateral path, else over |SR| of the plane;
    // absorption over |SR| of the (unfolded) plane.
    const c0 = L.cps[0].coordinate, c1 = L.cps[n - 1].coordinate;
    const dDiv = B.kind === 'lateral' ? Math.hypot(c1.x - c0.x, c1.y - c0.y, c1.z - c0.z) : whole.d;
    const aDiv = 20 * Math.log10(dDiv) + 11;
    // Reflections: absorption, retro-diffraction at the wall's top, and (favourable) whether the path exists.
    const reflections = L.cps.flatMap((c, i) => (c.type === 'Reflection' ? [i] : []));
    let exists = true;
    const retro = reflections.map((i) => {
      const c = L.cps[i], w = c.wall!;
      const len = Math.hypot(w.p1.x - w.p0.x, w.p1.y - w.p0.y);
      const t = len > 0 ? Math.hypot(c.coordinate.x - w.p0.x, c.coordinate.y - w.p0.y) / len : 0;
      const top: P2 = [L.xs[i], w.p0.z + t * (w.p1.z - w.p0.z)];
      if (favourable && c.coordinate.z > top[1] + sagitta(top[0], L.xs[n - 1])) exists = false;
      const edges = B.kind === 'diffraction' ? B.hullEdges : [];
      const before = edges.filter((j) => j < i), after = edges.filter((j) => j > i);
      const Sx = before.length ? L.P[before[before.length - 1]] : L.P[0];
      const Rx = after.length ? L.P[after[0]] : L.P[n - 1];
      const sr = whole.d;
      const dPrime = favourable ? -(arc(dist(Sx, top), sr) + arc(dist(top, Rx), sr) - arc(dist(Sx, Rx), sr)) : dist(Sx, Rx) - dist(Sx, top) - dist(top, Rx);
      return { alpha: c.wallAlpha!, dPrime };
    });
    if (!exists) return { levels: null, kind: B.kind };
    return {
      kind: B.kind,
      levels: levels(lw, (b) => {
        let a = aDiv + (alpha[b] * whole.d) / 1000 + boundaryAttenuation(B, whole, b, favourable);
        for (const r of retro) a += -10 * Math.log10(1 - r.alpha[b]) + deltaDif(r.dPrime, lambdaOf(b));
        return a;
      }),
    };
  };
  const H = run(profile, false), F = run(favourableProfile, true);
  return { LH: H.levels!, LF: F.levels, kindH: H.kind, kindF: F.kind };
}

/** The long-term level of a path per band: 10 lg(p 10^(LF/10) + (1 - p) 10^(LH/10)); no LF, no favourable term. */
export function longTermLevel(path: Pick<PathLevels, 'LH' | 'LF'>, p = 0.5): number[] {
  return path.LH.map((lh, b) => 10 * Math.log10((path.LF ? p * 10 ** (path.LF[b] / 10) : 0) + (1 - p) * 10 ** (lh / 10)));
}

/** The energetic sum of levels per band, and A-weighted. */
export function sumLevels(levels: readonly (readonly number[])[]): { L: number[]; LA: number[] } {
  const L = A_WEIGHTING.map((_, b) => 10 * Math.log10(levels.reduce((s, l) => s + 10 ** (l[b] / 10), 0)));
  return { L, LA: L.map((v, b) => v + A_WEIGHTING[b]) };
}
