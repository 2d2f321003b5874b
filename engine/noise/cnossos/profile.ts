/**
 * A propagation path as a vertical cut profile from source to receiver (CNOSSOS-EU's "vertical plane"): the
 * points where something changes along the path, in order, with plan coordinates (x, y) and heights. The
 * format is that of the ISO/TR 17534-4 test profiles (`../shared/cnossos/profiles/`, from NoiseModelling's
 * test cases), so the model's own profiles (cut from a DEM) and the standard's cases run through one code.
 *
 * Point types: `Source` and `Receiver` (z the absolute height), `GroundEffect` (the ground factor changes),
 * `Topography` (the terrain bends), `Wall` (a thin screen, or a building's footprint entered or left: z its
 * top), `VEdgeDiffraction` (a vertical edge a lateral path turns round), `Reflection` (the image point on a
 * reflecting wall, with the wall's absorption per band). `groundCoefficient` G (0 hard, 1 porous) holds from
 * a point to the next.
 */
import { invalidArgument } from '../../errors.js';
import { BAND_COUNT } from './bands.js';

export type CutPointType = 'Source' | 'Receiver' | 'GroundEffect' | 'Topography' | 'Wall' | 'VEdgeDiffraction' | 'Reflection';
export type WallCrossing = 'THIN_WALL_ENTER_EXIT' | 'BUILDING_ENTER' | 'BUILDING_EXIT';

export interface XYZ {
  x: number;
  y: number;
  z: number;
}

export interface CutPoint {
  type: CutPointType;
  coordinate: XYZ;
  /** Ground height at the point, metres. */
  zGround: number;
  /** Ground factor G from this point to the next (0 hard, 1 porous). */
  groundCoefficient: number;
  /** A wall's (or a reflecting wall's) ends in plan, z their top. */
  wall?: { p0: XYZ; p1: XYZ };
  /** A reflecting wall's absorption coefficient per band. */
  wallAlpha?: number[];
  /** How a Wall point crosses its obstacle. */
  intersectionType?: WallCrossing;
}

export type ProfileType = 'DIRECT' | 'LEFT' | 'RIGHT' | 'REFLECTION';

export interface CutProfile {
  cutPoints: CutPoint[];
  profileType: ProfileType;
  /** A lateral path's profile for favourable (curved-ray) conditions. */
  curvedPath?: boolean;
}

const TYPES = new Set<CutPointType>(['Source', 'Receiver', 'GroundEffect', 'Topography', 'Wall', 'VEdgeDiffraction', 'Reflection']);
const PROFILE_TYPES = new Set<ProfileType>(['DIRECT', 'LEFT', 'RIGHT', 'REFLECTION']);

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A cut profile checked from parsed JSON; INVALID_ARGUMENT naming what is wrong (and where: `what`). */
export function readCutProfile(doc: unknown, what = 'profile'): CutProfile {
  const bad = (msg: string) => invalidArgument('profile', `${what}: ${msg}`);
  if (!doc || typeof doc !== 'object') throw bad('not a JSON object');
  const d = doc as Record<string, unknown>;
  if (!PROFILE_TYPES.has(d.profileType as ProfileType)) throw bad(`profileType must be one of ${[...PROFILE_TYPES].join(', ')}`);
  if (!Array.isArray(d.cutPoints) || d.cutPoints.length < 2) throw bad('cutPoints must be a list of at least a Source and a Receiver');
  const pts = d.cutPoints.map((p, i): CutPoint => {
    const q = p as Record<string, unknown>;
    const c = q?.coordinate as Record<string, unknown> | undefined;
    if (!q || !TYPES.has(q.type as CutPointType)) throw bad(`cutPoints[${i}].type must be one of ${[...TYPES].join(', ')}`);
    if (!c || !finite(c.x) || !finite(c.y) || !finite(c.z)) throw bad(`cutPoints[${i}].coordinate must have numbers x, y, z`);
    if (!finite(q.zGround)) throw bad(`cutPoints[${i}].zGround must be a number`);
    if (!finite(q.groundCoefficient) || q.groundCoefficient < 0 || q.groundCoefficient > 1) throw bad(`cutPoints[${i}].groundCoefficient must be a number from 0 to 1`);
    const out: CutPoint = { type: q.type as CutPointType, coordinate: { x: c.x, y: c.y, z: c.z }, zGround: q.zGround, groundCoefficient: q.groundCoefficient };
    if (q.type === 'Wall' || q.type === 'Reflection') {
      const w = q.wall as { p0?: Record<string, unknown>; p1?: Record<string, unknown> } | undefined;
      const xyz = (v: Record<string, unknown> | undefined): v is { x: number; y: number; z: number } => !!v && finite(v.x) && finite(v.y) && finite(v.z);
      if (w && xyz(w.p0) && xyz(w.p1)) out.wall = { p0: { x: w.p0.x, y: w.p0.y, z: w.p0.z }, p1: { x: w.p1.x, y: w.p1.y, z: w.p1.z } };
      else if (q.type === 'Reflection') throw bad(`cutPoints[${i}] (Reflection) needs wall.p0 and wall.p1`);
    }
    if (q.type === 'Reflection') {
      const a = q.wallAlpha;
      if (!Array.isArray(a) || a.length !== BAND_COUNT || !a.every((v) => finite(v) && v >= 0 && v < 1)) throw bad(`cutPoints[${i}].wallAlpha must be ${BAND_COUNT} absorption coefficients from 0 to below 1`);
      out.wallAlpha = a as number[];
    }
    if (q.type === 'Wall') {
      const t = q.intersectionType;
      if (t !== 'THIN_WALL_ENTER_EXIT' && t !== 'BUILDING_ENTER' && t !== 'BUILDING_EXIT') throw bad(`cutPoints[${i}].intersectionType must be THIN_WALL_ENTER_EXIT, BUILDING_ENTER or BUILDING_EXIT`);
      out.intersectionType = t;
    }
    return out;
  });
  if (pts[0].type !== 'Source') throw bad('the first cut point must be the Source');
  if (pts[pts.length - 1].type !== 'Receiver') throw bad('the last cut point must be the Receiver');
  const s = pts[0].coordinate, r = pts[pts.length - 1].coordinate;
  if (Math.hypot(r.x - s.x, r.y - s.y) < 1e-6) throw bad('the Source and the Receiver are at the same place in plan: a path needs a horizontal length');
  return { cutPoints: pts, profileType: d.profileType as ProfileType, curvedPath: d.curvedPath === true };
}
