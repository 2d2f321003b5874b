/**
 * The DA store's SQLite schema and the mapping between a {@link DaRecord} and its row.
 *
 * The tables themselves are described in da-tables.ts. Column names are the listing's (and the original service's SQL) names. Every list filter has an index
 * led by its column and continued by (lodgement_date, id), the listing's order, then by the small facet
 * columns (state, trade_category, status_group, is_residential): a page, a deep page (OFFSET over the index)
 * and a count for any filter, alone or with the facets, are answered from one index without reading rows.
 *
 * Two summary tables are kept in the same transactions as the records: `das_counts` (records per state,
 * category, status group and residential flag; at most 1,680 rows) answers /categories, /stats and the
 * totals of filters made only of those four at once; `das_councils` answers /councils.
 */
import type Database from 'better-sqlite3';
import type { StateCode } from '../catalogue/states.js';
import type { DaCategory } from './categories.js';
import type { ApplicationType, LandUse } from './derived-fields.js';
import type { DaDraft, DaRecord } from './da-record.js';
import type { DecisionStatus, StatusGroup } from './status-rules.js';
import { createTableSql, type TableDef } from '../tables/table-schema.js';
import { DA_TABLES } from './da-tables.js';

const table = (name: string): TableDef => DA_TABLES.find((t) => t.name === name)!;

/**
 * The layout version of the DA tables (das_meta.schema_version). 3 added das_days (records per lodgement
 * day, so a since/until filter is counted from at most a few thousand rows) and lays the radius snapshot out
 * in Z-order. 4 added das_dev_days (records, subdivisions, lots and dwellings per state and lodgement day,
 * so the childcare analysis's demand signals for a state and period sum a few thousand rows instead of
 * reading hundreds of thousands). Older stores are migrated when opened ({@link migrateDaSchema}).
 */
export const DA_SCHEMA_VERSION = 5;

/**
 * The version of the derivations stored with each row (classifier, status rules, bands, derived fields).
 * A store written by another version is re-derived from its raw fields when opened.
 */
export const DA_DERIVATION_VERSION = 2;

/** Drops a store written by an older layout (version 1 kept each record as JSON in `das.json`). */
export function dropLegacyLayout(db: Database.Database): boolean {
  const cols = db.prepare("SELECT name FROM pragma_table_info('das')").pluck().all() as string[];
  if (!cols.length || !cols.includes('json')) return false;
  db.exec('DROP TABLE das');
  return true;
}

/** A row of `das` as SQLite returns it. */
export interface DaRow {
  id: number;
  council_name: string;
  council_reference: string;
  state: string;
  address: string;
  address_suburb: string;
  suburb_key: string;
  address_postcode: string | null;
  description: string;
  trade_category: string;
  categories: string;
  sub_category: string | null;
  application_type: string;
  is_residential: number;
  lodgement_date: string;
  status: string;
  status_group: string;
  decision_date: string | null;
  decision_status: string | null;
  on_notice_from: string | null;
  on_notice_to: string | null;
  cost_of_development: number | null;
  cost_band: string | null;
  value_band: string;
  number_of_dwellings: number | null;
  lot_count: number | null;
  storeys: number | null;
  land_use: string | null;
  building_type: string | null;
  applicant_name: string | null;
  latitude: number | null;
  longitude: number | null;
  info_url: string;
  info_url_type: string;
  data_source: string;
  date_fetched: string;
  observed_at: string | null;
  seq: number;
}

/** The columns written for a record, in table order (without `id` and `seq`). */
export const CONTENT_COLUMNS = [
  'council_name', 'council_reference', 'state', 'address', 'address_suburb', 'suburb_key', 'address_postcode', 'description', 'trade_category',
  'categories', 'sub_category', 'application_type', 'is_residential', 'lodgement_date', 'status', 'status_group', 'decision_date', 'decision_status',
  'on_notice_from', 'on_notice_to', 'cost_of_development', 'cost_band', 'value_band', 'number_of_dwellings', 'lot_count', 'storeys', 'land_use',
  'building_type', 'applicant_name', 'latitude', 'longitude', 'info_url', 'info_url_type', 'data_source', 'date_fetched', 'observed_at',
] as const;

/** Columns that record when a record was seen, not what it says: a change in these alone is a refresh. */
export const SEEN_COLUMNS: ReadonlySet<string> = new Set(['date_fetched', 'observed_at']);

/**
 * What identifies a record when importing, in the words the CLI help and the README both use: a council is
 * named by its state as well (Central Coast Council is in NSW and in Tasmania), and its name matches without
 * case.
 */
export const UPSERT_KEY = '(state, council, council reference)';

/**
 * What writing `values` over the stored row `old` amounts to: `unchanged` (write nothing), `refreshed` (only
 * when it was seen changed) or `changed`. The council's own spelling of its name stays as first stored
 * (names match without case): `values.council_name` takes `old`'s. `data_source` names the file or feed a
 * record came from, not what it says: the same record from a file of another name is not a change, and keeps
 * the source it was first stored from (a changed record takes the new one). Shared by the SQLite store and
 * the PostgreSQL log (server/store/pg/pg-da-log.ts), so both decide alike.
 */
export function compareWithStored(values: Record<string, unknown>, old: Record<string, unknown>): 'unchanged' | 'refreshed' | 'changed' {
  values.council_name = old.council_name;
  let content = false, seen = false;
  for (const c of CONTENT_COLUMNS) {
    if (old[c] === values[c] || c === 'data_source') continue;
    if (SEEN_COLUMNS.has(c)) seen = true;
    else content = true;
  }
  if (!content) values.data_source = old.data_source;
  return content ? 'changed' : seen ? 'refreshed' : 'unchanged';
}

/** The suburb filter's key: case and spacing folded. */
export function suburbKey(suburb: string): string {
  return suburb.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The row values of a record (every content column). */
export function rowValues(r: DaDraft): Record<(typeof CONTENT_COLUMNS)[number], string | number | null> {
  return {
    council_name: r.council,
    council_reference: r.ref,
    state: r.state,
    address: r.address,
    address_suburb: r.suburb,
    suburb_key: suburbKey(r.suburb),
    address_postcode: r.postcode,
    description: r.description,
    trade_category: r.category,
    categories: r.categories.join(','),
    sub_category: r.categories[1] ?? null,
    application_type: r.application_type,
    is_residential: r.residential ? 1 : 0,
    lodgement_date: r.lodged,
    status: r.status,
    status_group: r.status_group,
    decision_date: r.decided,
    decision_status: r.decision_status,
    on_notice_from: r.public_notice_from,
    on_notice_to: r.public_notice_to,
    cost_of_development: r.cost,
    cost_band: r.cost_band,
    value_band: r.estimated_value_band,
    number_of_dwellings: r.dwellings,
    lot_count: r.lots,
    storeys: r.storeys,
    land_use: r.land_use,
    building_type: r.building_type,
    applicant_name: r.applicant,
    latitude: r.lat,
    longitude: r.lng,
    info_url: r.council_url,
    info_url_type: r.council_url_type,
    data_source: r.source,
    date_fetched: r.last_fetched_at,
    observed_at: r.observed_at,
  };
}

/** The record of a row. */
export function recordOfRow(row: DaRow): DaRecord {
  return {
    id: row.id,
    ref: row.council_reference,
    council: row.council_name,
    address: row.address,
    suburb: row.address_suburb,
    state: row.state as StateCode,
    postcode: row.address_postcode,
    description: row.description,
    status: row.status,
    status_group: row.status_group as StatusGroup,
    decision_status: row.decision_status as DecisionStatus | null,
    lodged: row.lodgement_date,
    decided: row.decision_date,
    cost: row.cost_of_development,
    dwellings: row.number_of_dwellings,
    storeys: row.storeys,
    lots: row.lot_count,
    applicant: row.applicant_name,
    public_notice_from: row.on_notice_from,
    public_notice_to: row.on_notice_to,
    lat: row.latitude,
    lng: row.longitude,
    council_url: row.info_url,
    council_url_type: row.info_url_type as DaRecord['council_url_type'],
    last_fetched_at: row.date_fetched,
    observed_at: row.observed_at,
    source: row.data_source,
    category: row.trade_category as DaCategory,
    categories: row.categories.split(',') as DaCategory[],
    residential: row.is_residential === 1,
    cost_band: row.cost_band,
    estimated_value_band: row.value_band,
    land_use: row.land_use as LandUse | null,
    building_type: row.building_type,
    application_type: row.application_type as ApplicationType,
  };
}

/**
 * Brings a store of an older layout version up to {@link DA_SCHEMA_VERSION} in one transaction; returns
 * false for a version it cannot migrate. Version 2 -> 3: das_days, filled from the rows, and the radius
 * snapshot dropped (rebuilt in Z-order on open). Version 3 -> 4: das_dev_days, filled from the rows. Version
 * 4 -> 5: the radius snapshot gains each record's state, lots and dwellings (for area analyses); the old
 * snapshot is dropped and rebuilt on open.
 */
export function migrateDaSchema(db: Database.Database, from: number): boolean {
  if (from !== 2 && from !== 3 && from !== 4) return false;
  db.transaction(() => {
    const spatialColumns = new Set((db.prepare('PRAGMA table_info(das_spatial)').all() as { name: string }[]).map((c) => c.name));
    for (const c of ['state', 'lots', 'dwellings']) if (spatialColumns.size && !spatialColumns.has(c)) db.exec(`ALTER TABLE das_spatial ADD COLUMN ${c} BLOB`);
    db.exec('DELETE FROM das_spatial');
    if (from === 4) {
      db.prepare("UPDATE das_meta SET value = ? WHERE key = 'schema_version'").run(String(DA_SCHEMA_VERSION));
      return;
    }
    if (from === 2) {
      db.exec(createTableSql(table('das_days'), 'sqlite'));
      db.exec('INSERT INTO das_days (lodgement_date, n) SELECT lodgement_date, count(*) FROM das GROUP BY lodgement_date');
      // Version 3 snapshots are laid out in Z-order (da-spatial.ts); an older one is rebuilt when the store opens.
      db.exec('DELETE FROM das_spatial');
    }
    db.exec(createTableSql(table('das_dev_days'), 'sqlite'));
    db.exec('DELETE FROM das_dev_days');
    db.exec(`INSERT INTO das_dev_days (state, lodgement_date, n, subdivisions, lots, dwellings)
      SELECT state, lodgement_date, count(*), sum(trade_category = 'subdivision'), coalesce(sum(lot_count), 0), coalesce(sum(number_of_dwellings), 0) FROM das GROUP BY state, lodgement_date`);
    db.prepare("UPDATE das_meta SET value = ? WHERE key = 'schema_version'").run(String(DA_SCHEMA_VERSION));
  }).immediate();
  return true;
}
