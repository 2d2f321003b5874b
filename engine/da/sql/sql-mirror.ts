/**
 * The read-only SQL endpoint's database: a separate SQLite file that holds one table, `das`, with the
 * columns analysts may query, kept in step with the DA store. Queries open it read-only in a child process
 * (sql-runner.ts), so the keys, the meter, webhooks and every other table of the server's store are not in
 * reach of any query: not through ATTACH, not through sqlite_master, not at all.
 *
 * Left out on purpose: descriptions, summaries and applicant names (council free text carries personal
 * details), and the store's internal columns. The file is brought up to date incrementally from the DA
 * store's change sequence (`seq`, kept in the file's `PRAGMA user_version`) before each query, so an import
 * is queryable at once; the first build copies every record (bench/sql-mcp.ts measures it).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { DaReader } from '../da-store.js';

/** The queryable columns, in the table's order (issue 17's list). */
export const SQL_COLUMNS = [
  'id', 'address', 'address_suburb', 'address_postcode', 'council_name', 'council_reference', 'state', 'trade_category', 'sub_category',
  'application_type', 'is_residential', 'lodgement_date', 'status', 'cost_of_development', 'decision_date', 'decision_status', 'on_notice_from',
  'on_notice_to', 'number_of_dwellings', 'lot_count', 'land_use', 'building_type', 'storeys', 'latitude', 'longitude', 'data_source', 'date_fetched',
  'info_url',
] as const;

const TYPES: Record<(typeof SQL_COLUMNS)[number], string> = {
  id: 'INTEGER PRIMARY KEY', address: 'TEXT', address_suburb: 'TEXT', address_postcode: 'TEXT', council_name: 'TEXT', council_reference: 'TEXT', state: 'TEXT',
  trade_category: 'TEXT', sub_category: 'TEXT', application_type: 'TEXT', is_residential: 'INTEGER', lodgement_date: 'TEXT', status: 'TEXT',
  cost_of_development: 'REAL', decision_date: 'TEXT', decision_status: 'TEXT', on_notice_from: 'TEXT', on_notice_to: 'TEXT', number_of_dwellings: 'INTEGER',
  lot_count: 'INTEGER', land_use: 'TEXT', building_type: 'TEXT', storeys: 'INTEGER', latitude: 'REAL', longitude: 'REAL', data_source: 'TEXT',
  date_fetched: 'TEXT', info_url: 'TEXT',
};

/** Indexes for the filters analysts use most (the table is the only object besides them). */
const INDEXES = ['state, lodgement_date', 'council_name COLLATE NOCASE', 'trade_category, lodgement_date', 'lodgement_date', 'address_suburb COLLATE NOCASE'];

const BATCH = 20_000;

/** The mirror file and its sync from a DA store. */
export class SqlMirror {
  private lastRevision = -1;

  constructor(readonly path: string) {}

  /**
   * Brings the file up to date with `das` (creating it when absent); returns the rows copied. Cheap when
   * nothing changed since the last call (one integer compared).
   */
  sync(das: DaReader): number {
    const revision = das.revision;
    if (revision === this.lastRevision) return 0;
    mkdirSync(dirname(this.path), { recursive: true });
    const db = new Database(this.path);
    let copied = 0;
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('cache_size = -65536');
      db.exec(`CREATE TABLE IF NOT EXISTS das (${SQL_COLUMNS.map((c) => `${c} ${TYPES[c]}`).join(', ')})`);
      let from = db.pragma('user_version', { simple: true }) as number;
      // A first build loads the rows first and indexes them after (several times faster than keeping five
      // indexes up to date row by row); later syncs update the indexes as they go.
      const createIndexes = () => INDEXES.forEach((cols, i) => db.exec(`CREATE INDEX IF NOT EXISTS das_${i} ON das (${cols})`));
      const firstBuild = from === 0;
      if (!firstBuild) createIndexes();
      const put = db.prepare(`INSERT OR REPLACE INTO das (${SQL_COLUMNS.join(', ')}) VALUES (${SQL_COLUMNS.map(() => '?').join(', ')})`);
      const apply = db.transaction((rows: unknown[][], to: number) => {
        for (const r of rows) put.run(r);
        db.pragma(`user_version = ${to}`);
      });
      for (;;) {
        const { rows, lastSeq } = das.rowsAfter(from, SQL_COLUMNS, BATCH);
        if (rows.length === 0) break;
        apply(rows, lastSeq);
        copied += rows.length;
        from = lastSeq;
        if (rows.length < BATCH) break;
      }
      if (firstBuild) createIndexes();
    } finally {
      db.close();
    }
    this.lastRevision = revision;
    return copied;
  }
}
