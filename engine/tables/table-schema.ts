/**
 * Tables described once, rendered for SQLite and for PostgreSQL.
 *
 * The stores keep the same table families in both databases (API keys and the meter, request limits,
 * webhooks, DA records and their event outbox). Each is described here as data, with a column type
 * vocabulary of our own, and the DDL of each dialect is rendered from that description. So a column
 * cannot be named differently in the two (as `window` and `win` once were), and a test reads both
 * databases' live catalogues back and compares them with the description.
 *
 * A database written by an older version is brought to the description by {@link sqliteReconcile} and
 * {@link postgresReconcile}: missing tables and indexes are created, a column renamed since (`renamedFrom`)
 * is renamed, a column added since is added (nullable or with a default, so old rows read as before), and
 * (SQLite) an index whose columns changed is rebuilt.
 */
import type Database from 'better-sqlite3';

export type Dialect = 'sqlite' | 'postgres';

/**
 * Column types. `integer` is 32-bit in PostgreSQL, `bigint` 64-bit (both SQLite INTEGER); `real` is a double;
 * `boolean` is SQLite INTEGER 0/1; `json` is SQLite TEXT, PostgreSQL jsonb; `serial` is an auto-numbered
 * 64-bit key (SQLite INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL bigserial).
 */
export type ColumnType = 'text' | 'integer' | 'bigint' | 'real' | 'boolean' | 'json' | 'blob' | 'serial';

export interface ColumnDef {
  name: string;
  type: ColumnType;
  /** NULL allowed (default: NOT NULL). */
  nullable?: boolean;
  /** A constant default. */
  default?: string | number | boolean;
  /** Compared without case: SQLite COLLATE NOCASE; PostgreSQL indexes it as lower(column). */
  nocase?: boolean;
  unique?: boolean;
  /** The column's name in databases written before it was renamed, per dialect. */
  renamedFrom?: Partial<Record<Dialect, string>>;
  /** Only in one dialect (with why, in the table's comment). */
  only?: Dialect;
}

export interface IndexDef {
  name: string;
  columns: readonly string[];
  unique?: boolean;
  /** A partial index's condition (the same SQL in both dialects). */
  where?: string;
  only?: Dialect;
}

export interface TableDef {
  name: string;
  columns: readonly ColumnDef[];
  /** Omitted when one column is `serial` (it is the key). */
  primaryKey?: readonly string[];
  /** A table CHECK constraint (the same SQL in both dialects). */
  check?: string;
  /** SQLite WITHOUT ROWID (a clustered key); PostgreSQL has no such choice. */
  withoutRowid?: boolean;
  indexes?: readonly IndexDef[];
  /** Only in one dialect: a replica's local summary, or a cache the other keeps elsewhere. */
  only?: Dialect;
}

const TYPES: Record<Dialect, Record<ColumnType, string>> = {
  sqlite: { text: 'TEXT', integer: 'INTEGER', bigint: 'INTEGER', real: 'REAL', boolean: 'INTEGER', json: 'TEXT', blob: 'BLOB', serial: 'INTEGER' },
  postgres: { text: 'text', integer: 'integer', bigint: 'bigint', real: 'double precision', boolean: 'boolean', json: 'jsonb', blob: 'bytea', serial: 'bigserial' },
};

const inDialect = <T extends { only?: Dialect }>(items: readonly T[] | undefined, d: Dialect): T[] => (items ?? []).filter((x) => !x.only || x.only === d);

/** The tables and columns a dialect has. */
export function tablesFor(tables: readonly TableDef[], d: Dialect): TableDef[] {
  return inDialect(tables, d).map((t) => ({ ...t, columns: inDialect(t.columns, d), indexes: inDialect(t.indexes, d) }));
}

function literal(v: string | number | boolean, d: Dialect): string {
  if (typeof v === 'boolean') return d === 'sqlite' ? (v ? '1' : '0') : String(v);
  if (typeof v === 'number') return String(v);
  return `'${v.replaceAll("'", "''")}'`;
}

/** One column's definition in a CREATE TABLE or ADD COLUMN. */
export function columnSql(c: ColumnDef, d: Dialect, inlineKey = false): string {
  const parts = [c.name, TYPES[d][c.type]];
  if (inlineKey) parts.push(c.type === 'serial' && d === 'sqlite' ? 'PRIMARY KEY AUTOINCREMENT' : 'PRIMARY KEY');
  else if (!c.nullable) parts.push('NOT NULL');
  if (c.default !== undefined) parts.push(`DEFAULT ${literal(c.default, d)}`);
  if (c.unique) parts.push('UNIQUE');
  if (c.nocase && d === 'sqlite') parts.push('COLLATE NOCASE');
  return parts.join(' ');
}

function keyOf(t: TableDef): readonly string[] {
  return t.primaryKey ?? t.columns.filter((c) => c.type === 'serial').map((c) => c.name);
}

/** CREATE TABLE for one table (as {@link tablesFor} gives it). */
export function createTableSql(t: TableDef, d: Dialect, ifNotExists = true): string {
  const key = keyOf(t);
  const lines = t.columns.map((c) => `  ${columnSql(c, d, key.length === 1 && key[0] === c.name)}`);
  if (key.length > 1) lines.push(`  PRIMARY KEY (${key.join(', ')})`);
  if (t.check) lines.push(`  CHECK (${t.check})`);
  const tail = t.withoutRowid && d === 'sqlite' ? ' WITHOUT ROWID' : '';
  return `CREATE TABLE ${ifNotExists ? 'IF NOT EXISTS ' : ''}${t.name} (\n${lines.join(',\n')}\n)${tail}`;
}

/** CREATE INDEX for one index of a table. */
export function createIndexSql(t: TableDef, i: IndexDef, d: Dialect, ifNotExists = true): string {
  const nocase = new Set(t.columns.filter((c) => c.nocase).map((c) => c.name));
  const cols = i.columns.map((c) => (d === 'postgres' && nocase.has(c) ? `lower(${c})` : c));
  return `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${ifNotExists ? 'IF NOT EXISTS ' : ''}${i.name} ON ${t.name} (${cols.join(', ')})${i.where ? ` WHERE ${i.where}` : ''}`;
}

/** Every CREATE statement of the tables, in order, for one dialect (idempotent with `ifNotExists`). */
export function createStatements(tables: readonly TableDef[], d: Dialect, ifNotExists = true): string[] {
  const out: string[] = [];
  for (const t of tablesFor(tables, d)) {
    out.push(createTableSql(t, d, ifNotExists));
    for (const i of t.indexes ?? []) out.push(createIndexSql(t, i, d, ifNotExists));
  }
  return out;
}

/** The rendered column list of a table, as a database's catalogue reports it back: name, type, NOT NULL. */
export function expectedColumns(t: TableDef, d: Dialect): { name: string; type: string; notNull: boolean }[] {
  const key = keyOf(t);
  return inDialect(t.columns, d).map((c) => ({
    name: c.name,
    // PostgreSQL reports a bigserial as bigint (with a sequence default).
    type: d === 'postgres' && c.type === 'serial' ? 'bigint' : TYPES[d][c.type],
    notNull: !c.nullable || key.includes(c.name),
  }));
}

/** What a reconcile changed, as statements run (for logs and tests). */
export type ReconcileLog = string[];

/** The ALTERs that bring a live table's columns (`live`) to the description: renames, then additions. */
function columnChanges(t: TableDef, live: ReadonlySet<string>, d: Dialect): string[] {
  return t.columns
    .filter((c) => !live.has(c.name))
    .map((c) => {
      const old = c.renamedFrom?.[d];
      return old && live.has(old) ? `ALTER TABLE ${t.name} RENAME COLUMN ${old} TO ${c.name}` : `ALTER TABLE ${t.name} ADD COLUMN ${columnSql(c, d)}`;
    });
}

/**
 * Brings a SQLite database to the description (see the module comment), in the caller's transaction or
 * none. Returns the statements run beyond the idempotent CREATEs.
 */
export function sqliteReconcile(db: Database.Database, tables: readonly TableDef[]): ReconcileLog {
  const log: ReconcileLog = [];
  for (const t of tablesFor(tables, 'sqlite')) {
    const live = new Set((db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(t.name) as string[]));
    if (live.size) {
      for (const sql of columnChanges(t, live, 'sqlite')) {
        db.exec(sql);
        log.push(sql);
      }
      for (const i of t.indexes ?? []) {
        const had = db.prepare(`SELECT name FROM pragma_index_info(?)`).pluck().all(i.name) as string[];
        const partial = (db.prepare(`SELECT partial FROM pragma_index_list(?) WHERE name = ?`).pluck().get(t.name, i.name) as number | undefined) === 1;
        if (had.length && (had.join(',') !== i.columns.join(',') || partial !== !!i.where)) {
          const sql = `DROP INDEX ${i.name}`;
          db.exec(sql);
          log.push(sql);
        }
      }
    }
    db.exec(createTableSql(t, 'sqlite'));
    for (const i of t.indexes ?? []) db.exec(createIndexSql(t, i, 'sqlite'));
  }
  return log;
}

/** The little of a PostgreSQL client {@link postgresReconcile} needs (a pg.Client or PoolClient). */
export interface PgQueryable {
  query<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/** Brings a PostgreSQL database to the description, as {@link sqliteReconcile} does (indexes are only created). */
export async function postgresReconcile(client: PgQueryable, tables: readonly TableDef[]): Promise<ReconcileLog> {
  const log: ReconcileLog = [];
  for (const t of tablesFor(tables, 'postgres')) {
    const live = new Set((await client.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`, [t.name])).rows.map((r) => r.column_name));
    if (live.size) {
      for (const sql of columnChanges(t, live, 'postgres')) {
        await client.query(sql);
        log.push(sql);
      }
    }
    await client.query(createTableSql(t, 'postgres'));
    for (const i of t.indexes ?? []) await client.query(createIndexSql(t, i, 'postgres'));
  }
  return log;
}
