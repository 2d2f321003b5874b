import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvField, parseCsv } from '../../../engine/vector/csv.js';
import { parseCsvRecords, parseJsonLines, readCsvRecords, readRecords } from '../../../engine/vector/records.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { realdata } from '../../helpers/realdata.js';
import { tempDir } from '../../helpers/tmp.js';
import { needsRealdata } from '../../helpers/skip.js';

const dir = tempDir();

describe('CSV parsing (RFC 4180)', () => {
  it('handles quotes, doubled quotes, embedded commas and newlines, CRLF and a BOM', () => {
    const text = '\ufeffref,description,cost\r\n"DA/1","Two storey dwelling, pool",450000\r\nDA/2,"Says ""hello""\nover two lines",\r\n';
    const rows = parseCsv(text);
    expect(rows.map((r) => r.fields)).toEqual([
      ['ref', 'description', 'cost'],
      ['DA/1', 'Two storey dwelling, pool', '450000'],
      ['DA/2', 'Says "hello"\nover two lines', ''],
    ]);
    expect(rows.map((r) => r.line)).toEqual([1, 2, 3]);
  });

  it('skips blank lines and keeps empty fields', () => {
    expect(parseCsv('a,b\n\n1,\n,2\n').map((r) => r.fields)).toEqual([['a', 'b'], ['1', ''], ['', '2']]);
  });

  it('quotes output fields that need it, and parsing undoes it', () => {
    const values = ['plain', 'a,b', 'say "x"', 'two\nlines', ''];
    const line = values.map(csvField).join(',');
    expect(parseCsv(line)[0].fields).toEqual(values);
  });
});

describe('record files', () => {
  it('reads CSV records keyed by header', () => {
    const set = parseCsvRecords('id,lon,lat\n1,145,-37\n2,146,-38\n', 'pts.csv', { required: ['lon', 'lat'] });
    expect(set.columns).toEqual(['id', 'lon', 'lat']);
    expect(set.rows).toEqual([{ id: '1', lon: '145', lat: '-37' }, { id: '2', lon: '146', lat: '-38' }]);
  });

  it('names every missing required column and the file', async () => {
    await expectEngineError(() => parseCsvRecords('id,lon\n1,145\n', 'counters.csv', { required: ['lon', 'lat', 'aadt'] }), 'INVALID_DATA', 'counters.csv', /missing required columns "lat", "aadt"/);
  });

  it('names the line of a row with the wrong number of fields, an unterminated quote, or a bad header', async () => {
    await expectEngineError(() => parseCsvRecords('a,b\n1,2\n3,4,5\n', 'r.csv'), 'INVALID_DATA', /line 3 has 3 fields but the header has 2/);
    await expectEngineError(() => parseCsvRecords('a,b\n1,"open\n', 'q.csv'), 'INVALID_DATA', 'q.csv', /unterminated quoted field starting on line 2/);
    await expectEngineError(() => parseCsvRecords('a,a\n1,2\n', 'd.csv'), 'INVALID_DATA', /duplicate column "a"/);
    await expectEngineError(() => parseCsvRecords('', 'e.csv'), 'INVALID_DATA', /no header row/);
  });

  it('reads JSON lines and names a bad line', async () => {
    const set = parseJsonLines('{"id":1,"lat":-37}\n\n{"id":2,"lat":-38,"x":true}\n', 'das.jsonl', { required: ['id'] });
    expect(set.rows).toHaveLength(2);
    expect(set.columns).toEqual(['id', 'lat', 'x']);
    await expectEngineError(() => parseJsonLines('{"id":1}\n{"id":\n', 'b.jsonl'), 'INVALID_DATA', 'b.jsonl', /line 2 is not valid JSON/);
    await expectEngineError(() => parseJsonLines('[1,2]\n', 'c.jsonl'), 'INVALID_DATA', /line 1 is not a JSON object/);
    await expectEngineError(() => parseJsonLines('{"lat":1}\n', 'd.jsonl', { required: ['id'] }), 'INVALID_DATA', /line 1 is missing "id"/);
  });

  it('chooses the format by extension and rejects an unknown one', async () => {
    const csv = join(dir, 'a.csv');
    const jsonl = join(dir, 'a.jsonl');
    writeFileSync(csv, 'x\n1\n');
    writeFileSync(jsonl, '{"x":1}\n');
    expect((await readRecords(csv)).rows).toEqual([{ x: '1' }]);
    expect((await readRecords(jsonl)).rows).toEqual([{ x: 1 }]);
    await expectEngineError(() => readRecords(join(dir, 'a.xlsx')), 'UNSUPPORTED', /unknown record format/);
    await expectEngineError(() => readCsvRecords(join(dir, 'none.csv')), 'NOT_FOUND', 'none.csv');
  });

  const das = realdata('da/planningalerts_techone_da_records_2019_2020.csv');
  it('reads the real PlanningAlerts DA records (3,264 rows)', async (ctx) => {
    needsRealdata(ctx, das, 'da/planningalerts_techone_da_records_2019_2020.csv');
    const set = await readCsvRecords(das!, { required: ['council_reference', 'address', 'description', 'date_received'] });
    expect(set.rows.length).toBe(3264);
    expect(set.rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.date_received))).toBe(true);
  });
});
