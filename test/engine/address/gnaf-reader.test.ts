// The G-NAF reader on a small Standard folder this test writes, with the real tables' headers (Geoscape's
// column order): units, a level with no flat, a number range, prefixes and suffixes, an alias and a retired
// address (left out and counted), an address without a geocode (left out, counted and named), the address
// index resolving the joined rows, and bad lines named by file and line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AddressIndex } from '../../../engine/address/address-index.js';
import { addressRecordsFromRows } from '../../../engine/address/address-record.js';
import { readGnafAddresses, titleCase } from '../../../engine/address/gnaf-reader.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/tmp.js';

const DETAIL = 'ADDRESS_DETAIL_PID|DATE_CREATED|DATE_LAST_MODIFIED|DATE_RETIRED|BUILDING_NAME|LOT_NUMBER_PREFIX|LOT_NUMBER|LOT_NUMBER_SUFFIX|FLAT_TYPE_CODE|FLAT_NUMBER_PREFIX|FLAT_NUMBER|FLAT_NUMBER_SUFFIX|LEVEL_TYPE_CODE|LEVEL_NUMBER_PREFIX|LEVEL_NUMBER|LEVEL_NUMBER_SUFFIX|NUMBER_FIRST_PREFIX|NUMBER_FIRST|NUMBER_FIRST_SUFFIX|NUMBER_LAST_PREFIX|NUMBER_LAST|NUMBER_LAST_SUFFIX|STREET_LOCALITY_PID|LOCATION_DESCRIPTION|LOCALITY_PID|ALIAS_PRINCIPAL|POSTCODE|PRIVATE_STREET|LEGAL_PARCEL_ID|CONFIDENCE|ADDRESS_SITE_PID|LEVEL_GEOCODED_CODE|PROPERTY_PID|GNAF_PROPERTY_PID|PRIMARY_SECONDARY';
const STREET = 'STREET_LOCALITY_PID|DATE_CREATED|DATE_RETIRED|STREET_CLASS_CODE|STREET_NAME|STREET_TYPE_CODE|STREET_SUFFIX_CODE|LOCALITY_PID|GNAF_STREET_PID|GNAF_STREET_CONFIDENCE|GNAF_RELIABILITY_CODE';
const LOCALITY = 'LOCALITY_PID|DATE_CREATED|DATE_RETIRED|LOCALITY_NAME|PRIMARY_POSTCODE|LOCALITY_CLASS_CODE|STATE_PID|GNAF_LOCALITY_PID|GNAF_RELIABILITY_CODE';
const GEOCODE = 'ADDRESS_DEFAULT_GEOCODE_PID|DATE_CREATED|DATE_RETIRED|ADDRESS_DETAIL_PID|GEOCODE_TYPE_CODE|LONGITUDE|LATITUDE';

/** An ADDRESS_DETAIL line from the fields that matter here. */
function detail(pid: string, f: { flat?: string; flatSuffix?: string; level?: string; first: string; firstSuffix?: string; last?: string; street: string; locality: string; alias?: 'P' | 'A'; retired?: string; postcode?: string }): string {
  const cols = DETAIL.split('|');
  const v: Record<string, string> = {
    ADDRESS_DETAIL_PID: pid, DATE_CREATED: '2012-04-27', DATE_RETIRED: f.retired ?? '', FLAT_TYPE_CODE: f.flat ? 'UNIT' : '', FLAT_NUMBER: f.flat ?? '', FLAT_NUMBER_SUFFIX: f.flatSuffix ?? '',
    LEVEL_TYPE_CODE: f.level ? 'L' : '', LEVEL_NUMBER: f.level ?? '', NUMBER_FIRST: f.first, NUMBER_FIRST_SUFFIX: f.firstSuffix ?? '', NUMBER_LAST: f.last ?? '', STREET_LOCALITY_PID: f.street,
    LOCALITY_PID: f.locality, ALIAS_PRINCIPAL: f.alias ?? 'P', POSTCODE: f.postcode ?? '3199', CONFIDENCE: '2', PRIMARY_SECONDARY: '',
  };
  return cols.map((c) => v[c] ?? '').join('|');
}

function writeGnaf(dir: string, extraDetail: string[] = []): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'VIC_LOCALITY_psv.psv'), [LOCALITY, 'VIC941|2012-04-27||FRANKSTON SOUTH|3199|G|2|250184905|5', "VIC2615|2012-04-27||ST KILDA EAST|3183|G|2|250184906|5"].join('\n') + '\n');
  writeFileSync(join(dir, 'VIC_STREET_LOCALITY_psv.psv'), [STREET, 'VIC1982231|2017-11-01||C|LAWSON|AVENUE||VIC941|253044441|2|4', "VIC7|2017-11-01||C|O'CONNOR|STREET|NORTH|VIC2615|253044442|2|4"].join('\n') + '\n');
  writeFileSync(join(dir, 'VIC_ADDRESS_DETAIL_psv.psv'), [
    DETAIL,
    detail('GAVIC1', { first: '61', street: 'VIC1982231', locality: 'VIC941' }),
    detail('GAVIC2', { flat: '3', flatSuffix: 'A', first: '10', last: '12', street: 'VIC1982231', locality: 'VIC941' }),
    detail('GAVIC3', { level: '2', first: '5', firstSuffix: 'B', street: 'VIC7', locality: 'VIC2615', postcode: '3183' }),
    detail('GAVIC4', { first: '61', street: 'VIC1982231', locality: 'VIC941', alias: 'A' }),
    detail('GAVIC5', { first: '63', street: 'VIC1982231', locality: 'VIC941', retired: '2020-01-01' }),
    detail('GAVIC6', { first: '65', street: 'VIC1982231', locality: 'VIC941' }),
    ...extraDetail,
  ].join('\r\n') + '\r\n');
  writeFileSync(join(dir, 'VIC_ADDRESS_DEFAULT_GEOCODE_psv.psv'), [GEOCODE, '1|2012-11-01||GAVIC1|FCS|145.124738|-38.162404', '2|2012-11-01||GAVIC2|FCS|145.125|-38.1625', '3|2012-11-01||GAVIC3|FCS|145.0|-37.87', '4|2012-11-01||GAVIC4|FCS|145.124738|-38.162404'].join('\n') + '\n');
}

describe('the G-NAF reader', () => {
  it('title-cases G-NAF names', () => {
    expect([titleCase('LAWSON AVENUE'), titleCase("O'CONNOR"), titleCase('ST KILDA-EAST')]).toEqual(['Lawson Avenue', "O'Connor", 'St Kilda-East']);
  });

  it('joins the four tables into address rows the index resolves; aliases, retired and ungeocoded ones counted', async () => {
    const dir = join(tempDir('gnaf-'), 'Standard');
    writeGnaf(dir);
    const { rows, report } = await readGnafAddresses(dir, 'VIC');
    expect(rows).toEqual([
      { address_id: 'GAVIC1', unit: null, number: '61', street_name: 'Lawson', street_type: 'Avenue', suburb: 'Frankston South', state: 'VIC', postcode: '3199', lon: 145.124738, lat: -38.162404 },
      { address_id: 'GAVIC2', unit: '3A', number: '10-12', street_name: 'Lawson', street_type: 'Avenue', suburb: 'Frankston South', state: 'VIC', postcode: '3199', lon: 145.125, lat: -38.1625 },
      { address_id: 'GAVIC3', unit: 'L2', number: '5B', street_name: "O'Connor", street_type: 'Street North', suburb: 'St Kilda East', state: 'VIC', postcode: '3183', lon: 145, lat: -37.87 },
    ]);
    expect(report).toEqual({ addresses: 3, aliasesSkipped: 1, retiredSkipped: 1, missingGeocode: 1, missingGeocodeExamples: [{ pid: 'GAVIC6', line: 7 }] });
    const index = AddressIndex.build(addressRecordsFromRows(rows, 'gnaf'));
    expect(index.resolve('3A/10-12 Lawson Avenue, Frankston South VIC 3199').match?.id).toBe('GAVIC2');
    expect(index.resolve("L2/5B O'Connor Street North, St Kilda East").match?.id).toBe('GAVIC3');
    expect(index.resolve('61 Lawson Avenue Frankston South').match?.id).toBe('GAVIC1');
  });

  it('names every bad line by file and line, and a folder without a table', async () => {
    const dir = join(tempDir('gnaf-bad-'), 'Standard');
    writeGnaf(dir, ['GAVIC9|too|few|fields', detail('GAVIC10', { first: '1', street: 'VIC404', locality: 'VIC941' })]);
    const err = await readGnafAddresses(dir, 'VIC').catch((e: Error) => e);
    expect((err as Error).message).toMatch(/VIC_ADDRESS_DETAIL_psv\.psv: line 8: 4 fields where the header has 35/);
    expect((err as Error).message).toMatch(/VIC_ADDRESS_DETAIL_psv\.psv: line 9: street "VIC404" is not in STREET_LOCALITY/);
    await expect(readGnafAddresses(dir, 'NSW')).rejects.toThrow(/no NSW_ADDRESS_DETAIL_psv\.psv/);
  });

  it('goes into a catalogue as resolved.address, the left-out addresses noted', async () => {
    const root = tempDir('gnaf-cat-');
    writeGnaf(join(root, 'G-NAF', 'Standard'));
    const ds = join(root, 'dataset');
    await runCli(['catalogue', 'init', ds]);
    const r = await runCli(['catalogue', 'add', ds, '--file', join(root, 'G-NAF', 'Standard'), '--id', 'gnaf_vic', '--paths', 'resolved.address', '--state', 'VIC', '--coverage', 'complete', '--licence', 'G-NAF EULA', '--attribution', 'G-NAF (c) Geoscape Australia']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/format: gnaf/);
    expect(r.stdout).toMatch(/note: gnaf_vic: 1 address\(es\) without a default geocode left out \(e\.g\. GAVIC6 at line 7\)/);
    expect((await runCli(['catalogue', 'check', ds])).code).toBe(0);
  });
});
