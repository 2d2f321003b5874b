/**
 * Where a stopped run continues: the results file holds the first rows in input order (each record carries
 * its row number), possibly with a record cut off by the stop. The complete records are counted, checked
 * to be rows 1..n in order, and the file is to be cut after the last of them.
 */
import { EngineError } from '../errors.js';
import { csvRows, CsvSyntaxError } from '../vector/csv.js';
import type { BatchOutputFormat } from './batch-output.js';

/** How much of an existing results file to keep, and how many rows it holds. */
export interface ResumePoint {
  /** Rows done (rows 1..rows). */
  rows: number;
  /** Bytes of the file to keep (the rest is a cut-off record, or GeoJSON's closing bracket). */
  keepBytes: number;
  /** True when the file was finished (GeoJSON's closing bracket was found). */
  finished: boolean;
}

function mismatch(message: string): EngineError {
  return new EngineError('INVALID_ARGUMENT', `cannot resume: ${message}`, { parameter: 'resume' });
}

/**
 * The resume point of `text` (the existing results file) for `format`, whose header must be `header` (the
 * same columns as this run would write).
 */
export function resumePoint(text: string, format: BatchOutputFormat, header: string): ResumePoint {
  if (text.length === 0) return { rows: 0, keepBytes: 0, finished: false };
  if (!text.startsWith(header)) throw mismatch(`the file does not start with this run's header (another input, --format or --components?)`);
  let body = text.slice(header.length);
  let finished = false;
  if (format === 'csv') {
    // Complete records end with CRLF; a cell may hold a line break inside quotes, so cut at the last record
    // end that parses.
    for (;;) {
      const end = body.lastIndexOf('\r\n');
      body = end < 0 ? '' : body.slice(0, end + 2);
      try {
        const rows = [...csvRows(body)];
        return check(rows.map((r) => Number(r.fields[rowColumn(header)])), Buffer.byteLength(header) + Buffer.byteLength(body), false, text);
      } catch (err) {
        if (!(err instanceof CsvSyntaxError)) throw err;
        body = body.slice(0, -2);
      }
    }
  }
  const lines = body.split('\n');
  const nums: number[] = [];
  let kept = 0;
  for (let i = 0; i < lines.length - 1; i++) {
    let line = lines[i];
    if (format === 'geojson') {
      if (line === ']}') {
        finished = true;
        break;
      }
      if (line.startsWith(',')) line = line.slice(1);
    }
    let v: { row?: unknown; properties?: { row?: unknown } };
    try {
      v = JSON.parse(line);
    } catch {
      break;
    }
    nums.push(Number(format === 'geojson' ? v.properties?.row : v.row));
    kept += Buffer.byteLength(lines[i]) + 1;
  }
  return check(nums, Buffer.byteLength(header) + kept, finished, text);
}

function rowColumn(header: string): number {
  const cols = [...csvRows(header)][0]?.fields ?? [];
  const i = cols.indexOf('row');
  if (i < 0) throw mismatch('the header has no row column');
  return i;
}

function check(nums: number[], keepBytes: number, finished: boolean, text: string): ResumePoint {
  nums.forEach((n, i) => {
    if (n !== i + 1) throw mismatch(`record ${i + 1} of the file is row ${n}, not row ${i + 1}`);
  });
  return { rows: nums.length, keepBytes: Math.min(keepBytes, Buffer.byteLength(text)), finished };
}
