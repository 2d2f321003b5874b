/**
 * Deterministic file output for the sample world: GeoJSON with coordinates rounded to 7 decimals (about
 * 1 cm) and properties in insertion order, CSV with a fixed column order, GeoTIFF through the engine's writer,
 * JSON lines. The same inputs always give the same bytes, and every file's SHA-256 is recorded.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Feature, Geometry, Position } from 'geojson';
import { encodeGeoTiff } from '../../engine/raster/geotiff-writer.js';
import type { Grid, TypedArray } from '../../engine/raster/grid.js';
import { csvField } from '../../engine/vector/csv.js';

/** A file the generator wrote. */
export interface WrittenFile {
  path: string;
  bytes: number;
  sha256: string;
}

const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

function roundPositions(c: unknown): unknown {
  if (typeof c === 'number') return round7(c);
  return (c as unknown[]).map(roundPositions);
}

function roundGeometry(g: Geometry): Geometry {
  if (g.type === 'GeometryCollection') return { type: g.type, geometries: g.geometries.map(roundGeometry) };
  return { type: g.type, coordinates: roundPositions(g.coordinates) } as Geometry;
}

/** Writes files under one root directory and remembers what it wrote. */
export class FileWriter {
  readonly files: WrittenFile[] = [];

  constructor(readonly root: string) {}

  private put(path: string, data: string | Uint8Array): WrittenFile {
    const abs = join(this.root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, data);
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    const f = { path, bytes: buf.byteLength, sha256: createHash('sha256').update(buf).digest('hex') };
    this.files.push(f);
    return f;
  }

  /** A GeoJSON FeatureCollection, lon/lat unless `crs` names a projected CRS (written as the legacy member). */
  geojson(path: string, features: Feature[], crs?: string): WrittenFile {
    const out = features.map((f) => ({ type: 'Feature', properties: f.properties ?? {}, geometry: f.geometry ? roundGeometryFor(f.geometry, crs) : null }));
    const doc: Record<string, unknown> = { type: 'FeatureCollection' };
    if (crs) doc.crs = { type: 'name', properties: { name: `urn:ogc:def:crs:EPSG::${crs.replace('EPSG:', '')}` } };
    doc.features = out;
    return this.put(path, `${JSON.stringify(doc)}\n`);
  }

  /** A CSV file with a header row. */
  csv(path: string, columns: readonly string[], rows: readonly Record<string, unknown>[]): WrittenFile {
    const lines = [columns.join(',')];
    for (const r of rows) lines.push(columns.map((c) => csvField(r[c])).join(','));
    return this.put(path, `${lines.join('\n')}\n`);
  }

  /** JSON lines: one object per line. */
  jsonl(path: string, rows: readonly Record<string, unknown>[]): WrittenFile {
    return this.put(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }

  /** A pretty-printed JSON document. */
  json(path: string, doc: unknown): WrittenFile {
    return this.put(path, `${JSON.stringify(doc, null, 2)}\n`);
  }

  /** A GeoTIFF. */
  geotiff(path: string, grid: Grid<TypedArray>): WrittenFile {
    return this.put(path, encodeGeoTiff(grid));
  }
}

function roundGeometryFor(g: Geometry, crs?: string): Geometry {
  // Projected coordinates are metres: 3 decimals (1 mm) is the same precision as 7 decimal degrees.
  if (crs && crs !== 'EPSG:4326') {
    const r3 = (c: unknown): unknown => (typeof c === 'number' ? Math.round(c * 1000) / 1000 : (c as unknown[]).map(r3));
    if (g.type === 'GeometryCollection') return g;
    return { type: g.type, coordinates: r3(g.coordinates) } as Geometry;
  }
  return roundGeometry(g);
}

/** A feature (properties first, as most publishers write them). */
export function feature(properties: Record<string, unknown>, geometry: Geometry): Feature {
  return { type: 'Feature', properties, geometry };
}

/** Closes a ring if its first and last positions differ. */
export function closeRing(ring: Position[]): Position[] {
  const f = ring[0];
  const l = ring[ring.length - 1];
  return f[0] === l[0] && f[1] === l[1] ? ring : [...ring, [f[0], f[1]]];
}
