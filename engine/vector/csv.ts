/**
 * RFC 4180 CSV parsing: quoted fields, doubled quotes, embedded separators and newlines, CRLF or LF line
 * ends, and a UTF-8 byte-order mark. Errors name the line they are on.
 */

/** A parse problem with the 1-based line it starts on. */
export class CsvSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/** One parsed row with the 1-based line number it started on. */
export interface CsvRow {
  line: number;
  fields: string[];
}

/** Parses CSV text into rows of fields. Blank lines are skipped. */
export function parseCsv(text: string, separator = ','): CsvRow[] {
  return [...csvRows(text, separator)];
}

/** The rows of CSV text one at a time (a large file's rows are never all held at once). */
export function* csvRows(text: string, separator = ','): Generator<CsvRow> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  const sep = separator.charCodeAt(0);
  let line = 1;
  let fields: string[] = [];
  let rowLine = 1;
  let field = '';
  let fieldStarted = false;
  /** The row just ended, or null for a blank line. */
  const endRow = (): CsvRow | null => {
    let row: CsvRow | null = null;
    if (fieldStarted || fields.length > 0) {
      fields.push(field);
      if (!(fields.length === 1 && fields[0] === '')) row = { line: rowLine, fields };
    }
    fields = [];
    field = '';
    fieldStarted = false;
    return row;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (!fieldStarted && fields.length === 0) rowLine = line;
    if (c === 34 /* " */ && !fieldStarted) {
      // Quoted field: runs to the next lone quote.
      const startLine = line;
      i++;
      let chunkStart = i;
      let value = '';
      for (;;) {
        if (i >= n) throw new CsvSyntaxError(`unterminated quoted field starting on line ${startLine}`, startLine);
        const q = text.charCodeAt(i);
        if (q === 34) {
          if (text.charCodeAt(i + 1) === 34) {
            value += text.slice(chunkStart, i + 1);
            i += 2;
            chunkStart = i;
            continue;
          }
          value += text.slice(chunkStart, i);
          i++;
          break;
        }
        if (q === 10) line++;
        i++;
      }
      field = value;
      fieldStarted = true;
      const next = text.charCodeAt(i);
      if (i < n && next !== sep && next !== 10 && next !== 13) {
        throw new CsvSyntaxError(`unexpected character after closing quote on line ${line}`, line);
      }
      continue;
    }
    if (c === sep) {
      // The row has begun (fields is non-empty); the next field has not.
      fields.push(field);
      field = '';
      fieldStarted = false;
      i++;
      continue;
    }
    if (c === 13 || c === 10) {
      const row = endRow();
      if (row) yield row;
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      i++;
      line++;
      continue;
    }
    // Unquoted run up to the next separator or line end.
    let j = i;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d === sep || d === 10 || d === 13) break;
      j++;
    }
    field += text.slice(i, j);
    fieldStarted = true;
    i = j;
  }
  const last = endRow();
  if (last) yield last;
}

/** Quotes a value for CSV output when it contains a separator, quote or newline. */
export function csvField(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
