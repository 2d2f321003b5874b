// `propintel batch` (issue 37): a file in, every row's answer out in input order, with the progress line on
// stderr; `--resume` continues a stopped run (cut off mid-record, or the process killed with -9) and ends
// with exactly the file an uninterrupted run writes; the resume point of each format worked by hand.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { BatchFileWriter, resumePoint, type StoredBatchRow } from '../../engine/entry/batch.js';
import { isEngineError } from '../../engine/index.js';
import { csvRows } from '../../engine/vector/csv.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('cli-batch-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 60 rows of the sample world's VIC addresses (read from its addresses.csv), with three bad ones. */
function inputFile(): string {
  const lines = readFileSync(join(defaultDataDir(), 'vic', 'addresses.csv'), 'utf8').split('\n').slice(1, 1200);
  const rows: string[] = [];
  for (let i = 0; rows.length < 57; i += 7) {
    const [, unit, number, street, type, suburb, state, postcode] = lines[i].split(',');
    if (unit) continue;
    rows.push(`"C${rows.length + 1}","${number} ${street} ${type}, ${suburb} ${state} ${postcode}",,`);
  }
  rows.splice(10, 0, '"BAD1","1 Nowhere Lane, Atlantis VIC 3999",,');
  rows.splice(20, 0, '"BAD2",,abc,144.9');
  rows.splice(30, 0, '"BAD3",,-25,135');
  const file = join(dir, 'book.csv');
  writeFileSync(file, ['client,address,lat,lng', ...rows].join('\n'));
  return file;
}

let input = '';
const row0: StoredBatchRow = { row: 1, cells: {}, status: 'ok', error: null, message: null, address: 'x', confidence: 1, lat: -37, lng: 145, address_key: 'k', sandbox: false, chargeable: true, not_charged_reason: null, payload: {} };
let full = '';
let fullStderr = '';

beforeAll(async () => {
  input = inputFile();
  const out = join(dir, 'full.csv');
  const r = await runCli(['batch', input, '--out', out, '--components', 'scores.flood,planning,hazards', '--chunk', '16', '--threads', '2']);
  expect(r.code, r.stderr).toBe(0);
  full = readFileSync(out, 'utf8');
  fullStderr = r.stderr;
}, 240_000);

describe('propintel batch', () => {
  it('writes every row once in input order, with status and error columns and a progress line', () => {
    const [head, ...rows] = [...csvRows(full)].map((r) => r.fields);
    expect(head.slice(0, 13)).toEqual(['client', 'address', 'lat', 'lng', 'row', 'status', 'error', 'error_message', 'resolved_address', 'match_confidence', 'resolved_lat', 'resolved_lng', 'zone_code']);
    expect(head).toContain('flood_score');
    expect(head).toContain('bushfire_prone');
    expect(head).not.toContain('noise_score');
    expect(rows.map((r) => Number(r[4]))).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const by = (client: string) => rows.find((r) => r[0] === client)!;
    expect(by('BAD1').slice(5, 7)).toEqual(['unresolved', 'address_unresolvable']);
    expect(by('BAD2').slice(5, 7)).toEqual(['invalid', 'invalid_parameter']);
    expect(by('BAD3').slice(5, 7)).toEqual(['outside_coverage', 'outside_coverage']);
    expect(rows.filter((r) => r[5] === 'ok')).toHaveLength(57);
    expect(fullStderr).toMatch(/60\/60 rows \(100%\), [\d.]+ rows\/s, ETA 0 s, 3 not ok/);
  });

  it('resumes a run cut off in the middle of a record, ending with the uninterrupted file', async () => {
    const out = join(dir, 'cut.csv');
    const cut = full.indexOf('"C25"') + 20;
    writeFileSync(out, full.slice(0, cut));
    const r = await runCli(['batch', input, '--out', out, '--components', 'scores.flood,planning,hazards', '--resume', '--threads', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/resuming after row 26 of 60/);
    expect(readFileSync(out, 'utf8')).toBe(full);
    // A finished file: nothing to do.
    const again = await runCli(['batch', input, '--out', out, '--components', 'scores.flood,planning,hazards', '--resume']);
    expect(again.stderr).toMatch(/already holds all 60 rows/);
    // Another selection of columns is not this run's file.
    const other = await runCli(['batch', input, '--out', out, '--components', 'scores', '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/cannot resume: the file does not start with this run's header/);
  }, 240_000);

  it('resumes from a file holding only its header, and closes a GeoJSON file stopped before its bracket', async () => {
    const out = join(dir, 'header-only.csv');
    writeFileSync(out, full.slice(0, full.indexOf('\r\n') + 2));
    const r = await runCli(['batch', input, '--out', out, '--components', 'scores.flood,planning,hazards', '--resume', '--threads', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(full);
    // Every row there but the closing bracket (stopped between the last row and the footer).
    const geo = join(dir, 'open.geojson');
    const w = new BatchFileWriter({ format: 'geojson', columns: ['client', 'address', 'lat', 'lng'], components: null });
    writeFileSync(geo, w.header() + Array.from({ length: 60 }, (_, i) => w.row({ ...row0, row: i + 1 })).join(''));
    const g = await runCli(['batch', input, '--out', geo, '--resume']);
    expect(g.code, g.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(geo, 'utf8'));
    expect(doc.features.map((f: { properties: { row: number } }) => f.properties.row)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  }, 240_000);

  it('resumes after the process is killed with -9', async () => {
    const out = join(dir, 'killed.csv');
    const args = ['bin/propintel.js', 'batch', input, '--out', out, '--components', 'scores.flood,planning,hazards', '--chunk', '8', '--threads', '2'];
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'ignore' });
    // Killed once some rows are written (the header is about 400 bytes; a row about 200).
    for (let i = 0; i < 600; i++) {
      await sleep(50);
      try {
        if (statSync(out).size > 3000) break;
      } catch {
        // not yet created
      }
    }
    child.kill('SIGKILL');
    await once(child, 'exit');
    const partial = readFileSync(out, 'utf8');
    expect(partial.length).toBeLessThan(full.length);
    const resumed = spawn(process.execPath, [...args, '--resume'], { cwd: root, stdio: 'ignore' });
    const [code] = await once(resumed, 'exit');
    expect(code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(full);
  }, 240_000);

  it('resumes JSON lines and GeoJSON to the uninterrupted file but for the as_at times, which say when each resumed row was computed', async () => {
    // The docs (docs/cli.md) name exactly this difference: every `as_at` of a payload, nothing else.
    const small = join(dir, 'small.csv');
    writeFileSync(small, readFileSync(input, 'utf8').split('\n').slice(0, 13).join('\n'));
    const withoutAsAt = (v: unknown): unknown => (Array.isArray(v) ? v.map(withoutAsAt) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'as_at').map(([k, x]) => [k, withoutAsAt(x)])) : v);
    for (const format of ['jsonl', 'geojson'] as const) {
      const args = (out: string) => ['batch', small, '--out', out, '--components', 'scores.noise,planning', '--threads', '2'];
      const whole = join(dir, `whole.${format}`);
      expect((await runCli(args(whole))).code).toBe(0);
      const text = readFileSync(whole, 'utf8');
      const out = join(dir, `resumed.${format}`);
      writeFileSync(out, text.slice(0, Math.floor(text.length / 2)));
      const r = await runCli([...args(out), '--resume']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/resuming after row \d+ of 12/);
      const resumed = readFileSync(out, 'utf8');
      const parse = (t: string) => (format === 'jsonl' ? t.trim().split('\n').map((l) => JSON.parse(l)) : JSON.parse(t).features);
      const [a, b] = [parse(text), parse(resumed)];
      expect(b).toHaveLength(12);
      // The times are there to differ (meta.as_at and the noise score's own), and nothing else does.
      const payload = (x: Record<string, any>) => (format === 'jsonl' ? x.payload : x.properties.payload); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(payload(a[0]).meta.as_at.layer_features).toMatch(/^\d{4}-/);
      expect(payload(a[0]).scores.noise.as_at).toMatch(/^\d{4}-/);
      expect(withoutAsAt(b)).toEqual(withoutAsAt(a));
    }
  }, 240_000);

  it('refuses a bad command line, naming the flag', async () => {
    expect((await runCli(['batch', input])).stderr).toMatch(/--out FILE is required/);
    expect((await runCli(['batch', input, '--out', join(dir, 'x.csv'), '--format', 'xlsx'])).stderr).toMatch(/--format must be csv, jsonl or geojson/);
    expect((await runCli(['batch', join(dir, 'none.csv'), '--out', join(dir, 'x.csv')])).stderr).toMatch(/no such input file/);
  });
});

describe('the resume point of each format', () => {
  const row = (n: number): StoredBatchRow => ({ row: n, cells: { a: `x${n}` }, status: 'ok', error: null, message: null, address: `A "${n}"\nline`, confidence: 1, lat: -37, lng: 145, address_key: 'k', sandbox: false, chargeable: true, not_charged_reason: null, payload: { n } });
  for (const format of ['csv', 'jsonl', 'geojson'] as const) {
    it(`${format}: counts whole records, cuts the partial one, and knows a finished file`, () => {
      const w = new BatchFileWriter({ format, columns: ['a'], components: ['scores.flood'] });
      const header = w.header();
      const records = [1, 2, 3].map((n) => w.row(row(n)));
      const whole = header + records.join('');
      expect(resumePoint(whole, format, header)).toEqual({ rows: 3, keepBytes: Buffer.byteLength(whole), finished: false });
      // Cut inside the third record (inside its quoted address, which holds a line break).
      const cut = header + records[0] + records[1] + records[2].slice(0, records[2].indexOf('line'));
      expect(resumePoint(cut, format, header)).toEqual({ rows: 2, keepBytes: Buffer.byteLength(header + records[0] + records[1]), finished: false });
      if (format === 'geojson') expect(resumePoint(whole + w.footer(), format, header).finished).toBe(true);
      expect(resumePoint('', format, header)).toEqual({ rows: 0, keepBytes: 0, finished: false });
    });
  }

  it('refuses a file whose rows are not 1..n', () => {
    const w = new BatchFileWriter({ format: 'jsonl', columns: ['a'], components: null });
    const text = w.row(row(1)) + w.row(row(3));
    try {
      resumePoint(text, 'jsonl', '');
      expect.unreachable();
    } catch (err) {
      expect(isEngineError(err) && err.message).toMatch(/record 2 of the file is row 3/);
    }
  });
});
