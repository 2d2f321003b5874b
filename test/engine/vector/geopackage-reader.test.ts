// The GeoPackage reader on files this test writes with better-sqlite3: the gpkg_* tables, and geometry blobs
// built as clause 2.1.3 lays them out (the "GP" header with and without an envelope, big- and little-endian
// headers, the empty flag) around WKB from wkx. Polygons in MGA zone 55 come back in lon/lat as proj4
// projects them; several tables need a name; the errors name the file, table and row.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import wkx from 'wkx';
import { decodeGeoPackageGeometry, geoPackageTables, readGeoPackageLayer } from '../../../engine/vector/geopackage-reader.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('gpkg-');
type Geo = { type: string; coordinates: unknown };

/** A GeoPackage geometry blob: header (envelope of minx, maxx, miny, maxy when asked), then WKB. */
function blob(g: Geo | null, srsId: number, opts: { envelope?: boolean; bigEndian?: boolean } = {}): Buffer {
  const env = opts.envelope ?? true;
  const h = Buffer.alloc(8 + (env ? 32 : 0));
  h.write('GP', 0, 'latin1');
  h[2] = 0;
  h[3] = (opts.bigEndian ? 0 : 1) | ((env ? 1 : 0) << 1) | (g ? 0 : 0x10);
  if (opts.bigEndian) h.writeInt32BE(srsId, 4);
  else h.writeInt32LE(srsId, 4);
  const wkb = g ? wkx.Geometry.parseGeoJSON(g).toWkb() : wkx.Geometry.parseGeoJSON({ type: 'Point', coordinates: [] }).toWkb();
  if (env && g) {
    const pts = JSON.stringify(g.coordinates).match(/-?\d+(\.\d+)?(e-?\d+)?/g)!.map(Number);
    const xs = pts.filter((_, i) => i % 2 === 0), ys = pts.filter((_, i) => i % 2 === 1);
    [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)].forEach((v, i) => (opts.bigEndian ? h.writeDoubleBE(v, 8 + 8 * i) : h.writeDoubleLE(v, 8 + 8 * i)));
  }
  return Buffer.concat([h, wkb]);
}

/** Writes a GeoPackage with `tables`, each a list of { props, geom blob }. */
function writeGpkg(file: string, tables: { name: string; srsId: number; org?: string; rows: { props: Record<string, string | number>; geom: Buffer | null }[] }[]): void {
  const db = new Database(file);
  db.exec(`CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT, srs_id INTEGER PRIMARY KEY, organization TEXT, organization_coordsys_id INTEGER, definition TEXT, description TEXT);
    CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY, data_type TEXT, identifier TEXT, description TEXT, last_change TEXT, min_x REAL, min_y REAL, max_x REAL, max_y REAL, srs_id INTEGER);
    CREATE TABLE gpkg_geometry_columns (table_name TEXT, column_name TEXT, geometry_type_name TEXT, srs_id INTEGER, z INTEGER, m INTEGER);
    INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian', -1, 'NONE', -1, 'undefined', NULL), ('GDA94 / MGA zone 55', 28355, 'EPSG', 28355, '', NULL), ('GDA2020', 7844, 'epsg', 7844, '', NULL), ('Local grid', 99001, 'LOCAL', 1, '', NULL);`);
  for (const t of tables) {
    const cols = Object.keys(t.rows[0]?.props ?? {});
    db.exec(`CREATE TABLE "${t.name}" (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom BLOB${cols.map((c) => `, "${c}"`).join('')})`);
    db.prepare("INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, ?)").run(t.name, t.name, t.srsId);
    db.prepare("INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', 'GEOMETRY', ?, 0, 0)").run(t.name, t.srsId);
    const ins = db.prepare(`INSERT INTO "${t.name}" (geom${cols.map((c) => `, "${c}"`).join('')}) VALUES (?${cols.map(() => ', ?').join('')})`);
    for (const r of t.rows) ins.run(r.geom, ...cols.map((c) => r.props[c]));
  }
  db.close();
}

const mga55 = '+proj=utm +zone=55 +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
const sq = (x: number, y: number, d: number): Geo => ({ type: 'Polygon', coordinates: [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]] });

describe('the GeoPackage reader', () => {
  it('decodes the binary header: envelopes or none, either byte order, the empty flag', () => {
    const p = { type: 'Point', coordinates: [144.9, -37.8] };
    expect(decodeGeoPackageGeometry(blob(p, 7844, { envelope: false }))).toEqual(p);
    expect(decodeGeoPackageGeometry(blob(p, 7844, { envelope: true, bigEndian: true }))).toEqual(p);
    expect(decodeGeoPackageGeometry(blob(sq(1, 2, 3), 7844))).toEqual(sq(1, 2, 3));
    expect(decodeGeoPackageGeometry(blob(null, 7844))).toBeNull();
    expect(() => decodeGeoPackageGeometry(Buffer.from('XX123456'))).toThrow(/no "GP" magic/);
  });

  it('reads a table in MGA zone 55 into lon/lat as proj4 projects it, with its attributes and ids', async () => {
    const file = join(dir, 'zones.gpkg');
    writeGpkg(file, [{ name: 'plan_zone', srsId: 28355, rows: [
      { props: { ZONE_CODE: 'GRZ1', ZONE_DESC: 'Général' }, geom: blob(sq(322000, 5813000, 200), 28355) },
      { props: { ZONE_CODE: 'C1Z', ZONE_DESC: 'Commercial' }, geom: null },
      { props: { ZONE_CODE: 'NRZ1', ZONE_DESC: 'Neighbourhood' }, geom: blob(sq(323000, 5814000, 100), 28355, { envelope: false }) },
    ] }]);
    expect(geoPackageTables(file)).toEqual([{ table: 'plan_zone', geometryColumn: 'geom', geometryType: 'GEOMETRY', crs: 'EPSG:28355', srsName: 'GDA94 / MGA zone 55' }]);
    const layer = await readGeoPackageLayer(file);
    expect(layer.sourceCrs).toBe('EPSG:28355');
    expect(layer.nullGeometryCount).toBe(1);
    expect(layer.features.map((f) => [f.id, f.properties?.ZONE_CODE, f.properties?.ZONE_DESC])).toEqual([[1, 'GRZ1', 'Général'], [3, 'NRZ1', 'Neighbourhood']]);
    const first = (layer.features[0].geometry as { coordinates: number[][][] }).coordinates[0][0];
    const want = proj4(mga55, 'WGS84', [322000, 5813000]);
    expect(first[0]).toBeCloseTo(want[0], 7);
    expect(first[1]).toBeCloseTo(want[1], 7);
  });

  it('needs the table named when there are several, and a CRS when the table has no EPSG one; names the bad row', async () => {
    const file = join(dir, 'two.gpkg');
    writeGpkg(file, [
      { name: 'a', srsId: 7844, rows: [{ props: { n: 1 }, geom: blob(sq(144.9, -37.8, 0.01), 7844) }] },
      { name: 'b', srsId: 99001, rows: [{ props: { n: 2 }, geom: blob(sq(144.9, -37.8, 0.01), 99001) }, { props: { n: 3 }, geom: Buffer.from('GP\u0000\u0001garbage!') }] },
    ]);
    await expect(readGeoPackageLayer(file)).rejects.toThrow(/two\.gpkg: holds 2 feature tables \(a, b\): name one with the file entry's "table"/);
    expect((await readGeoPackageLayer(file, { table: 'a' })).features).toHaveLength(1);
    await expect(readGeoPackageLayer(file, { table: 'c' })).rejects.toThrow(/has no feature table "c"; it holds a, b/);
    await expect(readGeoPackageLayer(file, { table: 'b' })).rejects.toThrow(/table b's spatial reference \(Local grid\) is not an EPSG one: declare the CRS/);
    await expect(readGeoPackageLayer(file, { table: 'b', crs: 'EPSG:7844' })).rejects.toThrow(/two\.gpkg: table b, row 2 \(fid 2\)/);
    await expect(readGeoPackageLayer(file, { table: 'a', crs: 'EPSG:4283' })).rejects.toThrow(/inconsistent CRS: table a is in EPSG:7844 but the catalogue declares EPSG:4283/);
  });

  it('goes into a catalogue with `propintel catalogue add --table`, and check passes', async () => {
    const ds = join(dir, 'dataset');
    await runCli(['catalogue', 'init', ds]);
    const base = ['--paths', 'planning.zone', '--state', 'VIC', '--coverage', 'partial', '--licence', 'CC BY 4.0', '--attribution', 'a'];
    const many = await runCli(['catalogue', 'add', ds, '--file', join(dir, 'two.gpkg'), '--id', 'two', ...base]);
    expect(many.stderr).toMatch(/holds 2 feature tables \(a, b\): name one with --table/);
    const r = await runCli(['catalogue', 'add', ds, '--file', join(dir, 'two.gpkg'), '--table', 'a', '--id', 'two_a', ...base]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/format: geopackage\n {2}CRS: EPSG:7844 \(table a's spatial reference\)/);
    expect((await runCli(['catalogue', 'check', ds])).code).toBe(0);
  });
});
