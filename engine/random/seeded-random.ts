/**
 * A small, fast, seeded pseudo-random generator (sfc32, from Chris Doty-Humphrey's PractRand suite): the
 * same seed gives the same sequence on every platform, which the sample world, the benchmarks and the
 * property tests rely on. Not for cryptography.
 */

/** A seeded random source. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** A generator seeded from a 32-bit integer (or any number, truncated). */
export function seededRandom(seed: number): Random {
  // Seed the four words through splitmix32 so nearby seeds give unrelated streams.
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split(), b = split(), c = split(), d = split();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  let spare: number | null = null;
  return {
    next,
    int: (n) => Math.floor(next() * n),
    range: (min, max) => min + (max - min) * next(),
    normal() {
      if (spare !== null) {
        const v = spare;
        spare = null;
        return v;
      }
      let u = 0;
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}
