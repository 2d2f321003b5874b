/**
 * Synthetic terrain with believable relief: a meandering creek in a valley whose bed falls along its course,
 * a hilly edge on one side, and rolling ground everywhere else. It is analytic (elevation is a function of
 * position), so every layer that depends on the ground (the DEM, flood extents, state contour lines, bushfire
 * slope, the flood study) asks the same function and agrees with the others.
 *
 * Coordinates are local metres (origin at the tile centre). `u` runs along the creek's mean direction (the
 * direction of flow) and `v` across it, positive to the left of the flow.
 */
import type { Position } from 'geojson';
import type { Random } from '../../engine/random/seeded-random.js';
import { rotate, TILE_HALF_M } from './frame.js';
import type { TerrainSpec } from './tiles.js';
import { fractalNoise } from './value-noise.js';

const smoothstep = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));
const RAD = Math.PI / 180;

/** The ground of one tile. */
export class Terrain {
  private readonly angle: number;
  private readonly ca: number;
  private readonly sa: number;
  private readonly m1: { a: number; wl: number; ph: number };
  private readonly m2: { a: number; wl: number; ph: number };
  private readonly seed: number;

  constructor(readonly spec: TerrainSpec, rnd: Random) {
    this.angle = spec.creekAngle * RAD;
    this.ca = Math.cos(this.angle);
    this.sa = Math.sin(this.angle);
    this.m1 = { a: rnd.range(160, 260), wl: rnd.range(2200, 3200), ph: rnd.range(0, 2 * Math.PI) };
    this.m2 = { a: rnd.range(40, 90), wl: rnd.range(700, 1100), ph: rnd.range(0, 2 * Math.PI) };
    this.seed = rnd.int(1 << 30);
  }

  /** Along-flow (u) and across-flow (v) coordinates of local point (x, y). */
  uv(x: number, y: number): [number, number] {
    return [x * this.ca + y * this.sa, -x * this.sa + y * this.ca];
  }

  /** Local (x, y) of along/across coordinates (u, v). */
  xy(u: number, v: number): [number, number] {
    return rotate(u, v, this.angle);
  }

  /** Across-flow position of the creek's centreline at `u`. */
  creekV(u: number): number {
    const { m1, m2 } = this;
    return this.spec.creekOffset + m1.a * Math.sin((2 * Math.PI * u) / m1.wl + m1.ph) + m2.a * Math.sin((2 * Math.PI * u) / m2.wl + m2.ph);
  }

  private creekSlope(u: number): number {
    const { m1, m2 } = this;
    return m1.a * ((2 * Math.PI) / m1.wl) * Math.cos((2 * Math.PI * u) / m1.wl + m1.ph) + m2.a * ((2 * Math.PI) / m2.wl) * Math.cos((2 * Math.PI * u) / m2.wl + m2.ph);
  }

  /** Signed distance from the creek centreline, metres (positive to the left of the flow). */
  creekDistance(x: number, y: number): number {
    return this.distanceAt(x * this.ca + y * this.sa, -x * this.sa + y * this.ca);
  }

  private distanceAt(u: number, v: number): number {
    const s = this.creekSlope(u);
    return (v - this.creekV(u)) / Math.sqrt(1 + s * s);
  }

  /** Elevation of the creek bed at along-flow position `u`, metres. */
  bedAt(u: number): number {
    return this.spec.base - (this.spec.fall * u) / 1000;
  }

  /** Height above the creek bed at the same along-flow position (a cheap stand-in for HAND), metres. */
  heightAboveBed(x: number, y: number): number {
    const [u] = this.uv(x, y);
    return this.elevation(x, y) - this.bedAt(u);
  }

  /** How far into the hilly edge (x, y) lies, 0 on the plain to 1 on the hills. */
  hilliness(x: number, y: number): number {
    return this.hillinessAt(this.creekDistance(x, y));
  }

  private hillinessAt(signedDistance: number): number {
    return smoothstep((signedDistance * this.spec.hillSide - 900) / 1400);
  }

  /** Ground elevation at local (x, y), metres. */
  elevation(x: number, y: number): number {
    const t = this.spec;
    const u = x * this.ca + y * this.sa;
    const s = this.distanceAt(u, -x * this.sa + y * this.ca);
    const d = Math.abs(s);
    const valley = t.valleyDepth * (1 - Math.exp(-d / t.valleyWidth));
    const regional = 0.004 * d;
    const hill = this.hillinessAt(s);
    const hills = hill > 0 ? t.hillHeight * hill * (1 + 0.3 * fractalNoise(x, y, 1000, 3, this.seed + 7, 0.4)) : 0;
    // Rolling ground fades out near the channel so the creek stays one continuous low line.
    const rolling = t.roughness * fractalNoise(x, y, 1100, 4, this.seed) * smoothstep(d / 80);
    const channel = d < 4 ? -0.8 * (1 - d / 4) : 0;
    return this.bedAt(u) + valley + regional + hills + rolling + channel;
  }

  /** The creek centreline in local metres, sampled every `step` metres across and a little beyond the tile. */
  centreline(step = 20): Position[] {
    const reach = TILE_HALF_M * 1.45;
    const out: Position[] = [];
    for (let u = -reach; u <= reach; u += step) {
      const [x, y] = this.xy(u, this.creekV(u));
      if (Math.abs(x) <= TILE_HALF_M + step && Math.abs(y) <= TILE_HALF_M + step) out.push([x, y]);
    }
    return out;
  }

  /**
   * The DEM: a Float32 grid of `cell`-metre cells covering the tile, row 0 north. Values are rounded to the
   * centimetre, as LiDAR DEMs are published.
   */
  grid(cell: number): Float32Array {
    const n = Math.round((2 * TILE_HALF_M) / cell);
    const out = new Float32Array(n * n);
    for (let r = 0; r < n; r++) {
      const y = TILE_HALF_M - (r + 0.5) * cell;
      for (let c = 0; c < n; c++) {
        const x = -TILE_HALF_M + (c + 0.5) * cell;
        out[r * n + c] = Math.round(this.elevation(x, y) * 100) / 100;
      }
    }
    return out;
  }
}
