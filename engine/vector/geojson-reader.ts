/**
 * GeoJSON layers. Features come out in lon/lat (RFC 7946) whatever the file holds: a layer in a projected
 * CRS (declared by the catalogue, or by the legacy 2008 `crs` member such as
 * `urn:ogc:def:crs:EPSG::7855`) is reprojected with proj4 on load. Every feature is validated first, so a
 * layer loads completely or fails with an `INVALID_DATA` error naming the file, the feature and the problem.
 */
import { readFile } from 'node:fs/promises';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { EngineError, invalidData } from '../errors.js';
import type { BBox } from '../geo/bbox.js';
import { emptyBBox, extendBBox } from '../geo/bbox.js';
import { getTransformer, isGeographic, LONLAT, normaliseCrs, requireCrs } from '../geo/crs.js';
import { forEachPosition, validateGeometry } from './geometry-validate.js';

/** A loaded vector layer, in lon/lat. */
export interface GeoJsonLayer {
  file: string;
  /** The CRS the file was stored in (features have been reprojected to lon/lat). */
  sourceCrs: string;
  /** Features with a geometry; features whose geometry is null are counted in `nullGeometryCount`. */
  features: Feature<Geometry>[];
  /** Extent of all features in lon/lat. */
  bbox: BBox;
  /** Features skipped because their geometry is null (valid GeoJSON, but nothing to index). */
  nullGeometryCount: number;
}

/** Options for reading a GeoJSON layer. */
export interface ReadGeoJsonOptions {
  /** The CRS the catalogue declares for the file; must agree with a `crs` member if the file has one. */
  crs?: string;
}

function declaredCrsOf(doc: Record<string, unknown>, file: string): string | null {
  const c = doc.crs as { type?: string; properties?: { name?: string } } | undefined;
  if (!c) return null;
  const name = c.properties?.name;
  if (c.type !== 'name' || typeof name !== 'string') throw invalidData(file, `unreadable "crs" member ${JSON.stringify(c)}`);
  const crs = normaliseCrs(name);
  if (!crs) throw new EngineError('UNSUPPORTED', `${file}: unrecognised CRS ${JSON.stringify(name)} in the "crs" member`, { file, crs: name });
  return requireCrs(crs, file);
}

/** Parses GeoJSON text into a validated lon/lat layer. */
export function parseGeoJsonLayer(text: string, file: string, options: ReadGeoJsonOptions = {}): GeoJsonLayer {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw invalidData(file, `not valid JSON (${(err as Error).message})`, {}, err);
  }
  if (!doc || typeof doc !== 'object') throw invalidData(file, 'GeoJSON must be an object');
  const root = doc as Record<string, unknown>;
  let raw: unknown[];
  if (root.type === 'FeatureCollection') {
    if (!Array.isArray(root.features)) throw invalidData(file, 'FeatureCollection has no "features" array');
    raw = root.features;
  } else if (root.type === 'Feature') {
    raw = [root];
  } else {
    throw invalidData(file, `expected a FeatureCollection or Feature, got type ${JSON.stringify(root.type)}`);
  }
  const inFile = declaredCrsOf(root, file);
  const declared = options.crs ? requireCrs(options.crs, file) : null;
  if (inFile && declared && inFile !== declared) {
    throw invalidData(file, `inconsistent CRS: the file's "crs" member says ${inFile} but the catalogue declares ${declared}`, { crs: inFile, declared });
  }
  return layerFromFeatures(raw, file, inFile ?? declared ?? LONLAT);
}

/**
 * Validates GeoJSON-shaped features read from any format (GeoJSON, a Shapefile) and reprojects them from
 * `sourceCrs` to lon/lat: the one path every vector reader ends in, so every format is checked alike.
 */
export function layerFromFeatures(raw: readonly unknown[], file: string, sourceCrs: string): GeoJsonLayer {
  const geographic = isGeographic(sourceCrs);
  const features: Feature<Geometry>[] = [];
  let nulls = 0;
  for (let i = 0; i < raw.length; i++) {
    const f = raw[i] as Record<string, unknown>;
    if (!f || typeof f !== 'object' || f.type !== 'Feature') throw invalidData(file, `feature ${i} is not a GeoJSON Feature`, { feature: i });
    if (f.geometry === null) {
      nulls++;
      continue;
    }
    const problem = validateGeometry(f.geometry, geographic);
    if (problem) {
      throw invalidData(file, `feature ${i}${f.id !== undefined ? ` (id ${JSON.stringify(f.id)})` : ''} has invalid geometry at ${problem.path}: ${problem.message}`, { feature: i, path: problem.path });
    }
    const props = f.properties;
    if (props !== null && props !== undefined && (typeof props !== 'object' || Array.isArray(props))) {
      throw invalidData(file, `feature ${i} has properties that are not an object`, { feature: i });
    }
    features.push({ type: 'Feature', ...(f.id !== undefined ? { id: f.id as string | number } : {}), properties: (props ?? {}) as Record<string, unknown>, geometry: f.geometry as Geometry });
  }
  const bbox = emptyBBox();
  const t = geographic ? null : getTransformer(sourceCrs, LONLAT);
  for (const f of features) {
    forEachPosition(f.geometry, (p) => {
      if (t) {
        const [x, y] = t.forward(p[0], p[1]);
        p[0] = x;
        p[1] = y;
      }
      extendBBox(bbox, p[0], p[1]);
    });
  }
  return { file, sourceCrs, features, bbox, nullGeometryCount: nulls };
}

/** Reads and validates a GeoJSON file into a lon/lat layer. */
export async function readGeoJsonLayer(file: string, options?: ReadGeoJsonOptions): Promise<GeoJsonLayer> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new EngineError('NOT_FOUND', `${file}: GeoJSON file not found`, { file });
    throw invalidData(file, `cannot read (${(err as Error).message})`, {}, err);
  }
  return parseGeoJsonLayer(text, file, options);
}

/** A FeatureCollection of the given features (for writing). */
export function featureCollection<G extends Geometry>(features: Feature<G>[]): FeatureCollection<G> {
  return { type: 'FeatureCollection', features };
}
