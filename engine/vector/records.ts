/**
 * Record files (addresses, DAs, schools, counters, loggers): CSV with a header row, or JSON lines (one JSON
 * object per line). A file loads completely or not at all: every problem is an `INVALID_DATA` error naming
 * the file (and the line), never a partly loaded table.
 */
import { readFile } from 'node:fs/promises';
import { EngineError, invalidData } from '../errors.js';
import { CsvSyntaxError, parseCsv } from './csv.js';

/** A loaded table of records. */
export interface RecordSet<R = Record<string, string>> {
  file: string;
  /** Column names in file order (CSV header, or the union of keys for JSON lines). */
  columns: string[];
  rows: R[];
  /** The line of the file each row starts on (1-based), for messages that name a row. */
  lines?: number[];
}

/** Options for reading records. */
export interface ReadRecordsOptions {
  /** Columns every record must have; missing ones are listed in one error. */
  required?: readonly string[];
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EngineError('NOT_FOUND', `${file}: record file not found`, { file });
    throw invalidData(file, `cannot read (${(err as Error).message})`, {}, err);
  }
}

/** Parses CSV text with a header row into records keyed by column name. */
export function parseCsvRecords(text: string, file: string, options: ReadRecordsOptions = {}): RecordSet {
  let parsed;
  try {
    parsed = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw invalidData(file, err.message, { line: err.line });
    throw err;
  }
  if (parsed.length === 0) throw invalidData(file, 'empty CSV file: no header row');
  const columns = parsed[0].fields.map((c) => c.trim());
  const seen = new Set<string>();
  for (const c of columns) {
    if (c === '') throw invalidData(file, 'empty column name in the header row', { line: 1 });
    if (seen.has(c)) throw invalidData(file, `duplicate column ${JSON.stringify(c)} in the header row`, { line: 1, column: c });
    seen.add(c);
  }
  const missing = (options.required ?? []).filter((c) => !seen.has(c));
  if (missing.length) {
    throw invalidData(file, `missing required column${missing.length > 1 ? 's' : ''} ${missing.map((m) => JSON.stringify(m)).join(', ')}`, { missing });
  }
  const rows: Record<string, string>[] = new Array(parsed.length - 1);
  const lines: number[] = new Array(parsed.length - 1);
  for (let r = 1; r < parsed.length; r++) {
    const { fields, line } = parsed[r];
    lines[r - 1] = line;
    if (fields.length !== columns.length) {
      throw invalidData(file, `line ${line} has ${fields.length} fields but the header has ${columns.length}`, { line });
    }
    const rec: Record<string, string> = {};
    for (let c = 0; c < columns.length; c++) rec[columns[c]] = fields[c];
    rows[r - 1] = rec;
  }
  return { file, columns, rows, lines };
}

/** Parses JSON-lines text: one object per non-blank line. */
export function parseJsonLines(text: string, file: string, options: ReadRecordsOptions = {}): RecordSet<Record<string, unknown>> {
  const rows: Record<string, unknown>[] = [];
  const rowLines: number[] = [];
  const columns = new Set<string>();
  const lines = text.split(/\r?\n/);
  const required = options.required ?? [];
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i].trim();
    if (!s) continue;
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch (err) {
      throw invalidData(file, `line ${i + 1} is not valid JSON (${(err as Error).message})`, { line: i + 1 });
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalidData(file, `line ${i + 1} is not a JSON object`, { line: i + 1 });
    const rec = v as Record<string, unknown>;
    const missing = required.filter((c) => !(c in rec));
    if (missing.length) throw invalidData(file, `line ${i + 1} is missing ${missing.map((m) => JSON.stringify(m)).join(', ')}`, { line: i + 1, missing });
    for (const k of Object.keys(rec)) columns.add(k);
    rows.push(rec);
    rowLines.push(i + 1);
  }
  return { file, columns: [...columns], rows, lines: rowLines };
}

/** Reads a CSV file with a header row. */
export async function readCsvRecords(file: string, options?: ReadRecordsOptions): Promise<RecordSet> {
  return parseCsvRecords(await readText(file), file, options);
}

/** Reads a JSON-lines file (`.jsonl` / `.ndjson`). */
export async function readJsonLines(file: string, options?: ReadRecordsOptions): Promise<RecordSet<Record<string, unknown>>> {
  return parseJsonLines(await readText(file), file, options);
}

/** Reads CSV or JSON lines, chosen by `format` or by the file's extension. */
export async function readRecords(
  file: string,
  options: ReadRecordsOptions & { format?: 'csv' | 'jsonl' } = {},
): Promise<RecordSet<Record<string, unknown>>> {
  const format = options.format ?? (/\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : /\.csv$/i.test(file) ? 'csv' : null);
  if (format === 'csv') return readCsvRecords(file, options);
  if (format === 'jsonl') return readJsonLines(file, options);
  throw new EngineError('UNSUPPORTED', `${file}: unknown record format; use .csv or .jsonl, or declare the format`, { file });
}
