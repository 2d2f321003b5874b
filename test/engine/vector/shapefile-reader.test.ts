// The Shapefile reader on small files this test writes byte by byte (the ESRI Shapefile Technical
// Description, 1998, and the dBASE III header): polygons in MGA zone 55 with a .prj reprojected to lon/lat
// as proj4 does, the .cpg and the .dbf language driver deciding the text encoding, and the errors a user
// meets: no .prj and no CRS, a DOS code page, a .prj contradicting the catalogue.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { crsOfPrj, DbfReader, readShapefileLayer } from '../../../engine/vector/shapefile-reader.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('shapefile-');
const MGA55_PRJ = 'PROJCS["GDA_1994_MGA_Zone_55",GEOGCS["GCS_GDA_1994",DATUM["D_GDA_1994",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",10000000.0],PARAMETER["Central_Meridian",147.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

/** Writes NAME.shp/.shx/.dbf: one polygon (a square ring) per record, with one text field NAME. */
function writePolygons(stem: string, squares: { x: number; y: number; d: number; name: Buffer }[], ldid = 0x57): void {
  const header = (lengthWords: number, box: number[]) => {
    const h = Buffer.alloc(100);
    h.writeInt32BE(9994, 0);
    h.writeInt32BE(lengthWords, 24);
    h.writeInt32LE(1000, 28);
    h.writeInt32LE(5, 32);
    box.forEach((v, i) => h.writeDoubleLE(v, 36 + 8 * i));
    return h;
  };
  const records: Buffer[] = [];
  const index: Buffer[] = [];
  let offsetWords = 50;
  const all = [Infinity, Infinity, -Infinity, -Infinity];
  squares.forEach((s, i) => {
    const ring = [[s.x, s.y], [s.x, s.y + s.d], [s.x + s.d, s.y + s.d], [s.x + s.d, s.y], [s.x, s.y]]; // clockwise: an outer ring
    const content = Buffer.alloc(44 + 4 + 16 * ring.length);
    content.writeInt32LE(5, 0);
    [s.x, s.y, s.x + s.d, s.y + s.d].forEach((v, k) => content.writeDoubleLE(v, 4 + 8 * k));
    content.writeInt32LE(1, 36);
    content.writeInt32LE(ring.length, 40);
    content.writeInt32LE(0, 44);
    ring.forEach(([x, y], k) => {
      content.writeDoubleLE(x, 48 + 16 * k);
      content.writeDoubleLE(y, 56 + 16 * k);
    });
    const rh = Buffer.alloc(8);
    rh.writeInt32BE(i + 1, 0);
    rh.writeInt32BE(content.length / 2, 4);
    records.push(rh, content);
    const ix = Buffer.alloc(8);
    ix.writeInt32BE(offsetWords, 0);
    ix.writeInt32BE(content.length / 2, 4);
    index.push(ix);
    offsetWords += (8 + content.length) / 2;
    all[0] = Math.min(all[0], s.x); all[1] = Math.min(all[1], s.y); all[2] = Math.max(all[2], s.x + s.d); all[3] = Math.max(all[3], s.y + s.d);
  });
  const box = [...all, 0, 0, 0, 0];
  writeFileSync(`${stem}.shp`, Buffer.concat([header(offsetWords, box), ...records]));
  writeFileSync(`${stem}.shx`, Buffer.concat([header(50 + 4 * squares.length, box), ...index]));
  // dBASE III: one character field NAME of 20 bytes.
  const width = 20;
  const h = Buffer.alloc(32 + 32 + 1);
  h[0] = 0x03;
  h.writeUInt32LE(squares.length, 4);
  h.writeUInt16LE(h.length, 8);
  h.writeUInt16LE(1 + width, 10);
  h[29] = ldid;
  h.write('NAME', 32, 'latin1');
  h[32 + 11] = 'C'.charCodeAt(0);
  h[32 + 16] = width;
  h[64] = 0x0d;
  const rows = squares.map((s) => {
    const r = Buffer.alloc(1 + width, 0x20);
    s.name.copy(r, 1);
    return r;
  });
  writeFileSync(`${stem}.dbf`, Buffer.concat([h, ...rows, Buffer.from([0x1a])]));
}

const mga55 = '+proj=utm +zone=55 +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

describe('the Shapefile reader', () => {
  it('names the CRS of the .prj files Australian publishers ship', () => {
    expect(crsOfPrj(MGA55_PRJ)).toBe('EPSG:28355');
    expect(crsOfPrj(MGA55_PRJ.replace('GDA_1994_MGA_Zone_55', 'GDA2020_MGA_Zone_56'))).toBe('EPSG:7856');
    expect(crsOfPrj('GEOGCS["GCS_GDA_1994",DATUM["D_GDA_1994",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]')).toBe('EPSG:4283');
    expect(crsOfPrj('GEOGCS["GDA2020",DATUM["GDA2020",SPHEROID["GRS 1980",6378137,298.257222101]],AUTHORITY["EPSG","7844"]]')).toBe('EPSG:7844');
    expect(crsOfPrj('PROJCS["Some_Local_Grid",GEOGCS["X"]]')).toBeNull();
  });

  it('reads dBASE fields as dBASE means them: numbers, logicals, dates as written, a deleted record skipped', () => {
    // Fields: NAME C(10), AREA N(8,2), OK L(1), GAZ D(8).
    const fields: [string, string, number][] = [['NAME', 'C', 10], ['AREA', 'N', 8], ['OK', 'L', 1], ['GAZ', 'D', 8]];
    const recLen = 1 + fields.reduce((a, f) => a + f[2], 0);
    const h = Buffer.alloc(32 + 32 * fields.length + 1);
    h[0] = 0x03;
    h.writeUInt32LE(3, 4);
    h.writeUInt16LE(h.length, 8);
    h.writeUInt16LE(recLen, 10);
    h[29] = 0x57;
    fields.forEach(([n, t, l], i) => {
      h.write(n, 32 + 32 * i, 'latin1');
      h[32 + 32 * i + 11] = t.charCodeAt(0);
      h[32 + 32 * i + 16] = l;
    });
    h[32 + 32 * fields.length] = 0x0d;
    const rec = (flag: string, values: string[]) => Buffer.from(flag + values.map((v, i) => v.padEnd(fields[i][2]).slice(0, fields[i][2])).join(''), 'latin1');
    const file = join(dir, 'fields.dbf');
    writeFileSync(file, Buffer.concat([h, rec(' ', ['Café', '   12.50', 'T', '20190314']), rec('*', ['gone', '1', 'F', '20200101']), rec(' ', ['', '', '?', '']), Buffer.from([0x1a])]));
    const r = new DbfReader(file, 'windows-1252');
    expect(r.count).toBe(3);
    expect(r.next()).toEqual({ NAME: 'Café', AREA: 12.5, OK: true, GAZ: '2019-03-14' });
    expect(r.next()).toBeNull();
    expect(r.next()).toEqual({ NAME: null, AREA: null, OK: null, GAZ: null });
    expect(r.next()).toBeUndefined();
    r.close();
  });

  it('reads polygons in MGA zone 55 with their .prj into lon/lat as proj4 projects them, UTF-8 text from the .cpg', async () => {
    const stem = join(dir, 'zones');
    const squares = [
      { x: 322000, y: 5813000, d: 200, name: Buffer.from('Café Zürich', 'utf8') },
      { x: 323000, y: 5814000, d: 100, name: Buffer.from('GRZ1', 'utf8') },
    ];
    writePolygons(stem, squares, 0x00);
    writeFileSync(`${stem}.prj`, MGA55_PRJ);
    writeFileSync(`${stem}.cpg`, 'UTF-8');
    const layer = await readShapefileLayer(`${stem}.shp`);
    expect(layer.sourceCrs).toBe('EPSG:28355');
    expect(layer.features.map((f) => f.properties?.NAME)).toEqual(['Café Zürich', 'GRZ1']);
    const ring = (layer.features[0].geometry as { coordinates: number[][][] }).coordinates[0];
    const want = proj4(mga55, 'WGS84', [322000, 5813000]);
    expect(ring[0][0]).toBeCloseTo(want[0], 7);
    expect(ring[0][1]).toBeCloseTo(want[1], 7);
    expect(ring[0][0]).toBeGreaterThan(144.9);
    expect(ring[0][0]).toBeLessThan(145.1);
  });

  it('decodes a Windows-1252 .dbf from its language driver byte, and refuses a DOS code page naming the file', async () => {
    const ansi = join(dir, 'ansi');
    writePolygons(ansi, [{ x: 144.98, y: -37.81, d: 0.01, name: Buffer.from('Café', 'latin1') }], 0x57);
    const l = await readShapefileLayer(`${ansi}.shp`, { crs: 'EPSG:4283' });
    expect(l.features[0].properties?.NAME).toBe('Café');
    const dos = join(dir, 'dos');
    writePolygons(dos, [{ x: 144.98, y: -37.81, d: 0.01, name: Buffer.from('Caf\u0082', 'latin1') }], 0x01);
    await expect(readShapefileLayer(`${dos}.shp`, { crs: 'EPSG:4283' })).rejects.toThrow(/dos\.dbf: its header says a DOS code page .*re-export the layer as UTF-8/);
  });

  it('refuses a Shapefile without a .prj and no CRS, or with a .prj the catalogue contradicts, naming it', async () => {
    const stem = join(dir, 'noprj');
    writePolygons(stem, [{ x: 144.98, y: -37.81, d: 0.01, name: Buffer.from('A') }]);
    await expect(readShapefileLayer(`${stem}.shp`)).rejects.toThrow(/noprj\.shp: no \.prj beside it and no CRS declared/);
    expect((await readShapefileLayer(`${stem}.shp`, { crs: 'EPSG:7844' })).features).toHaveLength(1);
    const z = join(dir, 'zones');
    await expect(readShapefileLayer(`${z}.shp`, { crs: 'EPSG:7855' })).rejects.toThrow(/zones\.shp: inconsistent CRS: its \.prj says EPSG:28355 but the catalogue declares EPSG:7855/);
  });

  it('goes into a catalogue with `propintel catalogue add`, its side files along, and the engine loads it', async () => {
    const ds = join(dir, 'dataset');
    mkdirSync(ds, { recursive: true });
    await runCli(['catalogue', 'init', ds]);
    const noPrj = await runCli(['catalogue', 'add', ds, '--file', join(dir, 'noprj.shp'), '--id', 'x', '--paths', 'planning.zone', '--state', 'VIC', '--coverage', 'partial', '--licence', 'CC BY 4.0', '--attribution', 'a']);
    expect(noPrj.code).toBe(1);
    expect(noPrj.stderr).toMatch(/noprj\.shp has no \.prj: say which CRS/);
    const r = await runCli(['catalogue', 'add', ds, '--file', join(dir, 'zones.shp'), '--id', 'shp_zones', '--paths', 'planning.zone', '--state', 'VIC', '--coverage', 'partial', '--licence', 'CC BY 4.0', '--attribution', 'a']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/format: shapefile\n {2}CRS: EPSG:28355 \(the \.prj\)/);
    expect((await runCli(['catalogue', 'check', ds])).code).toBe(0);
  });
});
