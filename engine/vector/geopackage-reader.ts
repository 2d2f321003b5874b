/**
 * GeoPackage vector tables (OGC 12-128r18), read with better-sqlite3: the feature tables listed in
 * `gpkg_contents`, each table's geometry column and spatial reference from `gpkg_geometry_columns` and
 * `gpkg_spatial_ref_sys`, and each row's geometry blob: the GeoPackage binary header (clause 2.1.3: magic
 * "GP", version, flags, srs_id, an optional envelope) followed by standard WKB, decoded by `wkx`. Rows are
 * read one at a time; features are validated and reprojected as GeoJSON's are (`layerFromFeatures`).
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import wkx from 'wkx';
import { EngineError } from '../errors.js';
import { normaliseCrs } from '../geo/crs.js';
import { layerFromFeatures, type GeoJsonLayer } from './geojson-reader.js';

/** Bytes of the envelope after the 8-byte header, by the flags' envelope indicator (0-4). */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

/** The GeoJSON geometry of a GeoPackage geometry blob; null for an empty geometry. Throws on a malformed blob. */
export function decodeGeoPackageGeometry(blob: Buffer): { type: string; coordinates?: unknown; geometries?: unknown } | null {
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50) throw new Error('not a GeoPackage geometry (no "GP" magic)');
  const flags = blob[3];
  if (flags & 0x20) throw new Error('an extended GeoPackage geometry, which this reader does not decode');
  const indicator = (flags >> 1) & 0x07;
  if (indicator > 4) throw new Error(`invalid envelope indicator ${indicator}`);
  if (flags & 0x10) return null; // the empty-geometry flag
  const wkb = blob.subarray(8 + ENVELOPE_BYTES[indicator]);
  return wkx.Geometry.parse(wkb).toGeoJSON() as { type: string; coordinates?: unknown };
}

/** One feature table of a GeoPackage. */
export interface GeoPackageTable {
  table: string;
  geometryColumn: string;
  geometryType: string;
  /** `EPSG:<code>`, or null when the table's spatial reference is not an EPSG one. */
  crs: string | null;
  srsName: string | null;
}

const bad = (file: string, message: string, details: Record<string, unknown> = {}) => new EngineError('INVALID_DATA', `${basename(file)}: ${message}`, { file, ...details });

function openGpkg(file: string): Database.Database {
  if (!existsSync(file)) throw new EngineError('NOT_FOUND', `${file}: file not found`, { file });
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT 1 FROM gpkg_contents LIMIT 1').all();
  } catch (err) {
    throw bad(file, `not a GeoPackage (${(err as Error).message})`);
  }
  return db;
}

/** The feature tables of a GeoPackage file. */
export function geoPackageTables(file: string): GeoPackageTable[] {
  const db = openGpkg(file);
  try {
    return listTables(db);
  } finally {
    db.close();
  }
}

function listTables(db: Database.Database): GeoPackageTable[] {
  const rows = db
    .prepare(
      `SELECT c.table_name AS t, g.column_name AS col, g.geometry_type_name AS gt, s.organization AS org, s.organization_coordsys_id AS code, s.srs_name AS name
       FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id
       WHERE c.data_type = 'features' ORDER BY c.table_name`,
    )
    .all() as { t: string; col: string; gt: string; org: string | null; code: number | null; name: string | null }[];
  return rows.map((r) => ({
    table: r.t,
    geometryColumn: r.col,
    geometryType: r.gt,
    crs: r.org && r.org.toUpperCase() === 'EPSG' && r.code && r.code > 0 ? normaliseCrs(`EPSG:${r.code}`) : null,
    srsName: r.name,
  }));
}

/** Options of {@link readGeoPackageLayer}. */
export interface ReadGeoPackageOptions {
  /** The feature table; needed when the file holds more than one. */
  table?: string;
  /** The CRS the catalogue declares: checked against the table's, and used when the table names none. */
  crs?: string;
}

/** Reads one feature table into a validated lon/lat layer. */
export async function readGeoPackageLayer(file: string, options: ReadGeoPackageOptions = {}): Promise<GeoJsonLayer> {
  const db = openGpkg(file);
  try {
    const tables = listTables(db);
    if (!tables.length) throw bad(file, 'holds no feature tables (gpkg_contents lists none with data_type "features")');
    const t = options.table ? tables.find((x) => x.table === options.table) : tables.length === 1 ? tables[0] : undefined;
    if (!t) {
      throw bad(file, options.table ? `has no feature table ${JSON.stringify(options.table)}; it holds ${tables.map((x) => x.table).join(', ')}` : `holds ${tables.length} feature tables (${tables.map((x) => x.table).join(', ')}): name one with the file entry's "table"`, { tables: tables.map((x) => x.table) });
    }
    const declared = options.crs ? normaliseCrs(options.crs) : null;
    if (t.crs && declared && t.crs !== declared) throw bad(file, `inconsistent CRS: table ${t.table} is in ${t.crs} but the catalogue declares ${declared}`, { crs: t.crs, declared });
    const crs = t.crs ?? declared;
    if (!crs) throw bad(file, `table ${t.table}'s spatial reference (${t.srsName ?? 'undefined'}) is not an EPSG one: declare the CRS (the file's "crs", or --crs EPSG:N)`);
    const columns = (db.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(t.table) as { name: string; pk: number }[]);
    const pk = columns.find((c) => c.pk > 0)?.name;
    const q = (n: string) => `"${n.replace(/"/g, '""')}"`;
    const raw: unknown[] = [];
    const stmt = db.prepare(`SELECT * FROM ${q(t.table)}`);
    let row = 0;
    for (const r of stmt.iterate() as Iterable<Record<string, unknown>>) {
      row++;
      const blob = r[t.geometryColumn] as Buffer | null;
      let geometry: unknown = null;
      if (blob) {
        try {
          geometry = decodeGeoPackageGeometry(blob);
        } catch (err) {
          throw bad(file, `table ${t.table}, row ${row}${pk ? ` (${pk} ${String(r[pk])})` : ''}: ${(err as Error).message}`, { table: t.table, row });
        }
      }
      const properties: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) if (k !== t.geometryColumn && k !== pk && !Buffer.isBuffer(v)) properties[k] = v;
      raw.push({ type: 'Feature', ...(pk ? { id: r[pk] as number } : {}), properties, geometry });
    }
    return layerFromFeatures(raw, file, crs);
  } finally {
    db.close();
  }
}
