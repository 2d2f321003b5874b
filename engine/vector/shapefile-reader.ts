/**
 * ESRI Shapefiles as publishers ship them (a Vicmap Planning order: PLAN_ZONE.shp with .shx, .dbf, .prj and
 * often .cpg), read record by record: shapes with the `shapefile` package, attributes with the dBASE reader
 * here (Node's TextDecoder: the package's own decoder, a JavaScript polyfill, took 40% of the time; and
 * deleted records and dates are read as dBASE means them), then validated and reprojected like GeoJSON
 * (geojson-reader.ts `layerFromFeatures`).
 *
 * - CRS: the catalogue's `crs` when declared; otherwise the `.prj` (its AUTHORITY["EPSG", n] when present,
 *   else the ESRI names of the Australian CRSs: GDA94 and GDA2020 geographic and MGA zones, WGS 84 and its
 *   UTM zones, VicGrid). No `.prj` and no declared CRS is an error naming the file; so is a `.prj` that
 *   contradicts the declared CRS, or one this reader does not recognise.
 * - Text encoding of the `.dbf`: the `.cpg` when present (UTF-8, Windows code pages 1250-1258, ISO 8859
 *   parts), else the language driver byte of the `.dbf` header (0x57 and 0x03: Windows-1252); DOS code pages
 *   (437, 850) are refused with an error naming the file rather than decoded wrongly.
 */
import { existsSync, openSync, readFileSync, readSync, closeSync } from 'node:fs';
import { basename } from 'node:path';
import { TextDecoder } from 'node:util';
import { openShp } from 'shapefile';
import { EngineError } from '../errors.js';
import { normaliseCrs } from '../geo/crs.js';
import { layerFromFeatures, type GeoJsonLayer } from './geojson-reader.js';

const sibling = (shp: string, ext: string): string | null => {
  const stem = shp.replace(/\.shp$/i, '');
  for (const e of [ext, ext.toUpperCase()]) if (existsSync(`${stem}${e}`)) return `${stem}${e}`;
  return null;
};

const bad = (file: string, message: string, details: Record<string, unknown> = {}) => new EngineError('INVALID_DATA', `${file}: ${message}`, { file, ...details });

/** ESRI `.prj` names of the CRSs Australian publishers use, to EPSG codes. */
const ESRI_NAMES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/PROJCS\["GDA2020_MGA_Zone_(\d\d)"/i, (m) => `EPSG:78${m[1]}`],
  [/PROJCS\["GDA_1994_MGA_Zone_(\d\d)"/i, (m) => `EPSG:283${m[1]}`],
  [/PROJCS\["WGS_1984_UTM_Zone_(\d\d)S"/i, (m) => `EPSG:327${m[1]}`],
  [/PROJCS\["GDA_1994_VICGRID94"/i, () => 'EPSG:3111'],
  [/PROJCS\["GDA2020_VICGRID"/i, () => 'EPSG:7899'],
  [/PROJCS\["GDA_1994_Australia_Albers"/i, () => 'EPSG:3577'],
  [/^GEOGCS\["GCS_GDA2020"/i, () => 'EPSG:7844'],
  [/^GEOGCS\["GCS_GDA_1994"/i, () => 'EPSG:4283'],
  [/^GEOGCS\["(GCS_)?WGS_?1984"|^GEOGCS\["WGS 84"/i, () => 'EPSG:4326'],
];

/** The EPSG code a `.prj` (ESRI WKT) names, or null when it is not one this reader knows. */
export function crsOfPrj(wkt: string): string | null {
  const text = wkt.trim();
  // The outermost AUTHORITY is the CRS's own (nested ones name its datum, ellipsoid and units).
  const auth = /AUTHORITY\["EPSG",\s*"?(\d+)"?\]\s*\]\s*$/i.exec(text);
  if (auth) return normaliseCrs(`EPSG:${auth[1]}`);
  for (const [re, code] of ESRI_NAMES) {
    const m = re.exec(text);
    if (m) return code(m);
  }
  return null;
}

/** `.cpg` labels (and dBASE language driver ids) to the WHATWG encoding labels the decoder takes. */
function encodingOf(shp: string, dbf: string): string {
  const cpg = sibling(shp, '.cpg');
  if (cpg) {
    const label = readFileSync(cpg, 'utf8').trim().toUpperCase().replace(/^CP/, '').replace(/^WINDOWS-/, '');
    if (/^UTF-?8$/.test(label)) return 'utf-8';
    if (/^125[0-8]$/.test(label)) return `windows-${label}`;
    const iso = /^(?:ISO[-_ ]?)?8859[-_ ]?(\d{1,2})$/.exec(label);
    if (iso) return `iso-8859-${iso[1]}`;
    if (label === 'LATIN1') return 'iso-8859-1';
    throw bad(basename(dbf), `its .cpg names the code page ${JSON.stringify(label)}, which this reader does not decode (UTF-8, Windows 1250-1258 and ISO 8859 are read); re-export the layer as UTF-8 (ogr2ogr -lco ENCODING=UTF-8)`, { encoding: label });
  }
  // No .cpg: byte 29 of the .dbf header, the language driver id.
  const fd = openSync(dbf, 'r');
  const head = Buffer.alloc(32);
  readSync(fd, head, 0, 32, 0);
  closeSync(fd);
  const ldid = head[29];
  if (ldid === 0x57 || ldid === 0x03 || ldid === 0x00) return ldid === 0x00 ? 'utf-8' : 'windows-1252';
  if (ldid === 0x01 || ldid === 0x02 || ldid === 0x64 || ldid === 0x65) {
    throw bad(basename(dbf), `its header says a DOS code page (language driver 0x${ldid.toString(16)}), which this reader does not decode; re-export the layer as UTF-8 (ogr2ogr -lco ENCODING=UTF-8)`, { ldid });
  }
  return 'windows-1252';
}

/** Options of {@link readShapefileLayer}. */
export interface ReadShapefileOptions {
  /** The CRS the catalogue declares; needed when there is no `.prj`, and checked against it when there is. */
  crs?: string;
}

/** Reads a Shapefile (the `.shp`, with its `.dbf`, `.prj` and `.cpg` beside it) into a validated lon/lat layer. */
export async function readShapefileLayer(file: string, options: ReadShapefileOptions = {}): Promise<GeoJsonLayer> {
  const name = basename(file);
  if (!existsSync(file)) throw new EngineError('NOT_FOUND', `${file}: file not found`, { file });
  const dbf = sibling(file, '.dbf');
  if (!dbf) throw bad(name, 'no .dbf beside it: a Shapefile ships as .shp, .shx, .dbf and .prj together');
  const prj = sibling(file, '.prj');
  const declared = options.crs ? normaliseCrs(options.crs) : null;
  let sourceCrs: string;
  if (prj) {
    const text = readFileSync(prj, 'utf8');
    const own = crsOfPrj(text);
    if (own && declared && own !== declared) throw bad(name, `inconsistent CRS: its .prj says ${own} but the catalogue declares ${declared}`, { crs: own, declared });
    if (!own && !declared) throw bad(name, `its .prj names a CRS this reader does not recognise (${JSON.stringify(text.slice(0, 60))}...); declare it (the file's "crs", or --crs EPSG:N)`);
    sourceCrs = (own ?? declared)!;
  } else {
    if (!declared) throw bad(name, 'no .prj beside it and no CRS declared: say which CRS its coordinates are in (the file\'s "crs" in the catalogue, or --crs EPSG:N)');
    sourceCrs = declared;
  }
  // Geometry from the `shapefile` package; attributes from our dBASE reader below (Node's own TextDecoder,
  // deleted records honoured, dates as written), record by record in step.
  const shapes = await openShp(file);
  const table = new DbfReader(dbf, encodingOf(file, dbf));
  const raw: unknown[] = [];
  try {
    for (let i = 0; ; i++) {
      const r = await shapes.read();
      if (r.done) break;
      const rec = table.next();
      if (rec === undefined) throw bad(name, `has more shapes than its .dbf has records (${table.count}); the files do not belong together`);
      if (rec === null) continue; // a record marked deleted in the .dbf
      raw.push({ type: 'Feature', properties: rec, geometry: r.value });
    }
  } finally {
    table.close();
  }
  return layerFromFeatures(raw, file, sourceCrs);
}

/**
 * A dBASE III/IV table (.dbf) read record by record: character fields decoded with `encoding` and trimmed
 * (empty is null), numbers as numbers, logicals as booleans, dates as `YYYY-MM-DD` (as written, with no time
 * zone applied). A record marked deleted (`*`) reads as null.
 */
export class DbfReader {
  private readonly fd: number;
  private readonly fields: { name: string; type: string; offset: number; length: number }[] = [];
  private readonly recordLength: number;
  private readonly headerLength: number;
  private readonly decoder: TextDecoder;
  /** Records in the table (from its header). */
  readonly count: number;
  private index = 0;
  private block = Buffer.alloc(0);
  private blockStart = 0;

  constructor(readonly file: string, encoding: string) {
    this.decoder = new TextDecoder(encoding);
    this.fd = openSync(file, 'r');
    const head = Buffer.alloc(32);
    readSync(this.fd, head, 0, 32, 0);
    this.count = head.readUInt32LE(4);
    this.headerLength = head.readUInt16LE(8);
    this.recordLength = head.readUInt16LE(10);
    const desc = Buffer.alloc(this.headerLength - 32);
    readSync(this.fd, desc, 0, desc.length, 32);
    let offset = 1; // the deletion flag
    for (let p = 0; p + 32 <= desc.length && desc[p] !== 0x0d; p += 32) {
      const end = desc.indexOf(0, p);
      const name = desc.toString('latin1', p, Math.min(end < 0 || end > p + 11 ? p + 11 : end, p + 11)).trim();
      const length = desc[p + 16];
      this.fields.push({ name, type: String.fromCharCode(desc[p + 11]), offset, length });
      offset += length;
    }
  }

  /** The next record's attributes, null for a deleted record, undefined past the last. */
  next(): Record<string, unknown> | null | undefined {
    if (this.index >= this.count) return undefined;
    const at = (this.index - this.blockStart) * this.recordLength;
    if (this.index === 0 || at + this.recordLength > this.block.length) {
      const n = Math.min(4096, this.count - this.index);
      this.block = Buffer.alloc(n * this.recordLength);
      readSync(this.fd, this.block, 0, this.block.length, this.headerLength + this.index * this.recordLength);
      this.blockStart = this.index;
    }
    const base = (this.index - this.blockStart) * this.recordLength;
    this.index++;
    if (this.block[base] === 0x2a) return null;
    const out: Record<string, unknown> = {};
    for (const f of this.fields) {
      const bytes = this.block.subarray(base + f.offset, base + f.offset + f.length);
      const text = (f.type === 'C' ? this.decoder.decode(bytes) : bytes.toString('latin1')).trim();
      if (!text || /^\*+$/.test(text)) out[f.name] = null;
      else if (f.type === 'N' || f.type === 'F') out[f.name] = Number(text);
      else if (f.type === 'L') out[f.name] = /^[YyTt]$/.test(text) ? true : /^[NnFf]$/.test(text) ? false : null;
      else if (f.type === 'D') out[f.name] = /^\d{8}$/.test(text) ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}` : null;
      else out[f.name] = text;
    }
    return out;
  }

  close(): void {
    closeSync(this.fd);
  }
}
