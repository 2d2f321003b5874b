/**
 * A state contour-line dataset prepared once per thread: every line part validated, its coordinates in a
 * Float64Array and its bounding box in a flatbush index, so a window query touches only nearby lines instead
 * of re-reading and re-parsing the whole file on every request. Keyed by path and file stamp, so a changed
 * file is read again; a few datasets are kept (least recently used dropped first).
 */
import { statSync } from 'node:fs';
import Flatbush from 'flatbush';
import type { Position } from 'geojson';
import { invalidData } from '../../errors.js';
import { getTransformer, LONLAT } from '../../geo/crs.js';
import { readGeoJsonLayer } from '../../vector/geojson-reader.js';
import { LruCache } from '../../cache/lru-cache.js';

/** One line part: its elevation, feature position (source order) and lon/lat coordinates. */
export interface LinePart {
  feature: number;
  elevation: number;
  /** lon, lat pairs. */
  coords: Float64Array;
}

/** A prepared dataset. */
export interface LineDataset {
  parts: LinePart[];
  index: Flatbush;
  /** Every part's coordinates projected to a CRS, computed once per CRS (windows in one tile share a zone). */
  projected: Map<string, Float64Array[]>;
}

const DATASETS_KEPT = 8;
const cache = new LruCache<string, Promise<LineDataset>>(DATASETS_KEPT);

function lineParts(geometry: { type: string; coordinates?: unknown }): Position[][] | null {
  if (geometry.type === 'LineString') return [geometry.coordinates as Position[]];
  if (geometry.type === 'MultiLineString') return geometry.coordinates as Position[][];
  return null;
}

async function prepare(path: string, crs: string | undefined, property: string): Promise<LineDataset> {
  const layer = await readGeoJsonLayer(path, { crs });
  const parts: LinePart[] = [];
  for (let f = 0; f < layer.features.length; f++) {
    const feature = layer.features[f];
    const ps = lineParts(feature.geometry);
    if (!ps) throw invalidData(path, `feature ${f} is a ${feature.geometry.type}; contour datasets hold LineString or MultiLineString features`, { feature: f });
    const elevation = feature.properties?.[property];
    if (typeof elevation !== 'number' || !Number.isFinite(elevation)) {
      throw invalidData(path, `feature ${f} has no numeric "${property}" property (got ${JSON.stringify(elevation)})`, { feature: f, property });
    }
    for (const part of ps) {
      const coords = new Float64Array(2 * part.length);
      for (let i = 0; i < part.length; i++) {
        coords[2 * i] = part[i][0];
        coords[2 * i + 1] = part[i][1];
      }
      parts.push({ feature: f, elevation, coords });
    }
  }
  const index = new Flatbush(Math.max(1, parts.length));
  for (const p of parts) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < p.coords.length; i += 2) {
      const x = p.coords[i], y = p.coords[i + 1];
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x > x1) x1 = x;
      if (y > y1) y1 = y;
    }
    index.add(x0, y0, x1, y1);
  }
  if (parts.length === 0) index.add(1e9, 1e9, 1e9, 1e9);
  index.finish();
  return { parts, index, projected: new Map() };
}

/** The prepared dataset at `path` (read on first use per thread). */
export function lineDataset(path: string, crs: string | undefined, property: string): Promise<LineDataset> {
  let stamp = '';
  try {
    const st = statSync(path);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    // a missing file: readGeoJsonLayer reports NOT_FOUND naming it
  }
  const key = `${path}|${crs ?? ''}|${property}|${stamp}`;
  let p = cache.get(key);
  if (p) return p;
  p = prepare(path, crs, property);
  p.catch(() => cache.delete(key));
  cache.set(key, p);
  return p;
}

/** Every part's coordinates in `crs` (x, y pairs), projected on first use and kept. */
export function projectedParts(ds: LineDataset, crs: string): Float64Array[] {
  let out = ds.projected.get(crs);
  if (!out) {
    const t = getTransformer(LONLAT, crs);
    out = ds.parts.map((p) => {
      const xy = p.coords.slice();
      t.forwardArray(xy);
      return xy;
    });
    ds.projected.set(crs, out);
  }
  return out;
}

/** The parts whose boxes meet a lon/lat box, in source order. */
export function partsIn(ds: LineDataset, box: readonly [number, number, number, number]): number[] {
  return ds.index.search(box[0], box[1], box[2], box[3], (i) => i < ds.parts.length).sort((a, b) => a - b);
}
