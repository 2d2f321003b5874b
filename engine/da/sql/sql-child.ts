/**
 * The child process that runs read-only SQL (forked by sql-runner.ts, one query at a time). It opens the SQL
 * mirror read-only, so it can read the `das` table and nothing else, and answers each `{ id, query, params }`
 * message with the rows or a refusal. The parent kills it (SIGKILL) when a query passes the time limit:
 * better-sqlite3 cannot interrupt a running statement, and a process can always be killed.
 *
 * Defences here: the text gate again (sql-gate.ts); SQLite must report the prepared statement as a reader
 * (`stmt.reader`: it returns rows) and read-only; functions that make huge values on demand are replaced
 * (randomblob and zeroblob above 1 MB, printf/format, whose width argument builds strings of any size); rows
 * are read one at a time and cut at the row cap and the byte cap (`truncated`).
 */
import Database from 'better-sqlite3';
import { gateSql } from './sql-gate.js';

/** A query sent to the child. */
export interface SqlRequest {
  id: number;
  query: string;
  params: unknown[];
  maxRows: number;
  maxBytes: number;
}

/** The child's answer. */
export type SqlReply =
  | { id: number; ok: true; columns: string[]; rows: Record<string, unknown>[]; truncated: boolean; truncated_by: 'rows' | 'bytes' | null; elapsed_ms: number }
  | { id: number; ok: false; code: string; message: string; parameter?: string };

const BLOB_LIMIT = 1 << 20;

function open(path: string): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  // Reads through mmap and a 64 MB page cache: a grouped count over a million rows reads every page.
  db.pragma('mmap_size = 1073741824');
  db.pragma('cache_size = -65536');
  // Sorts and temporary tables in memory, under the process's memory limit: never on disk, where nothing bounds them.
  db.pragma('temp_store = MEMORY');
  const refuse = (name: string, why: string) => () => {
    throw new Error(`${name}() is not available here: ${why}`);
  };
  db.function('randomblob', { deterministic: false }, (n: unknown) => {
    const size = Number(n);
    if (!(size <= BLOB_LIMIT)) throw new Error(`randomblob(${n}) is larger than ${BLOB_LIMIT} bytes`);
    const b = Buffer.alloc(Math.max(1, Math.floor(size) || 1));
    for (let i = 0; i < b.length; i++) b[i] = Math.floor(Math.random() * 256);
    return b;
  });
  db.function('zeroblob', (n: unknown) => {
    const size = Number(n);
    if (!(size <= BLOB_LIMIT)) throw new Error(`zeroblob(${n}) is larger than ${BLOB_LIMIT} bytes`);
    return Buffer.alloc(Math.max(0, Math.floor(size) || 0));
  });
  for (const name of ['printf', 'format']) db.function(name, { varargs: true }, refuse(name, 'its width argument builds strings of any size'));
  return db;
}

/** An error of memory: SQLite out of memory or a value past its length limit, or a string JavaScript cannot hold. */
function tooLarge(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_NOMEM' || code === 'SQLITE_TOOBIG' || (err instanceof RangeError && /string length|allocation/i.test(err.message));
}

/** Names for the columns, made unique (`x`, `x_2`, ...; never a name another column already has). */
function uniqueNames(columns: { name: string }[]): string[] {
  const taken = new Set<string>();
  return columns.map((c) => {
    let name = c.name;
    for (let k = 2; taken.has(name); k++) name = `${c.name}_${k}`;
    taken.add(name);
    return name;
  });
}

/** Runs one query (exported for tests that run it in process). */
export function runQuery(db: Database.Database, req: SqlRequest): SqlReply {
  const refusal = gateSql(req.query);
  if (refusal) return { id: req.id, ok: false, code: refusal.code, message: refusal.message, parameter: 'query' };
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(req.query);
  } catch (err) {
    return { id: req.id, ok: false, code: tooLarge(err) ? 'query_too_large' : 'invalid_sql', message: (err as Error).message, parameter: 'query' };
  }
  if (!stmt.reader || !stmt.readonly) return { id: req.id, ok: false, code: 'not_a_query', message: 'the statement does not return rows; only SELECT queries run here', parameter: 'query' };
  const t0 = performance.now();
  const names = uniqueNames(stmt.columns());
  const rows: Record<string, unknown>[] = [];
  let bytes = 2;
  let truncated_by: 'rows' | 'bytes' | null = null;
  try {
    for (const raw of stmt.raw().iterate(...req.params) as Iterable<unknown[]>) {
      if (rows.length >= req.maxRows) {
        truncated_by = 'rows';
        break;
      }
      // No prototype: a column named __proto__ is a column like any other.
      const row: Record<string, unknown> = Object.create(null);
      for (let i = 0; i < names.length; i++) {
        let v = raw[i];
        if (Buffer.isBuffer(v)) v = { base64: v.toString('base64') };
        else if (typeof v === 'bigint') v = Number(v);
        row[names[i]] = v;
      }
      bytes += JSON.stringify(row).length + 1;
      if (bytes > req.maxBytes) {
        truncated_by = 'bytes';
        break;
      }
      rows.push(row);
    }
  } catch (err) {
    const message = (err as Error).message;
    if (tooLarge(err)) return { id: req.id, ok: false, code: 'query_too_large', message, parameter: 'query' };
    if (err instanceof RangeError || /parameter|bind/i.test(message)) return { id: req.id, ok: false, code: 'invalid_parameter', message: `params: ${message}`, parameter: 'params' };
    return { id: req.id, ok: false, code: 'query_failed', message, parameter: 'query' };
  }
  return { id: req.id, ok: true, columns: names, rows, truncated: truncated_by !== null, truncated_by, elapsed_ms: Math.round((performance.now() - t0) * 100) / 100 };
}

// Run as the child: argv[2] is the mirror file.
if (process.send && process.argv[2] && process.env.PROPINTEL_SQL_CHILD === '1') {
  const db = open(process.argv[2]);
  process.on('message', (req: SqlRequest) => {
    let reply: SqlReply;
    try {
      reply = runQuery(db, req);
    } catch (err) {
      reply = { id: req.id, ok: false, code: 'query_failed', message: (err as Error).message };
    }
    process.send!(reply);
  });
  process.on('disconnect', () => process.exit(0));
}

export { open as openSqlDatabase };
