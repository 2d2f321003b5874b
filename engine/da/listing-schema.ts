/**
 * JSON Schemas (2020-12) of the DA listing's documents: the OpenAPI description publishes them and the
 * contract tests validate every response against them, so the two cannot drift apart.
 */
import { STATES } from '../catalogue/states.js';
import { COST_BANDS } from './bands.js';
import { DA_CATEGORIES } from './categories.js';
import { APPLICATION_TYPES, LAND_USES } from './derived-fields.js';
import { DECISION_STATUSES, STATUS_GROUPS } from './status-rules.js';

type Obj = Record<string, unknown>;

const str: Obj = { type: 'string' };
const nullable = (s: Obj): Obj => ({ anyOf: [s, { type: 'null' }] });
const date: Obj = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const count: Obj = { type: 'integer', minimum: 0 };
/** A string of `values`. */
export const enumOf = (values: readonly string[]): Obj => ({ type: 'string', enum: [...values] });
/** A closed object: every property given is required unless `required` says otherwise. */
export const obj = (properties: Obj, required = Object.keys(properties)): Obj => ({ type: 'object', required, properties, additionalProperties: false });

/** A record of `/v1/das` and `/v1/das/nearby` (engine/da/da-record.ts `daListingItem`). */
export const DA_RECORD_PROPERTIES: Obj = {
  id: { type: 'integer', minimum: 1 },
  council_reference: str,
  council_name: str,
  state: enumOf(STATES),
  address: str,
  address_suburb: str,
  address_postcode: nullable({ type: 'string', pattern: '^\\d{4}$' }),
  description: str,
  trade_category: enumOf(DA_CATEGORIES),
  trade_category_name: str,
  categories: { type: 'array', items: enumOf(DA_CATEGORIES), minItems: 1, description: 'Every category the description matches, the primary (trade_category) first.' },
  sub_category: nullable(enumOf(DA_CATEGORIES)),
  application_type: enumOf(APPLICATION_TYPES),
  land_use: nullable(enumOf(LAND_USES)),
  building_type: nullable(str),
  is_residential: { type: 'boolean' },
  lodgement_date: date,
  status: { type: 'string', description: "The council's own status text ('' when it publishes none)." },
  status_group: enumOf(STATUS_GROUPS),
  decision_date: nullable(date),
  decision_status: nullable(enumOf(DECISION_STATUSES)),
  on_notice_from: nullable(date),
  on_notice_to: nullable(date),
  cost_of_development: nullable({ type: 'number', minimum: 0, description: 'Dollars, as the council publishes it.' }),
  value_band: enumOf([...COST_BANDS.map((b) => b.band), 'unknown']),
  value_band_basis: enumOf(['published_cost', 'typical_cost_for_category', 'none']),
  number_of_dwellings: nullable(count),
  lot_count: nullable(count),
  storeys: nullable(count),
  applicant_name: nullable(str),
  latitude: nullable({ type: 'number', minimum: -90, maximum: 90 }),
  longitude: nullable({ type: 'number', minimum: -180, maximum: 180 }),
  geocoded: { type: 'boolean' },
  info_url: str,
  info_url_type: enumOf(['application_record', 'search_entry']),
  data_source: str,
  date_fetched: { type: 'string', format: 'date-time' },
  observed_at: nullable({ type: 'string', format: 'date-time' }),
};

const pages = obj({ page: { type: 'integer', minimum: 1 }, per_page: { type: 'integer', minimum: 1, maximum: 100 }, total: count, total_pages: count, next: nullable(str) });
/** The `meta` of a paged list, with `extra` fields. */
export const listMeta = (extra: Obj = {}) => obj({ pages, query: { type: 'object' }, order: str, as_at: nullable(str), ...extra });

/** `GET /v1/das`. */
export const DA_LIST_SCHEMA: Obj = obj({ data: { type: 'array', items: obj(DA_RECORD_PROPERTIES) }, meta: listMeta() });

/** `GET /v1/das/nearby`. */
export const DA_NEARBY_SCHEMA: Obj = obj({ data: { type: 'array', items: obj({ ...DA_RECORD_PROPERTIES, distance_km: { type: 'number', minimum: 0 } }) }, meta: listMeta() });

/** `GET /v1/das/{id}`. */
export const DA_DETAIL_SCHEMA: Obj = obj({ data: obj({ ...DA_RECORD_PROPERTIES, summary: str, summary_method: str }) });

/** `GET /v1/categories`. */
export const DA_CATEGORIES_SCHEMA: Obj = obj({
  data: { type: 'array', minItems: DA_CATEGORIES.length, maxItems: DA_CATEGORIES.length, items: obj({ slug: enumOf(DA_CATEGORIES), name: str, count }) },
  meta: obj({ total: count, query: { type: 'object' }, as_at: nullable(str) }),
});

/** `GET /v1/councils`. */
export const DA_COUNCILS_SCHEMA: Obj = obj({
  data: { type: 'array', items: obj({ name: str, state: enumOf(STATES), count, last_updated: str, geocoded_pct: { type: 'number', minimum: 0, maximum: 100 }, status_present_pct: { type: 'number', minimum: 0, maximum: 100 } }) },
  meta: obj({ total: count, query: { type: 'object' } }),
});

/** `GET /v1/stats`. */
export const DA_STATS_SCHEMA: Obj = obj({
  data: obj({
    total: count,
    councils: count,
    geocoded: count,
    geocoded_pct: { type: 'number', minimum: 0, maximum: 100 },
    residential: count,
    by_state: obj(Object.fromEntries(STATES.map((s) => [s, count]))),
    by_category: obj(Object.fromEntries(DA_CATEGORIES.map((c) => [c, count]))),
    by_status_group: obj(Object.fromEntries(STATUS_GROUPS.map((g) => [g, count]))),
    lodged: obj({ earliest: nullable(date), latest: nullable(date) }),
    as_at: nullable(str),
  }),
});
