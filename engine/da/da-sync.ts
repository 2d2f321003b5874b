/**
 * A dataset's DA records into a DA store. A dataset directory's `development_applications` files are
 * loaded into the store the engine opens; a table whose rows are unchanged since the store last loaded it is
 * skipped (a fingerprint per file in `das_sources`), so a persistent store keeps what `das import` added and
 * loads the dataset's records once. Loading upserts on (state, council, council reference): it never deletes.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { loadCatalogue } from '../catalogue/load-catalogue.js';
import type { DataStore } from '../data/dataset-store.js';
import { EngineError } from '../errors.js';
import { readRecords } from '../vector/records.js';
import { parseDaRows, type DaDraft } from './da-record.js';
import { DaStore } from './da-store.js';

/** One file of DA records. */
export interface DaTable {
  /** The catalogue source id (the records' `source` unless a row names its own). */
  source: string;
  /** The file's path inside the dataset (names the table in `das_sources` and in errors). */
  file: string;
  rows: readonly Record<string, unknown>[];
  /**
   * The table's fingerprint when its source knows it without the rows (a layer file's: data/windowed-store.ts
   * `recordTables`); then the rows are read only when it differs from the one the store holds. Default: a
   * fingerprint of the rows.
   */
  fingerprint?: string;
}

/** A fingerprint of a table's rows. */
export function rowsFingerprint(rows: readonly Record<string, unknown>[]): string {
  const h = createHash('sha256');
  for (const r of rows) h.update(JSON.stringify(r)).update('\n');
  return h.digest('hex').slice(0, 32);
}

/** The records of a dataset table; INVALID_DATA naming the file and every bad row when any row is bad. */
export function tableDrafts(t: DaTable): DaDraft[] {
  const { drafts, rejected } = parseDaRows(t.rows, t.source, { requireId: true });
  if (rejected.length) {
    const problems = rejected.map((r) => `row ${r.row}: ${r.reason}`);
    throw new EngineError('INVALID_DATA', `${t.file}: ${rejected.length} bad DA row(s):\n  ${problems.slice(0, 20).join('\n  ')}`, { file: t.file, problems });
  }
  return drafts;
}

/**
 * Loads every changed table into `das` (each table whole or not at all: a bad row is INVALID_DATA naming
 * the file and every bad row). Returns whether anything was loaded.
 */
export function syncDaTables(das: DaStore, tables: readonly DaTable[]): boolean {
  let changed = false;
  for (const t of tables) {
    const name = `${t.source}:${t.file}`;
    const fingerprint = t.fingerprint ?? rowsFingerprint(t.rows);
    if (das.sourceFingerprint(name) === fingerprint) continue;
    const drafts = tableDrafts(t);
    das.upsert(drafts);
    das.markSource(name, fingerprint, drafts.length);
    changed = true;
  }
  // A file store keeps a radius snapshot and planner statistics that include what was just loaded.
  if (changed && das.path !== ':memory:') das.compact();
  return changed;
}

function openAndSync(path: string, tables: () => readonly DaTable[]): DaStore {
  const das = DaStore.open(path);
  try {
    syncDaTables(das, tables());
  } catch (err) {
    das.close();
    throw err;
  }
  return das;
}

/** Opens a DA store (default in memory) with these DA tables loaded into it (read only when they are needed). */
export function daStoreFromTables(tables: () => readonly DaTable[], path = ':memory:'): DaStore {
  return openAndSync(path, tables);
}

/** Opens a DA store (default in memory) with the DA records of an opened dataset loaded into it. */
export function daStoreFromDataStore(store: DataStore, path = ':memory:'): DaStore {
  return openAndSync(path, () => store.recordsFor('development_applications').map((t) => ({ source: t.source.id, file: t.file.path, rows: t.rows })));
}

/**
 * Opens a DA store (default in memory) with the DA records of a dataset directory loaded into it, reading
 * only the catalogue and the DA files (not every layer, as opening the whole dataset would).
 */
export async function daStoreFromDirectory(dir: string, path = ':memory:'): Promise<DaStore> {
  const tables = await daTablesOfDirectory(dir);
  return openAndSync(path, () => tables);
}

/** The DA tables of a dataset directory, reading only the catalogue and the DA files. */
export async function daTablesOfDirectory(dir: string): Promise<DaTable[]> {
  const catalogue = await loadCatalogue(dir);
  const tables: DaTable[] = [];
  for (const s of catalogue.sources.filter((src) => src.paths.includes('development_applications'))) {
    for (const f of s.files) {
      const format = f.format ?? s.format;
      if (format !== 'csv' && format !== 'jsonl') continue;
      const set = await readRecords(join(catalogue.dir, f.path), { format });
      tables.push({ source: s.id, file: f.path, rows: set.rows });
    }
  }
  return tables;
}
