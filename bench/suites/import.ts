/**
 * Importing what publishers ship (issue 23):
 *
 * - Shapefile and GeoPackage features per second, our readers (read, validate, reproject from MGA zone 55
 *   to lon/lat) against `ogr2ogr -f GeoJSON` on the same file (Debian gdal-bin, installed when missing and
 *   root; skipped with a note otherwise). The files are written by ogr2ogr from generated polygons.
 * - A G-NAF-shaped Standard folder of 1,000,000 addresses (generated once, cached in the temporary
 *   directory) read into the address index in a process of its own: read and join time, index build, peak
 *   memory (maxRSS), and address resolution p50 over 2,000 queries; then the same addresses written to the
 *   on-disk index (address-disk.ts) and resolved from it in a fresh process: its open time, p50 and memory.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../engine/entry/geo.js';
import { readGeoPackageLayer, readShapefileLayer } from '../../engine/entry/data.js';
import { getDefaultMaxTime } from '../lib/measure.js';
import { ensureTool, timeProcess } from '../lib/reference-tools.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

/** Bumped when the generated G-NAF folder's layout changes (the cache is keyed by it). */
const GNAF_VERSION = 2;

/** `n` square parcels in MGA zone 55 around Melbourne, with Vicmap-like attributes, as GeoJSON text. */
function polygonsGeoJson(n: number): string {
  const r = seededRandom(42);
  const codes = ['GRZ1', 'NRZ1', 'C1Z', 'MUZ', 'PPRZ', 'IN3Z'];
  const side = Math.ceil(Math.sqrt(n));
  const features = [];
  for (let i = 0; i < n; i++) {
    const x = 315000 + (i % side) * 30, y = 5805000 + Math.floor(i / side) * 30, d = 20 + r.next() * 8;
    features.push({ type: 'Feature', properties: { PFI: 4_000_000 + i, ZONE_CODE: codes[i % codes.length], ZONE_DESC: `Zone ${codes[i % codes.length]} schedule ${i % 7}`, LGA: i % 2 ? 'YARRA' : 'MERRI-BEK', AREA: Math.round(d * d) }, geometry: { type: 'Polygon', coordinates: [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]] } });
  }
  return JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::28355' } }, features });
}

/** Writes a G-NAF-shaped VIC Standard folder of `n` addresses (every 1,000th without a geocode). */
async function writeGnaf(dir: string, n: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const r = seededRandom(7);
  const localities = 2000, streets = 40_000;
  const loc = ['LOCALITY_PID|DATE_CREATED|DATE_RETIRED|LOCALITY_NAME|PRIMARY_POSTCODE|LOCALITY_CLASS_CODE|STATE_PID|GNAF_LOCALITY_PID|GNAF_RELIABILITY_CODE'];
  for (let i = 0; i < localities; i++) loc.push(`VIC${i}|2012-04-27||SUBURB ${i.toString(36).toUpperCase()} ${['NORTH', 'EAST', 'SOUTH', 'WEST', 'HILL'][i % 5]}|${3000 + (i % 999)}|G|2|${250000000 + i}|5`);
  writeFileSync(join(dir, 'VIC_LOCALITY_psv.psv'), `${loc.join('\n')}\n`);
  const types = ['STREET', 'ROAD', 'AVENUE', 'COURT', 'DRIVE', 'PLACE', 'CRESCENT', 'GROVE', 'PARADE', 'LANE'];
  const names = ['SMITH', 'VICTORIA', 'HIGH', 'CHURCH', 'STATION', 'MAIN', 'PARK', 'KING', 'QUEEN', 'GEORGE', 'ELIZABETH', 'WATTLE', 'ACACIA', 'BANKSIA', 'LAWSON', 'HOPE'];
  const st = createWriteStream(join(dir, 'VIC_STREET_LOCALITY_psv.psv'));
  st.write('STREET_LOCALITY_PID|DATE_CREATED|DATE_RETIRED|STREET_CLASS_CODE|STREET_NAME|STREET_TYPE_CODE|STREET_SUFFIX_CODE|LOCALITY_PID|GNAF_STREET_PID|GNAF_STREET_CONFIDENCE|GNAF_RELIABILITY_CODE\n');
  for (let i = 0; i < streets; i++) st.write(`VICS${i}|2017-11-01||C|${names[i % names.length]} ${Math.floor(i / names.length).toString(36).toUpperCase()}|${types[i % types.length]}||VIC${i % localities}|${253000000 + i}|2|4\n`);
  st.end();
  await once(st, 'finish');
  const detail = createWriteStream(join(dir, 'VIC_ADDRESS_DETAIL_psv.psv'));
  const geo = createWriteStream(join(dir, 'VIC_ADDRESS_DEFAULT_GEOCODE_psv.psv'));
  detail.write('ADDRESS_DETAIL_PID|DATE_CREATED|DATE_LAST_MODIFIED|DATE_RETIRED|BUILDING_NAME|LOT_NUMBER_PREFIX|LOT_NUMBER|LOT_NUMBER_SUFFIX|FLAT_TYPE_CODE|FLAT_NUMBER_PREFIX|FLAT_NUMBER|FLAT_NUMBER_SUFFIX|LEVEL_TYPE_CODE|LEVEL_NUMBER_PREFIX|LEVEL_NUMBER|LEVEL_NUMBER_SUFFIX|NUMBER_FIRST_PREFIX|NUMBER_FIRST|NUMBER_FIRST_SUFFIX|NUMBER_LAST_PREFIX|NUMBER_LAST|NUMBER_LAST_SUFFIX|STREET_LOCALITY_PID|LOCATION_DESCRIPTION|LOCALITY_PID|ALIAS_PRINCIPAL|POSTCODE|PRIVATE_STREET|LEGAL_PARCEL_ID|CONFIDENCE|ADDRESS_SITE_PID|LEVEL_GEOCODED_CODE|PROPERTY_PID|GNAF_PROPERTY_PID|PRIMARY_SECONDARY\n');
  geo.write('ADDRESS_DEFAULT_GEOCODE_PID|DATE_CREATED|DATE_RETIRED|ADDRESS_DETAIL_PID|GEOCODE_TYPE_CODE|LONGITUDE|LATITUDE\n');
  const perStreet = new Uint32Array(streets);
  let dBuf = '', gBuf = '';
  for (let i = 0; i < n; i++) {
    const s = Math.floor(r.next() * streets);
    const num = ++perStreet[s];
    const unit = r.next() < 0.2 ? String(1 + Math.floor(r.next() * 12)) : '';
    const pid = `GAVIC${420000000 + i}`;
    // The 35 columns of ADDRESS_DETAIL, in order (the header above).
    const f = new Array<string>(35).fill('');
    f[0] = pid; f[1] = '2004-04-29'; f[2] = '2021-05-20';
    if (unit) { f[8] = 'UNIT'; f[10] = unit; }
    f[17] = String(num); f[22] = `VICS${s}`; f[24] = `VIC${s % localities}`; f[25] = 'P'; f[26] = String(3000 + ((s % localities) % 999));
    f[29] = '2'; f[30] = String(430000000 + i); f[31] = '7'; f[33] = String(1100000 + i);
    dBuf += `${f.join('|')}\n`;
    if (i % 1000 !== 999) gBuf += `${2100000 + i}|2012-11-01||${pid}|FCS|${(144.5 + r.next()).toFixed(6)}|${(-38.2 + r.next() * 0.6).toFixed(6)}\n`;
    if (dBuf.length > 1 << 20) {
      if (!detail.write(dBuf)) await once(detail, 'drain');
      if (!geo.write(gBuf)) await once(geo, 'drain');
      dBuf = gBuf = '';
    }
  }
  detail.end(dBuf);
  geo.end(gBuf);
  await Promise.all([once(detail, 'finish'), once(geo, 'finish')]);
}

export const importSuite: BenchSuite = {
  name: 'import',
  description: 'Shapefile and GeoPackage readers vs ogr2ogr to GeoJSON; a 1M-address G-NAF folder into the address index (time, peak memory, resolution p50)',
  async run() {
    const quick = getDefaultMaxTime() < 1;
    const rows: BenchRow[] = [];
    const dir = join(tmpdir(), 'propintel-bench-import');
    mkdirSync(dir, { recursive: true });

    const n = quick ? 20_000 : 100_000;
    const ogr = ensureTool('ogr2ogr', ['--version'], 'gdal-bin');
    if (!ogr.available) rows.push({ benchmark: 'Shapefile and GeoPackage readers (skipped)', size: '-', msPerOp: NaN, note: ogr.note });
    else {
      const src = join(dir, `parcels-${n}.geojson`);
      writeFileSync(src, polygonsGeoJson(n));
      const shp = join(dir, `parcels-${n}.shp`), gpkg = join(dir, `parcels-${n}.gpkg`), out = join(dir, 'ogr-out.geojson');
      for (const f of [gpkg, shp]) rmSync(f, { force: true });
      const conv = (args: string[]) => {
        const r = spawnSync('ogr2ogr', args, { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`ogr2ogr ${args.join(' ')}: ${r.stderr}`);
      };
      conv(['-f', 'ESRI Shapefile', '-lco', 'ENCODING=UTF-8', shp, src]);
      conv(['-f', 'GPKG', gpkg, src]);
      const runs = quick ? 1 : 3;
      for (const [name, file, read] of [['Shapefile', shp, () => readShapefileLayer(shp)], ['GeoPackage', gpkg, () => readGeoPackageLayer(gpkg)]] as const) {
        const times: number[] = [];
        let count = 0;
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          count = (await read()).features.length;
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        const ours = times[Math.floor(times.length / 2)];
        const theirs = timeProcess('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', out, file], { runs, before: () => rmSync(out, { force: true }) });
        rows.push({
          benchmark: `${name} polygons read, validated and reprojected (MGA 55 -> lon/lat)`,
          size: `${count} features`,
          msPerOp: ours,
          itemsPerSec: count / (ours / 1000),
          reference: 'ogr2ogr -f GeoJSON -t_srs EPSG:4326 (process)',
          refMsPerOp: theirs.median,
          ratio: theirs.median / ours,
          note: `median of ${runs}; ogr2ogr ${Math.round(count / (theirs.median / 1000))} features/s including its process start and writing the file`,
        });
      }
    }

    const addresses = quick ? 200_000 : 1_000_000;
    const gnaf = join(dir, `gnaf-v${GNAF_VERSION}-${addresses}`, 'Standard');
    if (!existsSync(join(gnaf, 'VIC_ADDRESS_DEFAULT_GEOCODE_psv.psv'))) {
      process.stdout.write(`  writing a G-NAF-shaped folder of ${addresses} addresses (cached in ${gnaf}) ...\n`);
      rmSync(join(gnaf, '..'), { recursive: true, force: true });
      await writeGnaf(gnaf, addresses);
    }
    const script = fileURLToPath(new URL('../lib/gnaf-process.js', import.meta.url));
    const child = <T>(...args: string[]): T => {
      const r = spawnSync(process.execPath, ['--max-old-space-size=4096', script, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (r.status !== 0) throw new Error(`gnaf-process ${args[0]} failed: ${r.stderr}`);
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as T;
    };
    const g = child<{ rows: number; missingGeocode: number; readMs: number; buildMs: number; resolveP50Ms: number; resolveP95Ms: number; matched: number; queries: number; maxRssMb: number; heapMb: number }>('memory', gnaf, 'VIC', '2000');
    const file = join(dir, `addresses-${addresses}.sqlite`);
    const w = child<{ written: number; writeMs: number; fileMb: number; maxRssMb: number }>('write', gnaf, 'VIC', file);
    const o = child<{ openMs: number; size: number; resolveP50Ms: number; resolveP95Ms: number; matched: number; queries: number; maxRssMb: number; heapMb: number }>('open', file, quick ? '500' : '1000');
    rows.push(
      { benchmark: 'G-NAF Standard tables read and joined (streamed)', size: `${addresses} addresses`, msPerOp: g.readMs, itemsPerSec: addresses / (g.readMs / 1000), note: `${g.rows} placed, ${g.missingGeocode} without a geocode left out and counted` },
      { benchmark: 'address index built from them', size: `${g.rows} addresses`, msPerOp: g.buildMs, itemsPerSec: g.rows / (g.buildMs / 1000), note: `peak RSS of the whole process ${Math.round(g.maxRssMb)} MB (heap after build ${Math.round(g.heapMb)} MB)` },
      { benchmark: 'address resolution on that index', size: `${g.queries} queries`, msPerOp: g.resolveP50Ms, note: `p50 ${g.resolveP50Ms.toFixed(3)} ms, p95 ${g.resolveP95Ms.toFixed(3)} ms; ${g.matched} of ${g.queries} resolved to the address asked for` },
      { benchmark: 'the same addresses written to the on-disk index (SQLite)', size: `${w.written} addresses`, msPerOp: w.writeMs, itemsPerSec: w.written / (w.writeMs / 1000), note: `file ${Math.round(w.fileMb)} MB; peak RSS while writing ${Math.round(w.maxRssMb)} MB (the G-NAF rows are read into memory first)` },
      {
        benchmark: 'address resolution on the on-disk index, in a fresh process',
        size: `${o.queries} queries`,
        msPerOp: o.resolveP50Ms,
        reference: 'the in-memory index above',
        refMsPerOp: g.resolveP50Ms,
        ratio: g.resolveP50Ms / o.resolveP50Ms,
        note: `opened in ${o.openMs.toFixed(0)} ms; p50 ${o.resolveP50Ms.toFixed(3)} ms, p95 ${o.resolveP95Ms.toFixed(3)} ms; ${o.matched} of ${o.queries} resolved to the address asked for; peak RSS ${Math.round(o.maxRssMb)} MB (in memory: ${Math.round(g.maxRssMb)} MB)`,
      },
    );
    return rows;
  },
};
