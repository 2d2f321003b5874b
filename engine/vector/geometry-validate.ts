/**
 * Structural validation of GeoJSON geometries (RFC 7946 section 3.1): known types, correctly nested
 * coordinate arrays, finite numbers, at least two positions in a line, closed rings of at least four
 * positions, and lon/lat in range for geographic layers. Self-intersection is not checked here: it is
 * costly on large layers, and point-in-polygon still answers sensibly for a bow-tie ring.
 */
import type { Geometry, Position } from 'geojson';

/** A problem found in a geometry, with the JSON path to it (e.g. `coordinates[0][3]`). */
export interface GeometryProblem {
  path: string;
  message: string;
}

const TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

function checkPosition(p: unknown, path: string, geographic: boolean): GeometryProblem | null {
  if (!Array.isArray(p) || p.length < 2) return { path, message: 'a position must be an array of at least two numbers' };
  for (let i = 0; i < p.length && i < 3; i++) {
    if (typeof p[i] !== 'number' || !Number.isFinite(p[i])) return { path, message: `coordinate ${i} is not a finite number (${JSON.stringify(p[i])})` };
  }
  if (geographic && (p[0] < -180 || p[0] > 180 || p[1] < -90 || p[1] > 90)) {
    return { path, message: `lon/lat out of range (${p[0]}, ${p[1]}): projected coordinates in a layer without a declared CRS?` };
  }
  return null;
}

function checkPositions(a: unknown, path: string, geographic: boolean, min: number, what: string): GeometryProblem | null {
  if (!Array.isArray(a)) return { path, message: `${what} must be an array of positions` };
  if (a.length < min) return { path, message: `${what} needs at least ${min} positions, has ${a.length}` };
  for (let i = 0; i < a.length; i++) {
    const p = checkPosition(a[i], `${path}[${i}]`, geographic);
    if (p) return p;
  }
  return null;
}

function checkRing(a: unknown, path: string, geographic: boolean): GeometryProblem | null {
  const p = checkPositions(a, path, geographic, 4, 'a linear ring');
  if (p) return p;
  const ring = a as Position[];
  const f = ring[0];
  const l = ring[ring.length - 1];
  if (f[0] !== l[0] || f[1] !== l[1]) return { path, message: 'linear ring is not closed (first and last positions differ)' };
  return null;
}

function checkArrayOf(a: unknown, path: string, what: string, each: (v: unknown, p: string) => GeometryProblem | null, min = 0): GeometryProblem | null {
  if (!Array.isArray(a)) return { path, message: `${what} must be an array` };
  if (a.length < min) return { path, message: `${what} needs at least ${min} members` };
  for (let i = 0; i < a.length; i++) {
    const p = each(a[i], `${path}[${i}]`);
    if (p) return p;
  }
  return null;
}

/** Returns the first structural problem in `g`, or null when it is a valid geometry. */
export function validateGeometry(g: unknown, geographic: boolean, path = 'geometry'): GeometryProblem | null {
  if (!g || typeof g !== 'object') return { path, message: 'geometry must be an object' };
  const geom = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (typeof geom.type !== 'string' || !TYPES.has(geom.type)) return { path: `${path}.type`, message: `unknown geometry type ${JSON.stringify(geom.type)}` };
  const c = geom.coordinates;
  const cp = `${path}.coordinates`;
  switch (geom.type) {
    case 'Point':
      return checkPosition(c, cp, geographic);
    case 'MultiPoint':
      return checkPositions(c, cp, geographic, 0, 'a MultiPoint');
    case 'LineString':
      return checkPositions(c, cp, geographic, 2, 'a LineString');
    case 'MultiLineString':
      return checkArrayOf(c, cp, 'a MultiLineString', (v, p) => checkPositions(v, p, geographic, 2, 'a LineString'));
    case 'Polygon':
      return checkArrayOf(c, cp, 'a Polygon', (v, p) => checkRing(v, p, geographic), 1);
    case 'MultiPolygon':
      return checkArrayOf(c, cp, 'a MultiPolygon', (v, p) => checkArrayOf(v, p, 'a Polygon', (r, q) => checkRing(r, q, geographic), 1));
    case 'GeometryCollection':
      return checkArrayOf(geom.geometries, `${path}.geometries`, 'a GeometryCollection', (v, p) => validateGeometry(v, geographic, p));
  }
  return null;
}

/** Calls `fn` on every position of a (valid) geometry; `fn` may modify the position in place. */
export function forEachPosition(g: Geometry, fn: (p: Position) => void): void {
  switch (g.type) {
    case 'Point':
      fn(g.coordinates);
      return;
    case 'MultiPoint':
    case 'LineString':
      for (const p of g.coordinates) fn(p);
      return;
    case 'MultiLineString':
    case 'Polygon':
      for (const l of g.coordinates) for (const p of l) fn(p);
      return;
    case 'MultiPolygon':
      for (const poly of g.coordinates) for (const l of poly) for (const p of l) fn(p);
      return;
    case 'GeometryCollection':
      for (const x of g.geometries) forEachPosition(x, fn);
  }
}
