/**
 * A batch's input: a CSV file with a header row (an `address` column, or `lat` and `lng` columns; every
 * column carried through to the results) or JSON lines (one object per line with `address`, or `lat` and
 * `lng`, and anything else carried). Each data row becomes the subject of one lookup, checked by the same
 * rules as `GET /api/v1/property` (a row the single lookup would refuse is `invalid`, with the same error
 * code and message), or an invalid row. A problem with the file as a whole (no header, no subject column, a
 * duplicate column, a delimiter that is not one) is an INVALID_ARGUMENT naming `body`.
 */
import { EngineError } from '../errors.js';
import type { PropertySubject } from '../property/kit/contract.js';
import { validateSubject } from '../property/kit/options.js';
import { csvRows, CsvSyntaxError } from '../vector/csv.js';

/** The input formats. */
export const BATCH_INPUT_FORMATS = ['csv', 'jsonl'] as const;
export type BatchInputFormat = (typeof BATCH_INPUT_FORMATS)[number];

/** CSV delimiters a file may use (`auto` picks the one the header row uses most). */
export const BATCH_DELIMITERS = [',', ';', '\t', '|'] as const;

/** Rows a batch may hold. */
export const MAX_BATCH_ROWS = 1_000_000;

/** Different keys JSON lines rows may name in all (each is a column of the results). */
export const MAX_BATCH_COLUMNS = 1000;

/**
 * How deep a JSON lines value may nest (objects and arrays within each other) to be carried: a row nesting
 * deeper is that row's `invalid`. Carried values are written back as JSON text, whose writer recurses.
 */
export const MAX_CELL_DEPTH = 64;

/** Sets `cells[key]`, a key named `__proto__` included (an own property, as JSON.parse makes it, never the prototype). */
function setCell(cells: Record<string, BatchCell>, key: string, value: BatchCell): void {
  if (key === '__proto__') Object.defineProperty(cells, key, { value, enumerable: true, writable: true, configurable: true });
  else cells[key] = value;
}

/** How deep `v` nests (1 for a flat array or object), counted without recursion; stops counting past `max`. */
function depthOf(v: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d > deepest) deepest = d;
    if (deepest > max) return deepest;
    for (const c of Object.values(x as Record<string, unknown>)) if (c !== null && typeof c === 'object') stack.push([c, d + 1]);
  }
  return deepest;
}

/** A cell as carried through: text from CSV; text, numbers, booleans or null from JSON lines. */
export type BatchCell = string | number | boolean | null;

/** Why a row was not looked up, as the single lookup would have answered (422 `error` code and message). */
export interface BatchRowProblem {
  /** `invalid_subject` or `invalid_parameter`, as the single lookup's 422. */
  error: 'invalid_subject' | 'invalid_parameter';
  message: string;
}

/** One data row. */
export interface BatchRow {
  /** 1-based data row number (the header is not counted; blank lines are skipped). */
  row: number;
  /** The row's cells, by column, as given. */
  cells: Record<string, BatchCell>;
  /** The lookup's subject, or undefined when the row is invalid. */
  subject?: PropertySubject;
  problem?: BatchRowProblem;
}

/** How the input is read. */
export interface BatchInputOptions {
  format: BatchInputFormat;
  /** CSV only: the delimiter, or `auto` (default). */
  delimiter?: (typeof BATCH_DELIMITERS)[number] | 'auto';
}

/** The input as a whole is unusable: 422 naming the body. */
function badInput(message: string): EngineError {
  return new EngineError('INVALID_ARGUMENT', message, { parameter: 'body' });
}

// The single lookup's rules for a text parameter and a decimal number (server/api/query.ts).
const CONTROL = /[\u0000-\u001f\u007f]/;
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const SUBJECT_COLUMNS = ['address', 'lat', 'lng'] as const;

/** The delimiter the header line uses most, outside quotes. */
function detectDelimiter(text: string): string {
  const end = text.search(/\r|\n/);
  const header = (end < 0 ? text : text.slice(0, end)).replace(/"[^"]*"/g, '');
  let best = ',', most = 0;
  for (const d of BATCH_DELIMITERS) {
    const n = header.split(d).length - 1;
    if (n > most) (best = d), (most = n);
  }
  return best;
}

/** The subject of a row's subject cells, or the problem the single lookup would have answered with. */
export function subjectOfCells(address: BatchCell | undefined, lat: BatchCell | undefined, lng: BatchCell | undefined): { subject?: PropertySubject; problem?: BatchRowProblem } {
  const given = (v: BatchCell | undefined) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
  const raw: Record<string, unknown> = {};
  if (given(address)) {
    if (typeof address !== 'string') return { problem: { error: 'invalid_parameter', message: `address must be text, got ${JSON.stringify(address)}` } };
    if (CONTROL.test(address)) return { problem: { error: 'invalid_parameter', message: 'address must not contain control characters (line breaks, tabs, NUL)' } };
    raw.address = address;
  }
  for (const [name, v] of [['lat', lat], ['lng', lng]] as const) {
    if (!given(v)) continue;
    if (typeof v === 'number') raw[name] = v;
    else if (typeof v === 'string' && DECIMAL.test(v.trim())) raw[name] = Number(v.trim());
    else {
      const t = String(v);
      return { problem: { error: 'invalid_parameter', message: `${name} must be a number, got ${JSON.stringify(t.length > 40 ? `${t.slice(0, 40)}...` : t)}` } };
    }
  }
  try {
    return { subject: validateSubject(raw) };
  } catch (err) {
    const e = err as EngineError;
    return { problem: { error: e.details?.reason === 'invalid_subject' ? 'invalid_subject' : 'invalid_parameter', message: e.message } };
  }
}

/** The subject columns' names as the file spells them (matched without case or surrounding space). */
function subjectColumns(columns: readonly string[]): Record<(typeof SUBJECT_COLUMNS)[number], string | undefined> {
  const find = (name: string) => columns.find((c) => c.trim().toLowerCase() === name);
  return { address: find('address'), lat: find('lat') ?? find('latitude'), lng: find('lng') ?? find('lon') ?? find('longitude') };
}

/**
 * The rows of `text` one at a time. `onColumns` receives the CSV header (or, for JSON lines, nothing: their
 * keys vary by row) before the first row. Throws INVALID_ARGUMENT (parameter `body`) for an unusable file.
 */
export function* batchRows(text: string, options: BatchInputOptions, onColumns: (columns: string[]) => void = () => {}): Generator<BatchRow> {
  if (options.format === 'jsonl') {
    onColumns([]);
    yield* jsonLines(text);
    return;
  }
  // Excel's "sep=;" first line names the delimiter (a delimiter asked for explicitly wins) and is not a row.
  const sep = /^\uFEFF?sep=([,;\t|])\r?\n/i.exec(text);
  if (sep) text = text.slice(sep[0].length);
  const delimiter = options.delimiter && options.delimiter !== 'auto' ? options.delimiter : sep ? sep[1] : detectDelimiter(text);
  let header: string[] | null = null;
  let cols: ReturnType<typeof subjectColumns> | null = null;
  let n = 0;
  try {
    for (const r of csvRows(text, delimiter)) {
      if (!header) {
        header = r.fields.map((f) => f.trim());
        const seen = new Set<string>();
        for (const h of header) {
          if (h === '') throw badInput('the header row has an empty column name');
          if (CONTROL.test(h)) throw badInput(`the header row's column ${JSON.stringify(h.slice(0, 40))} holds a control character`);
          if (seen.has(h.toLowerCase())) throw badInput(`the header row names the column ${JSON.stringify(h)} twice`);
          seen.add(h.toLowerCase());
        }
        cols = subjectColumns(header);
        if (!cols.address && !(cols.lat && cols.lng)) {
          throw badInput(`the header row needs an address column, or lat and lng columns (delimiter ${JSON.stringify(delimiter)}); it has ${header.map((h) => JSON.stringify(h)).join(', ')}`);
        }
        onColumns(header);
        continue;
      }
      if (++n > MAX_BATCH_ROWS) throw badInput(`a batch holds at most ${MAX_BATCH_ROWS.toLocaleString('en-AU')} rows`);
      const cells: Record<string, BatchCell> = {};
      header.forEach((h, i) => setCell(cells, h, r.fields[i] ?? ''));
      if (r.fields.length !== header.length) {
        // One column and more fields: addresses with the delimiter in them, not quoted.
        const hint = header.length === 1 && r.fields.length > 1 ? `: a value holding the delimiter ${JSON.stringify(delimiter)} (an address with commas) must be in double quotes, or the file written with another delimiter (delimiter=; or a sep=; first line)` : '';
        yield { row: n, cells, problem: { error: 'invalid_parameter', message: `line ${r.line + (sep ? 1 : 0)} has ${r.fields.length} fields; the header row has ${header.length}${hint}` } };
        continue;
      }
      const c = cols!;
      yield { row: n, cells, ...subjectOfCells(c.address ? cells[c.address] : undefined, c.lat ? cells[c.lat] : undefined, c.lng ? cells[c.lng] : undefined) };
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw badInput(`the CSV is malformed: ${err.message}`);
    throw err;
  }
  if (!header) throw badInput('the file is empty: a CSV needs a header row (an address column, or lat and lng columns) and data rows');
  if (n === 0) throw badInput('the file has a header row and no data rows');
}

function* jsonLines(text: string): Generator<BatchRow> {
  let n = 0;
  const keys = new Set<string>();
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    line++;
    if (raw === '') continue;
    if (++n > MAX_BATCH_ROWS) throw badInput(`a batch holds at most ${MAX_BATCH_ROWS.toLocaleString('en-AU')} rows`);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      yield { row: n, cells: {}, problem: { error: 'invalid_parameter', message: `line ${line} is not JSON` } };
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      yield { row: n, cells: {}, problem: { error: 'invalid_parameter', message: `line ${line} is not a JSON object` } };
      continue;
    }
    const cells: Record<string, BatchCell> = {};
    let tooDeep: string | null = null;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (CONTROL.test(k) || k === '') throw badInput(`line ${line} has a key ${JSON.stringify(k.slice(0, 40))} that is empty or holds a control character`);
      if (v !== null && typeof v === 'object' && depthOf(v, MAX_CELL_DEPTH) > MAX_CELL_DEPTH) {
        tooDeep = k;
        setCell(cells, k, null);
        continue;
      }
      setCell(cells, k, v === null || typeof v !== 'object' ? (v as BatchCell) : JSON.stringify(v));
    }
    if (tooDeep !== null) {
      yield { row: n, cells, problem: { error: 'invalid_parameter', message: `line ${line}: the value of ${JSON.stringify(tooDeep.slice(0, 40))} nests arrays or objects more than ${MAX_CELL_DEPTH} deep; a carried value may nest at most ${MAX_CELL_DEPTH}` } };
      continue;
    }
    const fresh = Object.keys(cells).filter((k) => !keys.has(k));
    for (const k of fresh) keys.add(k);
    if (keys.size > MAX_BATCH_COLUMNS) throw badInput(`the rows name more than ${MAX_BATCH_COLUMNS} different keys (by line ${line}); the results carry each as a column`);
    const c = subjectColumns(Object.keys(cells));
    yield { row: n, cells, ...subjectOfCells(c.address ? cells[c.address] : undefined, c.lat ? cells[c.lat] : undefined, c.lng ? cells[c.lng] : undefined) };
  }
  if (n === 0) throw badInput('the file holds no rows: JSON lines need one object per line with address, or lat and lng');
}
