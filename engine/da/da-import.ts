/**
 * Importing a file of DA records into a store (`propintel das import`): JSON lines or CSV, in our fields, the
 * listing's names or PlanningAlerts' export fields (da-record.ts). Rows upsert on (state, council, council
 * reference) (da-schema.ts `UPSERT_KEY`) and are classified on the way in. A row with an empty description is a
 * record (classified `other`); the same record again from a file of another name is not a change.
 *
 * All or nothing by default: a file that cannot be read (bad JSON, a CSV row with the wrong number of
 * fields, a missing required column) or that has any row that cannot be read changes nothing, and every bad
 * row is named with its line and reason. With `skipInvalid` the good rows are imported and the bad ones
 * reported. The whole import is one transaction, so a failure part-way (a full disk) also changes nothing.
 */
import { basename } from 'node:path';
import { EngineError } from '../errors.js';
import { readRecords } from '../vector/records.js';
import { parseDaRows, type RejectedRow } from './da-record.js';
import type { DaDraft } from './da-record.js';
import type { UpsertOutcome, UpsertResult } from './da-store.js';

/**
 * Where an import writes: a DA store (engine/da/da-store.ts), or the records a PostgreSQL database shares
 * between replicas (server/store/pg/pg-da-log.ts).
 */
export interface DaImportTarget {
  upsert(drafts: readonly DaDraft[]): UpsertResult | Promise<UpsertResult>;
  /** Rebuilds indexes after a large import (a local store's radius snapshot). */
  compact?(): void;
}

/** Options of {@link importDaFile}. */
export interface DaImportOptions {
  /** `csv` or `jsonl`; default from the file's extension (.csv, .jsonl, .ndjson). */
  format?: 'csv' | 'jsonl';
  /** The records' `data_source` when a row names none; default the file's name without its extension. */
  source?: string;
  /** Import the readable rows and report the others (default false: any bad row stops the import). */
  skipInvalid?: boolean;
  /** `date_fetched` of rows that carry none (default now). */
  now?: Date;
}

/** What an import did. */
export interface DaImportReport {
  file: string;
  format: 'csv' | 'jsonl';
  /** Data rows read. */
  rows: number;
  /** True when the store was written. */
  applied: boolean;
  added: number;
  changed: number;
  refreshed: number;
  unchanged: number;
  rejected: RejectedRow[];
  /** Per imported row: its row number, the id it has in the store and what happened. */
  outcomes: { row: number; id: number; outcome: UpsertOutcome }[];
}

/** Column sets a file must have (any one name of each). */
const REQUIRED: { what: string; any: string[] }[] = [
  { what: 'council', any: ['council', 'council_name', 'authority'] },
  { what: 'council reference', any: ['council_reference', 'ref'] },
  { what: 'lodgement date', any: ['lodged', 'lodgement_date', 'date_received'] },
];

/** Rows imported in one go; above this the store's radius snapshot is rebuilt at the end. */
const COMPACT_AFTER = 10_000;

/** Imports one file into `store` (see the module comment). */
export async function importDaFile(store: DaImportTarget, file: string, options: DaImportOptions = {}): Promise<DaImportReport> {
  const format = options.format ?? (/\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : /\.csv$/i.test(file) ? 'csv' : null);
  if (!format) throw new EngineError('INVALID_ARGUMENT', `${file}: cannot tell the format from the name; use a .csv or .jsonl file, or name the format`, { parameter: 'format', file });
  const set = await readRecords(file, { format });
  const missing = REQUIRED.filter((r) => !r.any.some((c) => set.columns.includes(c)));
  if (set.rows.length && missing.length) {
    throw new EngineError('INVALID_DATA', `${file}: missing column(s) for ${missing.map((m) => `${m.what} (${m.any.join(' or ')})`).join(', ')}; nothing was imported`, { file, missing: missing.map((m) => m.what) });
  }
  const source = options.source ?? basename(file).replace(/\.[^.]+$/, '');
  const parsed = parseDaRows(set.rows, source, { now: options.now, lines: set.lines });
  const report: DaImportReport = { file, format, rows: set.rows.length, applied: false, added: 0, changed: 0, refreshed: 0, unchanged: 0, rejected: parsed.rejected, outcomes: [] };
  if (parsed.rejected.length && !options.skipInvalid) return report;
  const r = await store.upsert(parsed.drafts);
  Object.assign(report, { applied: true, added: r.added, changed: r.changed, refreshed: r.refreshed, unchanged: r.unchanged });
  report.outcomes = r.outcomes.map((o, i) => ({ row: parsed.rows[i], id: o.id, outcome: o.outcome }));
  if (r.added + r.changed + r.refreshed > COMPACT_AFTER) store.compact?.();
  return report;
}
