/**
 * Polylines as flat typed arrays, the form mapped watercourses cross the worker boundary in: `coords` holds
 * lon, lat pairs of every line back to back, line `l` spans pairs `offsets[l] .. offsets[l + 1]`.
 */
import type { Feature, Geometry, Position } from 'geojson';
import { invalidArgument } from '../errors.js';
import { getTransformer, LONLAT } from '../geo/crs.js';

/** Lines in lon/lat, flat. */
export interface LineSet {
  /** lon, lat pairs, degrees. */
  coords: Float64Array;
  /** Pair index where each line starts, plus one final entry (the pair count). */
  offsets: Uint32Array;
}

/** The LineString and MultiLineString parts (and polygon rings) of GeoJSON features, as a {@link LineSet}. */
export function lineSetFromFeatures(features: readonly Feature<Geometry | null>[]): LineSet {
  const lines: Position[][] = [];
  const add = (g: Geometry | null) => {
    if (!g) return;
    if (g.type === 'LineString') lines.push(g.coordinates);
    else if (g.type === 'MultiLineString' || g.type === 'Polygon') lines.push(...g.coordinates);
    else if (g.type === 'MultiPolygon') for (const p of g.coordinates) lines.push(...p);
    else if (g.type === 'GeometryCollection') g.geometries.forEach(add);
  };
  for (const f of features) add(f.geometry);
  const total = lines.reduce((s, l) => s + l.length, 0);
  const coords = new Float64Array(total * 2);
  const offsets = new Uint32Array(lines.length + 1);
  let k = 0;
  lines.forEach((l, i) => {
    offsets[i] = k;
    for (const p of l) {
      coords[2 * k] = p[0];
      coords[2 * k + 1] = p[1];
      k++;
    }
  });
  offsets[lines.length] = k;
  return { coords, offsets };
}

/** The lines projected into `crs`, one interleaved x, y array per line (for rasterizing). */
export function projectLineSet(lines: LineSet, crs: string): Float64Array[] {
  const n = lines.offsets.length - 1;
  if (n < 0 || lines.offsets[n] * 2 !== lines.coords.length) throw invalidArgument('watercourses', `line set offsets do not match its ${lines.coords.length / 2} coordinate pairs`);
  const t = getTransformer(LONLAT, crs);
  const out: Float64Array[] = [];
  for (let l = 0; l < n; l++) {
    const xy = lines.coords.slice(2 * lines.offsets[l], 2 * lines.offsets[l + 1]);
    t.forwardArray(xy);
    out.push(xy);
  }
  return out;
}
