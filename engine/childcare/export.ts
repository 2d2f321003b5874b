/**
 * Childcare exports (spec 4.2 `/export`): the entitled childcare rows of a state as CSV or GeoJSON.
 *
 * Cells are written by csv-cells.ts: every text field quoted (safe under any list separator), NUL removed,
 * a formula start after leading white space or invisible format characters neutralised with an apostrophe,
 * numeric columns as numbers.
 *
 * Rows come from the store's in-memory copy of the childcare category (DaStore.categoryRecords, which the
 * analysis reads too), taken once when the export starts, so the file is one consistent snapshot; they are
 * formatted a page at a time as the transport asks for the next chunk, so an export adds one page of text to
 * memory whatever its size (flat memory), and a slow client slows the formatting.
 */
import type { StateCode } from '../catalogue/states.js';
import type { DaRecord } from '../da/da-record.js';
import type { DaReader } from '../da/da-store.js';
import { childcarePipelineStage, childcareWorksType } from '../da/childcare.js';
import { childcareFeedItem, DATA_BOUNDARIES, GENERIC_NOTICES, PRODUCT, PRODUCT_VERSION, type SourceNotice } from './analysis.js';
import { csvField } from './csv-cells.js';

/** The export's columns, in order; `numeric` ones are written as numbers. */
export const EXPORT_COLUMNS: { name: string; numeric?: boolean }[] = [
  { name: 'id', numeric: true },
  { name: 'council_reference' },
  { name: 'council_name' },
  { name: 'state' },
  { name: 'address' },
  { name: 'address_suburb' },
  { name: 'address_postcode' },
  { name: 'childcare_pipeline_stage' },
  { name: 'childcare_works_type' },
  { name: 'status' },
  { name: 'lodgement_date' },
  { name: 'decision_date' },
  { name: 'cost_of_development', numeric: true },
  { name: 'latitude', numeric: true },
  { name: 'longitude', numeric: true },
  { name: 'info_url' },
  { name: 'data_source' },
  { name: 'observed_at' },
];

export { csvField, neutralise } from './csv-cells.js';

const PAGE = 2000;

/** One CSV line of {@link EXPORT_COLUMNS} (the feed item's values, read straight from the record). */
function exportRow(r: DaRecord): string {
  const t = csvField;
  return [
    r.id, t(r.ref), t(r.council), t(r.state), t(r.address), t(r.suburb), t(r.postcode), t(childcarePipelineStage(r.status)), t(childcareWorksType(r.description)),
    t(r.status), t(r.lodged), t(r.decided), t(r.cost, true), t(r.lat, true), t(r.lng, true), t(r.council_url), t(r.source), t(r.observed_at ?? r.last_fetched_at),
  ].join(',');
}

/** Every childcare record of `states` (since `since`), a page at a time, newest first. */
function* pages(das: DaReader, states: readonly StateCode[], since?: string): Generator<DaRecord[]> {
  const all = das.categoryRecords('childcare');
  const wanted = new Set<string>(states);
  let page: DaRecord[] = [];
  for (const r of all) {
    if (!wanted.has(r.state) || (since && r.lodged < since)) continue;
    page.push(r);
    if (page.length === PAGE) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/** The CSV export, a chunk at a time (the header line, then a chunk per page of records): nothing is read early. */
export function* childcareCsvChunks(das: DaReader, states: readonly StateCode[], since?: string, count?: { rows: number }): Generator<Buffer> {
  yield Buffer.from(`${EXPORT_COLUMNS.map((c) => c.name).join(',')}\r\n`);
  for (const page of pages(das, states, since)) {
    let chunk = '';
    for (const r of page) chunk += `${exportRow(r)}\r\n`;
    if (count) count.rows += page.length;
    yield Buffer.from(chunk);
  }
}

/** The CSV export whole, as parts, and its row count (tests, benchmarks). */
export function childcareCsv(das: DaReader, states: readonly StateCode[], since?: string): { parts: Buffer[]; rows: number } {
  const count = { rows: 0 };
  const parts = [...childcareCsvChunks(das, states, since, count)];
  return { parts, rows: count.rows };
}

/** The GeoJSON export whole, as parts (tests). */
export function childcareGeoJson(das: DaReader, states: readonly StateCode[], since?: string, limit = Infinity): { parts: Buffer[] } {
  return { parts: [...childcareGeoJsonChunks(das, states, since, limit)] };
}

/** The GeoJSON export a chunk at a time: geocoded records as points, then the metadata (counts, truncation, notices). */
export function* childcareGeoJsonChunks(das: DaReader, states: readonly StateCode[], since?: string, limit = Infinity, notices: SourceNotice[] = GENERIC_NOTICES([])): Generator<Buffer> {
  yield Buffer.from('{"type":"FeatureCollection","features":[');
  let features = 0, records = 0, cut = 0, first = true;
  for (const page of pages(das, states, since)) {
    let chunk = '';
    for (const r of page) {
      records++;
      if (r.lat === null || r.lng === null) continue;
      if (features >= limit) {
        cut++;
        continue;
      }
      const { latitude: _lat, longitude: _lng, ...properties } = childcareFeedItem(r);
      chunk += `${first ? '' : ','}${JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: [r.lng, r.lat] }, properties })}`;
      first = false;
      features++;
    }
    yield Buffer.from(chunk);
  }
  const meta = { product: PRODUCT, version: PRODUCT_VERSION, crs: 'EPSG:4326', coordinate_order: '[longitude, latitude]', records, features, not_geocoded: records - features - cut, truncated: cut > 0, features_left_out: cut, attribution: notices.map((n) => n.attribution), licences: notices.map((n) => ({ source: n.source, licence: n.licence })), data_boundaries: DATA_BOUNDARIES };
  yield Buffer.from(`],"metadata":${JSON.stringify(meta)}}`);
}
