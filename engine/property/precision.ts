/**
 * Numbers in payloads at the precision they mean (README "Numbers in payloads"): one rule, applied once to
 * every finished payload (property-lookup.ts), by what a number is: its key, or the `unit` beside a
 * component's `value`. A measurement keeps the digits of its resolution; RFC 7946 section 11.2 recommends
 * 6 decimals for GeoJSON coordinates (about 0.1 m); points keep 7 (about 1 cm), as the spec's examples show.
 *
 * | what | decimals |
 * |---|---|
 * | GeoJSON geometry coordinates | 6 |
 * | `lat`, `lng`, `lon`, `latitude`, `longitude` of points | 7 |
 * | grid `transform`s (metres) | 3 (the millimetre) |
 * | `distance_m` | 0 (whole metres, as the spec shows it) |
 * | other metres: `*_m`, unit `m` | 1 |
 * | `*_km` | 3 (the metre) |
 * | `*_km2` | 4 |
 * | decibels: `*_db`, unit `dB` | 1 |
 * | millimetres: `*_mm`, unit `mm` | 1 |
 * | shares and probabilities: `share`, `*_share`, `*_fraction`, `probability`, unit `share` | 4 |
 * | angles and temperatures: `*_deg`, unit `deg` or `degC` | 2 |
 * | anything else that is not a whole number | 4 |
 *
 * Whole numbers (scores, counts, bands, years, ids) are never touched, and a number already within its
 * rule is left exactly as it is.
 */

const POINT_KEYS = new Set(['lat', 'lng', 'lon', 'latitude', 'longitude']);
const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon']);

/** Decimals for a number under `key` (with the `unit` of its object, when it has one). */
export function decimalsFor(key: string, unit?: unknown): number {
  if (POINT_KEYS.has(key)) return 7;
  if (key === 'distance_m') return 0;
  if (key === 'value' && typeof unit === 'string') {
    if (unit === 'm') return 1;
    if (unit === 'mm' || unit === 'dB' || unit === 'dB(A)') return 1;
    if (unit === 'share') return 4;
    if (unit === 'deg' || unit === 'degC') return 2;
  }
  if (key === 'share' || key.endsWith('_share') || key.endsWith('_fraction') || key === 'probability') return 4;
  if (key.endsWith('_db')) return 1;
  if (key.endsWith('_mm')) return 1;
  if (key.endsWith('_km2')) return 4;
  if (key.endsWith('_km')) return 3;
  if (key.endsWith('_m')) return 1;
  if (key.endsWith('_deg')) return 2;
  return 4;
}

const round = (v: number, d: number): number => {
  if (Number.isInteger(v) || !Number.isFinite(v)) return v;
  const f = 10 ** d;
  const r = Math.round(v * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

function roundArray(a: readonly unknown[], d: number): unknown[] {
  return a.map((v) => (typeof v === 'number' ? round(v, d) : Array.isArray(v) ? roundArray(v, d) : v));
}

function copy(node: unknown, key: string): unknown {
  if (Array.isArray(node)) return node.map((v) => (typeof v === 'number' ? round(v, key === 'transform' ? 3 : decimalsFor(key)) : copy(v, key)));
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  const geometry = typeof o.type === 'string' && GEOMETRY_TYPES.has(o.type) && Array.isArray(o.coordinates);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (typeof v === 'number') out[k] = round(v, decimalsFor(k, o.unit));
    else if (geometry && k === 'coordinates') out[k] = roundArray(v as unknown[], 6);
    else if (k === 'transform' && Array.isArray(v)) out[k] = roundArray(v, 3);
    else out[k] = copy(v, k);
  }
  return out;
}

/**
 * A copy of `payload` with every number rounded by the rule above (the input, which caches may share, is
 * not changed).
 */
export function withPrecision<T>(payload: T): T {
  return copy(payload, '') as T;
}
