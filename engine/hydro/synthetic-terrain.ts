/**
 * Seeded synthetic terrain for tests, benchmarks and demos: a regional tilt plus fractal value noise
 * (octaves of bilinearly interpolated random lattices, amplitude halving as wavelength halves, the classic
 * fBm construction of Perlin 1985 / Musgrave 1989 with value rather than gradient noise) plus small cell
 * noise, which leaves many small pits and flats for the fill to work on, as LiDAR does.
 */
import { northUpTransform } from '../geo/geo-transform.js';
import { seededRandom } from '../random/seeded-random.js';
import type { Grid } from '../raster/grid.js';

/** Options for {@link syntheticTerrain}. */
export interface SyntheticTerrainOptions {
  /** Seed; default 1. */
  seed?: number;
  /** Cell size, metres; default 5. */
  cellSize?: number;
  /** Longest noise wavelength, metres; default 1,500. */
  wavelength?: number;
  /** Amplitude of the longest octave, metres; default 15. */
  amplitude?: number;
  /** Octaves; default 5. */
  octaves?: number;
  /** Regional slope toward the south, metres per metre; default 0.01. */
  tilt?: number;
  /** Standard deviation of independent per-cell noise, metres; default 0.05 (LiDAR-like roughness). */
  cellNoise?: number;
  /** West edge (MGA easting) of the grid, metres; default 320,000. */
  west?: number;
  /** North edge (MGA northing) of the grid, metres; default 5,812,000. */
  north?: number;
  /** CRS; default EPSG:7855 (GDA2020 / MGA zone 55). */
  crs?: string;
}

/** A `width` x `height` Float32 terrain grid, identical for identical options. */
export function syntheticTerrain(width: number, height: number, options: SyntheticTerrainOptions = {}): Grid<Float32Array> {
  const rnd = seededRandom(options.seed ?? 1);
  const cs = options.cellSize ?? 5;
  const octaves = options.octaves ?? 5;
  const tilt = options.tilt ?? 0.01;
  const cellNoise = options.cellNoise ?? 0.05;
  const z = new Float64Array(width * height);
  let wavelength = options.wavelength ?? 1500;
  let amp = options.amplitude ?? 15;
  for (let o = 0; o < octaves; o++) {
    const step = Math.max(1, wavelength / cs); // lattice spacing in cells
    const lw = Math.ceil(width / step) + 2;
    const lh = Math.ceil(height / step) + 2;
    const lattice = new Float64Array(lw * lh);
    for (let i = 0; i < lattice.length; i++) lattice[i] = rnd.next() * 2 - 1;
    for (let y = 0; y < height; y++) {
      const fy = y / step;
      const ly = Math.floor(fy);
      const v = fy - ly;
      const sv = v * v * (3 - 2 * v); // smoothstep, so slopes are continuous across lattice lines
      for (let x = 0; x < width; x++) {
        const fx = x / step;
        const lx = Math.floor(fx);
        const u = fx - lx;
        const su = u * u * (3 - 2 * u);
        const a = lattice[ly * lw + lx];
        const b = lattice[ly * lw + lx + 1];
        const c = lattice[(ly + 1) * lw + lx];
        const d = lattice[(ly + 1) * lw + lx + 1];
        z[y * width + x] += amp * ((a + (b - a) * su) * (1 - sv) + (c + (d - c) * su) * sv);
      }
    }
    wavelength /= 2;
    amp /= 2;
  }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const base = 100 + (height - y) * cs * tilt;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      out[i] = base + z[i] + (cellNoise > 0 ? cellNoise * rnd.normal() : 0);
    }
  }
  return {
    width,
    height,
    data: out,
    noData: NaN,
    transform: northUpTransform(options.west ?? 320000, options.north ?? 5812000, cs),
    crs: options.crs ?? 'EPSG:7855',
  };
}
