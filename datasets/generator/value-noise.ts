/**
 * Seeded 2-D gradient noise (Perlin 1985, with the quintic fade of Perlin 2002, "Improving noise"), summed over
 * octaves: smooth, repeatable relief for the synthetic terrain. Gradient noise rather than value noise,
 * because value noise leaves square plateaus at its lattice points that hillshading makes obvious.
 */

/** murmur3's 32-bit finaliser: every input bit affects every output bit. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// Chained, not XOR-combined: a linear combination of ix and iy would repeat along lattice diagonals.
function hash(ix: number, iy: number, seed: number): number {
  return mix((mix((mix(seed | 0) + (ix | 0)) | 0) + (iy | 0)) | 0);
}

// 64 unit gradients evenly around the circle (a table instead of cos/sin per lattice point).
const GX = new Float64Array(64);
const GY = new Float64Array(64);
for (let i = 0; i < 64; i++) {
  GX[i] = Math.cos((2 * Math.PI * (i + 0.5)) / 64);
  GY[i] = Math.sin((2 * Math.PI * (i + 0.5)) / 64);
}

const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10);

/** Gradient noise at (x, y) with lattice spacing `wavelength` (same units as x, y); roughly in [-1, 1]. */
export function valueNoise(x: number, y: number, wavelength: number, seed: number): number {
  const fx = x / wavelength;
  const fy = y / wavelength;
  const ix = Math.floor(fx);
  const iy = Math.floor(fy);
  const tx = fx - ix;
  const ty = fy - iy;
  const u = fade(tx);
  const v = fade(ty);
  const h00 = hash(ix, iy, seed) & 63;
  const h10 = hash(ix + 1, iy, seed) & 63;
  const h01 = hash(ix, iy + 1, seed) & 63;
  const h11 = hash(ix + 1, iy + 1, seed) & 63;
  const n00 = GX[h00] * tx + GY[h00] * ty;
  const n10 = GX[h10] * (tx - 1) + GY[h10] * ty;
  const n01 = GX[h01] * tx + GY[h01] * (ty - 1);
  const n11 = GX[h11] * (tx - 1) + GY[h11] * (ty - 1);
  const nx0 = n00 + u * (n10 - n00);
  const nx1 = n01 + u * (n11 - n01);
  // Scale so the usual range is about [-1, 1] (2-D gradient noise peaks near +-0.7).
  return 1.4 * (nx0 + v * (nx1 - nx0));
}

// Each octave on a lattice turned by a different angle, so no axis lines up across octaves.
const MAX_OCTAVES = 8;
const OC = Float64Array.from({ length: MAX_OCTAVES }, (_, o) => Math.cos(0.61 + o * 1.13));
const OS = Float64Array.from({ length: MAX_OCTAVES }, (_, o) => Math.sin(0.61 + o * 1.13));

/** Fractal sum of octaves: wavelengths shrink by `lacunarity`, amplitudes by `gain`. */
export function fractalNoise(x: number, y: number, wavelength: number, octaves: number, seed: number, gain = 0.5, lacunarity = 2.7): number {
  let sum = 0;
  let amp = 1;
  let norm = 0;
  let wl = wavelength;
  for (let o = 0; o < Math.min(octaves, MAX_OCTAVES); o++) {
    const c = OC[o], s = OS[o];
    sum += amp * valueNoise(x * c - y * s, x * s + y * c, wl, seed + o * 1013);
    norm += amp;
    amp *= gain;
    wl /= lacunarity;
  }
  return sum / norm;
}
