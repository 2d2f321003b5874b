/**
 * `propintel/das`: development applications. The DA store (SQLite, with its spatial snapshot and event
 * outbox) and its sync from a dataset's DA tables, the listing's typed queries and their JSON Schemas, categories and
 * status rules, the event vocabulary of the webhooks, the importer, and the read-only SQL runner. What the
 * server's DA listing, webhooks, SQL and MCP endpoints are built on, for a service that serves DAs itself.
 */

export { CATEGORY_NAMES, CHILDCARE_STAGES, CHILDCARE_WORKS_TYPES, DA_CATEGORIES, categoryOf } from '../da/categories.js';
export type { DaCategory } from '../da/categories.js';
export { DA_EVENT_TYPES, EVENT_RETENTION_MS, eventOf, newEventId } from '../da/da-events.js';
export type { DaEvent, DaEventType } from '../da/da-events.js';
export { importDaFile } from '../da/da-import.js';
export type { DaImportReport } from '../da/da-import.js';
export { DA_LIMITS, DA_MAX_PAGE, daStats, getDa, listCategories, listCouncils, listDas, nearbyDas } from '../da/da-listing.js';
export type { DaListPosition, DaListingItem, DaNearbyItem, DaNearbyPosition, DaPage, DaPaging } from '../da/da-listing.js';
export { daListingItem, isIsoDate, parseDaRows } from '../da/da-record.js';
export type { DaDraft, DaRecord } from '../da/da-record.js';
export { CONTENT_COLUMNS, DA_DERIVATION_VERSION, UPSERT_KEY, compareWithStored, recordOfRow, rowValues } from '../da/da-schema.js';
export type { DaRow } from '../da/da-schema.js';
export { DaStore } from '../da/da-store.js';
export { DA_TABLES } from '../da/da-tables.js';
export type { DaFilter, DaNearbyFilter, DaReader, DaService, DaWriter, ReplicatedValues, UpsertOutcome, UpsertResult } from '../da/da-store.js';
export { daStoreFromDirectory, daTablesOfDirectory, rowsFingerprint, tableDrafts } from '../da/da-sync.js';
export type { DaTable } from '../da/da-sync.js';
export { DA_CATEGORIES_SCHEMA, DA_COUNCILS_SCHEMA, DA_DETAIL_SCHEMA, DA_LIST_SCHEMA, DA_NEARBY_SCHEMA, DA_STATS_SCHEMA } from '../da/listing-schema.js';
export { SQL_MAX_BYTES, SQL_MAX_ROWS, SqlRunner } from '../da/sql/sql-runner.js';
export { STATUS_GROUPS, STATUS_RULES } from '../da/status-rules.js';
export type { StatusGroup } from '../da/status-rules.js';
export type { DaCategoriesResponse, DaCouncilsResponse, DaDetailResponse, DaListResponse, DaNearbyResponse, DaStatsResponse } from '../da/response-types.js';
