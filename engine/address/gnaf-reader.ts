/**
 * G-NAF as Geoscape ships it: the pipe-separated `Standard` tables of one state (`VIC_ADDRESS_DETAIL_psv.psv`,
 * `VIC_STREET_LOCALITY_psv.psv`, `VIC_LOCALITY_psv.psv`, `VIC_ADDRESS_DEFAULT_GEOCODE_psv.psv`), joined into
 * address rows in the columns the address index reads (address-record.ts): id, unit, number, street name and
 * full type, suburb, state, postcode and the default geocode.
 *
 * - Every table is read line by line (a statewide ADDRESS_DETAIL is about 4 million rows: its text is never
 *   held whole), columns found by the header's names, not positions.
 * - Principal addresses only (ALIAS_PRINCIPAL `P`; aliases are other names of the same place) and none retired
 *   (DATE_RETIRED set); both are counted in the report.
 * - Units: FLAT_NUMBER with its prefix and suffix (`3A`); a level with no flat number reads `L2`. Numbers:
 *   NUMBER_FIRST with prefix and suffix, and NUMBER_LAST for a range (`10-12`). Names are title-cased
 *   (`LAWSON AVENUE` -> `Lawson Avenue`).
 * - An address with no default geocode cannot be placed: it is left out, counted and named in the report
 *   (never dropped silently). A line with the wrong number of fields or a missing key stops the load, naming
 *   the file and line of every such line (up to 20).
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { StateCode } from '../catalogue/states.js';
import { EngineError } from '../errors.js';

/** What a G-NAF load did. */
export interface GnafReport {
  /** Address rows produced (principal, current, placed). */
  addresses: number;
  aliasesSkipped: number;
  retiredSkipped: number;
  /** Principal current addresses with no default geocode: left out. */
  missingGeocode: number;
  /** The first few of them: address_detail_pid and line. */
  missingGeocodeExamples: { pid: string; line: number }[];
}

/** The address rows and the report. */
export interface GnafAddresses {
  rows: Record<string, string | number | null>[];
  report: GnafReport;
}

/** The four tables' files for `state` in a G-NAF `Standard` folder (names matched without case). */
export function gnafFiles(dir: string, state: StateCode): Record<'detail' | 'street' | 'locality' | 'geocode', string> {
  if (!existsSync(dir)) throw new EngineError('NOT_FOUND', `${dir}: G-NAF folder not found`, { file: dir });
  const names = readdirSync(dir);
  const find = (table: string) => {
    const want = `${state}_${table}_psv.psv`.toLowerCase();
    const hit = names.find((n) => n.toLowerCase() === want);
    if (!hit) throw new EngineError('INVALID_DATA', `${dir}: no ${state}_${table}_psv.psv (the G-NAF Standard folder holds one file per state and table)`, { file: dir, table });
    return join(dir, hit);
  };
  return { detail: find('ADDRESS_DETAIL'), street: find('STREET_LOCALITY'), locality: find('LOCALITY'), geocode: find('ADDRESS_DEFAULT_GEOCODE') };
}

/** Streams a PSV table: `row(fields, line)` for each data line; the header gives the column positions. */
async function readPsv(file: string, columns: readonly string[], row: (get: (c: string) => string, line: number) => void, problems: string[]): Promise<void> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let index: Map<string, number> | null = null;
  let width = 0;
  let line = 0;
  let fields: string[] = [];
  const get = (c: string) => fields[index!.get(c)!] ?? '';
  for await (const text of rl) {
    line++;
    if (index === null) {
      const head = text.replace(/^\uFEFF/, '').split('|').map((h) => h.trim().toUpperCase());
      const missing = columns.filter((c) => !head.includes(c));
      if (missing.length) throw new EngineError('INVALID_DATA', `${file}: not a G-NAF table with ${missing.join(', ')} (line 1 is ${JSON.stringify(text.slice(0, 80))})`, { file, missing });
      index = new Map(head.map((h, i) => [h, i]));
      width = head.length;
      continue;
    }
    if (!text) continue;
    fields = text.split('|');
    if (fields.length !== width) {
      if (problems.length < 20) problems.push(`${file}: line ${line}: ${fields.length} fields where the header has ${width}`);
      else problems.length++;
      continue;
    }
    row(get, line);
  }
  if (index === null) throw new EngineError('INVALID_DATA', `${file}: empty (no header line)`, { file });
}

/** `LAWSON AVENUE` -> `Lawson Avenue`, `O'CONNOR` -> `O'Connor`, `ST KILDA-EAST` -> `St Kilda-East`. */
export function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s\-'(])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase());
}

const joinParts = (...parts: string[]) => parts.map((p) => p.trim()).join('');

/** Reads one state's addresses from a G-NAF `Standard` folder (see the module comment). */
export async function readGnafAddresses(dir: string, state: StateCode): Promise<GnafAddresses> {
  const files = gnafFiles(dir, state);
  const problems: string[] = [];
  const localities = new Map<string, { name: string; postcode: string }>();
  await readPsv(files.locality, ['LOCALITY_PID', 'LOCALITY_NAME', 'DATE_RETIRED'], (get) => {
    localities.set(get('LOCALITY_PID'), { name: titleCase(get('LOCALITY_NAME')), postcode: get('PRIMARY_POSTCODE') });
  }, problems);
  const streets = new Map<string, { name: string; type: string }>();
  await readPsv(files.street, ['STREET_LOCALITY_PID', 'STREET_NAME', 'STREET_TYPE_CODE', 'STREET_SUFFIX_CODE'], (get) => {
    const suffix = get('STREET_SUFFIX_CODE');
    streets.set(get('STREET_LOCALITY_PID'), { name: titleCase(get('STREET_NAME')), type: titleCase([get('STREET_TYPE_CODE'), suffix].filter(Boolean).join(' ')) });
  }, problems);
  const report: GnafReport = { addresses: 0, aliasesSkipped: 0, retiredSkipped: 0, missingGeocode: 0, missingGeocodeExamples: [] };
  const rows: Record<string, string | number | null>[] = [];
  const rowOf = new Map<string, number>();
  const lineOf: number[] = [];
  const DETAIL = ['ADDRESS_DETAIL_PID', 'DATE_RETIRED', 'FLAT_NUMBER', 'LEVEL_NUMBER', 'NUMBER_FIRST', 'NUMBER_LAST', 'STREET_LOCALITY_PID', 'LOCALITY_PID', 'ALIAS_PRINCIPAL', 'POSTCODE'];
  await readPsv(files.detail, DETAIL, (get, line) => {
    if (get('DATE_RETIRED')) return void report.retiredSkipped++;
    if (get('ALIAS_PRINCIPAL') === 'A') return void report.aliasesSkipped++;
    const pid = get('ADDRESS_DETAIL_PID');
    const street = streets.get(get('STREET_LOCALITY_PID'));
    const locality = localities.get(get('LOCALITY_PID'));
    if (!pid || !street || !locality || !get('NUMBER_FIRST')) {
      const why = !pid ? 'no ADDRESS_DETAIL_PID' : !street ? `street ${JSON.stringify(get('STREET_LOCALITY_PID'))} is not in STREET_LOCALITY` : !locality ? `locality ${JSON.stringify(get('LOCALITY_PID'))} is not in LOCALITY` : 'no NUMBER_FIRST';
      if (problems.length < 20) problems.push(`${files.detail}: line ${line}: ${why}`);
      else problems.length++;
      return;
    }
    const flat = joinParts(get('FLAT_NUMBER_PREFIX'), get('FLAT_NUMBER'), get('FLAT_NUMBER_SUFFIX'));
    const level = joinParts(get('LEVEL_NUMBER_PREFIX'), get('LEVEL_NUMBER'), get('LEVEL_NUMBER_SUFFIX'));
    const first = joinParts(get('NUMBER_FIRST_PREFIX'), get('NUMBER_FIRST'), get('NUMBER_FIRST_SUFFIX'));
    const last = joinParts(get('NUMBER_LAST_PREFIX'), get('NUMBER_LAST'), get('NUMBER_LAST_SUFFIX'));
    rowOf.set(pid, rows.length);
    lineOf.push(line);
    rows.push({
      address_id: pid,
      unit: flat || (level ? `L${level}` : null),
      number: last ? `${first}-${last}` : first,
      street_name: street.name,
      street_type: street.type,
      suburb: locality.name,
      state,
      postcode: get('POSTCODE') || locality.postcode,
      lon: null,
      lat: null,
    });
  }, problems);
  if (problems.length) {
    throw new EngineError('INVALID_DATA', `G-NAF ${state} in ${dir}: ${problems.length} bad line(s):\n  ${problems.filter(Boolean).join('\n  ')}`, { file: dir, problems: problems.filter(Boolean) });
  }
  await readPsv(files.geocode, ['ADDRESS_DETAIL_PID', 'LONGITUDE', 'LATITUDE', 'DATE_RETIRED'], (get) => {
    if (get('DATE_RETIRED')) return;
    const i = rowOf.get(get('ADDRESS_DETAIL_PID'));
    if (i === undefined) return;
    const lon = Number(get('LONGITUDE')), lat = Number(get('LATITUDE'));
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return;
    rows[i].lon = lon;
    rows[i].lat = lat;
  }, problems);
  if (problems.length) {
    throw new EngineError('INVALID_DATA', `G-NAF ${state} in ${dir}: ${problems.length} bad line(s):\n  ${problems.filter(Boolean).join('\n  ')}`, { file: dir, problems: problems.filter(Boolean) });
  }
  const placed: Record<string, string | number | null>[] = [];
  rows.forEach((r, i) => {
    if (r.lon !== null) placed.push(r);
    else {
      report.missingGeocode++;
      if (report.missingGeocodeExamples.length < 10) report.missingGeocodeExamples.push({ pid: String(r.address_id), line: lineOf[i] });
    }
  });
  report.addresses = placed.length;
  return { rows: placed, report };
}
