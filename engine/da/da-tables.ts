/**
 * The DA tables, described once (../tables/table-schema.ts) and rendered for the SQLite store (da-store.ts)
 * and the PostgreSQL log (server/store/pg/pg-da-log.ts).
 *
 * Both keep the records (`das`), the webhook outbox (`da_events`) and the dataset files loaded
 * (`das_sources`). The listing's indexes, the summary tables and the radius snapshot are the SQLite store's
 * alone: in a PostgreSQL deployment each replica keeps them in its local SQLite copy (da-replica.ts), and
 * the database is only the log every copy follows (`das_seq`).
 */
import type { IndexDef, TableDef } from '../tables/table-schema.js';

const FACETS = ['state', 'trade_category', 'status_group', 'is_residential'] as const;

/** A listing index: led by its filter column, continued by the listing order and the facets it lacks. */
const listing = (name: string, lead: readonly string[]): IndexDef => ({
  name,
  columns: [...lead, 'lodgement_date', 'id', ...FACETS.filter((f) => !lead.includes(f))],
  only: 'sqlite',
});

const text = (name: string) => ({ name, type: 'text' as const });
const optText = (name: string) => ({ name, type: 'text' as const, nullable: true });
const int = (name: string) => ({ name, type: 'integer' as const });
const optInt = (name: string) => ({ name, type: 'integer' as const, nullable: true });
const optReal = (name: string) => ({ name, type: 'real' as const, nullable: true });
const blob = (name: string) => ({ name, type: 'blob' as const });

export const DA_TABLES: readonly TableDef[] = [
  { name: 'das_meta', columns: [text('key'), text('value')], primaryKey: ['key'], only: 'sqlite' },
  {
    name: 'das',
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'council_name', type: 'text', nocase: true },
      text('council_reference'), text('state'), text('address'), text('address_suburb'), text('suburb_key'), optText('address_postcode'),
      text('description'), text('trade_category'), text('categories'), optText('sub_category'), text('application_type'), int('is_residential'),
      text('lodgement_date'), text('status'), text('status_group'), optText('decision_date'), optText('decision_status'), optText('on_notice_from'),
      optText('on_notice_to'), optReal('cost_of_development'), optText('cost_band'), text('value_band'), optInt('number_of_dwellings'),
      optInt('lot_count'), optInt('storeys'), optText('land_use'), optText('building_type'), optText('applicant_name'), optReal('latitude'),
      optReal('longitude'), text('info_url'), text('info_url_type'), text('data_source'), text('date_fetched'), optText('observed_at'),
      { name: 'seq', type: 'bigint' },
    ],
    primaryKey: ['id'],
    indexes: [
      // A council matches without case (COLLATE NOCASE in SQLite, lower() in PostgreSQL).
      { name: 'das_identity', columns: ['state', 'council_name', 'council_reference'], unique: true },
      { name: 'das_seq', columns: ['seq'] },
      listing('das_lodged', []),
      listing('das_state', ['state']),
      listing('das_state_category', ['state', 'trade_category']),
      listing('das_category', ['trade_category']),
      listing('das_status_group', ['status_group']),
      listing('das_residential', ['is_residential']),
      listing('das_council', ['council_name']),
      listing('das_suburb', ['suburb_key']),
      listing('das_postcode', ['address_postcode']),
    ],
  },
  {
    name: 'das_counts',
    columns: [text('state'), text('trade_category'), text('status_group'), int('is_residential'), int('n')],
    primaryKey: ['state', 'trade_category', 'status_group', 'is_residential'],
    withoutRowid: true,
    only: 'sqlite',
  },
  {
    name: 'das_councils',
    columns: [text('state'), { name: 'council_name', type: 'text', nocase: true }, int('n'), int('geocoded'), int('status_present'), text('last_updated')],
    primaryKey: ['state', 'council_name'],
    withoutRowid: true,
    only: 'sqlite',
  },
  { name: 'das_days', columns: [text('lodgement_date'), int('n')], primaryKey: ['lodgement_date'], withoutRowid: true, only: 'sqlite' },
  {
    name: 'das_dev_days',
    columns: [text('state'), text('lodgement_date'), int('n'), int('subdivisions'), int('lots'), int('dwellings')],
    primaryKey: ['state', 'lodgement_date'],
    withoutRowid: true,
    only: 'sqlite',
  },
  { name: 'das_sources', columns: [text('source'), text('fingerprint'), int('records'), text('imported_at')], primaryKey: ['source'] },
  {
    name: 'das_spatial',
    columns: [
      int('id'), { name: 'seq', type: 'bigint' }, int('count'), text('extent'), blob('tree'), blob('coords'), blob('ids'), blob('lodged'), blob('category'), blob('grp'),
      // Added in schema 5 (area analyses); a snapshot without them is rebuilt.
      { name: 'state', type: 'blob', nullable: true }, { name: 'lots', type: 'blob', nullable: true }, { name: 'dwellings', type: 'blob', nullable: true },
    ],
    primaryKey: ['id'],
    check: 'id = 1',
    only: 'sqlite',
  },
  {
    // The webhooks' outbox: written in the records' transaction (da-events.ts).
    name: 'da_events',
    columns: [{ name: 'seq', type: 'serial' }, { name: 'id', type: 'text', unique: true }, text('type'), { name: 'da_id', type: 'bigint' }, text('created_at'), text('data')],
    indexes: [{ name: 'da_events_created', columns: ['created_at'] }],
  },
];
