/**
 * The exact Euclidean distance transform with each cell's nearest site (a "feature transform"), by
 * Felzenszwalb and Huttenlocher's lower envelope of parabolas ("Distance Transforms of Sampled Functions",
 * Theory of Computing 8, 2012): one pass down each column, one along each row, O(cells). The terrain tiles
 * use it to give a DEM's no-data cells the height of the nearest cell that has one.
 */

/**
 * One line of the transform: for each position q of `f` (0 at a site, Infinity elsewhere, or a squared
 * distance already found along the other axis), `d[q]` = min over sites p of (q - p)^2 + f[p] and `at[q]` that
 * p (-1 when the line has no finite value). `v` and `z` are scratch of n and n + 1.
 */
function envelope(f: Float64Array, n: number, d: Float64Array, at: Int32Array, v: Int32Array, z: Float64Array): void {
  let k = -1;
  for (let q = 0; q < n; q++) {
    const fq = f[q];
    if (fq === Infinity) continue;
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = -Infinity;
      z[1] = Infinity;
      continue;
    }
    let s = (fq + q * q - (f[v[k]] + v[k] * v[k])) / (2 * (q - v[k]));
    while (s <= z[k]) {
      k--;
      s = (fq + q * q - (f[v[k]] + v[k] * v[k])) / (2 * (q - v[k]));
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  if (k < 0) {
    d.fill(Infinity, 0, n);
    at.fill(-1, 0, n);
    return;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    const p = v[k];
    d[q] = (q - p) * (q - p) + f[p];
    at[q] = p;
  }
}

/**
 * For a `width` x `height` row-major grid whose sites are the cells where `site(i)` holds: `distance[i]`, the
 * Euclidean distance in cells to the nearest site (0 on a site, Infinity when there is none), and `nearest[i]`,
 * that site's index (-1 when none).
 */
export function nearestSites(width: number, height: number, site: (i: number) => boolean): { distance: Float32Array; nearest: Int32Array } {
  const n = Math.max(width, height);
  const f = new Float64Array(n), d = new Float64Array(n), v = new Int32Array(n), z = new Float64Array(n + 1);
  const at = new Int32Array(n);
  // Down each column: squared distance to the nearest site in the column, and that site's row.
  const colD = new Float64Array(width * height), colRow = new Int32Array(width * height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) f[y] = site(y * width + x) ? 0 : Infinity;
    envelope(f, height, d, at, v, z);
    for (let y = 0; y < height; y++) {
      colD[y * width + x] = d[y];
      colRow[y * width + x] = at[y];
    }
  }
  // Along each row over those: the nearest site overall is (colRow at the column chosen, that column).
  const distance = new Float32Array(width * height), nearest = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) f[x] = colD[row + x];
    envelope(f, width, d, at, v, z);
    for (let x = 0; x < width; x++) {
      const c = at[x];
      if (c < 0) {
        distance[row + x] = Infinity;
        nearest[row + x] = -1;
      } else {
        distance[row + x] = Math.sqrt(d[x]);
        nearest[row + x] = colRow[row + c] * width + c;
      }
    }
  }
  return { distance, nearest };
}
