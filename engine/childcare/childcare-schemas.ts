/**
 * JSON Schemas (2020-12) of the childcare service's JSON answers (spec 2.1, 2.3, 4.2): the feed (`GET
 * /api/v1/das` on a childcare key), `/schema`, `/analysis`, `/site-analysis` and the GeoJSON export. The OpenAPI
 * documents publish them and the conformance suite validates every answer with them. Where the spec leaves
 * inner fields "not shown" (breakdown rows, demand signals, per-council diagnostics, the suburb context), the
 * schema states what this service sends.
 */
import { STATES } from '../catalogue/states.js';
import { CHILDCARE_STAGES, CHILDCARE_WORKS_TYPES } from '../da/categories.js';
import { DA_RECORD_PROPERTIES, enumOf, listMeta, obj } from '../da/listing-schema.js';
import { PRODUCT, PRODUCT_VERSION } from './analysis.js';

type Obj = Record<string, unknown>;

const str: Obj = { type: 'string' };
const strings: Obj = { type: 'array', items: str };
const count: Obj = { type: 'integer', minimum: 0 };
const pct: Obj = { anyOf: [{ type: 'number', minimum: 0, maximum: 100 }, { type: 'null' }] };
const nullable = (s: Obj): Obj => ({ anyOf: [s, { type: 'null' }] });
const date: Obj = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const timestamp: Obj = { type: 'string', format: 'date-time' };
const state = enumOf(STATES);
const open = (properties: Obj, required = Object.keys(properties)): Obj => ({ type: 'object', required, properties });
/** A GeoJSON point, [longitude, latitude]. */
const point = obj({ type: { const: 'Point' }, coordinates: { type: 'array', prefixItems: [{ type: 'number', minimum: -180, maximum: 180 }, { type: 'number', minimum: -90, maximum: 90 }], minItems: 2, maxItems: 2 } });

const licences: Obj = { type: 'array', items: obj({ source: str, licence: str }) };

/** The notices block every childcare answer carries (server/api/childcare-handlers.ts `noticesBlock`). */
export const NOTICES_SCHEMA = obj({ attribution: strings, licences, keep: str });

/** A feed row (engine/childcare/analysis.ts `childcareFeedItem`): the DA record and the childcare fields. */
const FEED_ITEM: Obj = {
  ...DA_RECORD_PROPERTIES,
  childcare_pipeline_stage: enumOf(CHILDCARE_STAGES),
  childcare_works_type: enumOf(CHILDCARE_WORKS_TYPES),
  observed_at: { ...timestamp, description: 'When the record was last seen at its council (best effort; not a deletion stream or a change cursor).' },
};
/** A feed row as a GeoJSON feature's properties: its coordinates are the geometry. */
const { latitude: _lat, longitude: _lng, ...FEED_POINT } = FEED_ITEM;

/** `GET /api/v1/das` on a childcare key. */
export const CHILDCARE_FEED_SCHEMA = obj({
  data: { type: 'array', items: obj(FEED_ITEM) },
  meta: listMeta({ product: { const: PRODUCT }, version: { const: PRODUCT_VERSION }, notices: NOTICES_SCHEMA, data_boundaries: strings }),
});

/** One breakdown row: the key (a stage, works type, state, council or suburb), its count and share of the total. */
const breakdownRows = { type: 'array', items: obj({ key: str, count, share: { type: 'number', minimum: 0, maximum: 1 }, state }, ['key', 'count', 'share']) };

/** A map feature of an analysis: a childcare DA as a point, newest lodged first (`rank`). */
const analysisFeature = obj({
  type: { const: 'Feature' },
  geometry: point,
  properties: obj({
    id: { type: 'integer', minimum: 1 },
    council_reference: str,
    council_name: str,
    state,
    address: str,
    lodgement_date: date,
    status: str,
    council_url: str,
    council_url_type: enumOf(['application_record', 'search_entry']),
    childcare_pipeline_stage: enumOf(CHILDCARE_STAGES),
    childcare_works_type: enumOf(CHILDCARE_WORKS_TYPES),
    rank: { type: 'integer', minimum: 1 },
  }),
});

/** The analysis of `/analysis` (the `data` object of spec 2.3), and the base of a site analysis. */
const ANALYSIS_PROPERTIES: Obj = {
  scope: open({ product: { const: PRODUCT }, version: { const: PRODUCT_VERSION }, states: { type: 'array', items: state }, since: nullable(date), as_at: nullable(str), catchment: { type: ['object', 'null'], description: 'The circle or polygon of a site analysis; null for a whole-state analysis.' } }, ['product', 'version', 'states', 'since', 'catchment', 'as_at']),
  headline: obj({ total: count, under_assessment: count, advertised: count, approved: count, refused: count }),
  trend: { type: 'array', items: obj({ month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' }, total: count }), description: 'Every month from the first lodgement to the last, zero months included.' },
  breakdowns: obj({ stage: breakdownRows, works_type: breakdownRows, state: breakdownRows, council: breakdownRows, suburb: breakdownRows }),
  coverage: obj({
    records: count,
    geocoded_pct: pct,
    council_reference_pct: pct,
    status_present_pct: pct,
    geojson_truncated: { type: 'boolean' },
    freshness: obj({ latest_fetched: nullable(str), store_as_at: nullable(str) }),
    states: { type: 'array', items: obj({ state, records: count, councils: count, geocoded_pct: pct, last_updated: nullable(str) }) },
    councils: { type: 'array', items: obj({ council: str, state, records: count, geocoded_pct: pct, status_present_pct: pct, last_updated: nullable(str) }) },
  }),
  demand_signals: obj({ all_development: count, subdivisions: count, lots: count, dwellings: count, scope: enumOf(['catchment', 'state']), note: str }),
  geojson: obj({ type: { const: 'FeatureCollection' }, crs_note: str, features: { type: 'array', items: analysisFeature }, total_features: count, truncated: { type: 'boolean' } }),
  notices: obj({ attribution: strings, licences, keep: str, data_boundaries: strings }),
};

const envelope = (data: Obj): Obj => obj({ data, meta: obj({ product: { const: PRODUCT }, version: { const: PRODUCT_VERSION }, data_boundaries: strings }) });

/** `GET /api/v1/childcare/analysis`. */
export const CHILDCARE_ANALYSIS_SCHEMA = envelope(obj(ANALYSIS_PROPERTIES));

/** `GET|POST /api/v1/childcare/site-analysis`: the analysis of a catchment, its open schools and its suburb's census context. */
export const CHILDCARE_SITE_SCHEMA = envelope(
  obj({
    ...ANALYSIS_PROPERTIES,
    schools: open({ available: { type: 'boolean' }, count, reason: enumOf(['coverage_gap', 'not_held']), note: str, attribution: strings, features: nullable({ type: 'object' }) }, ['available', 'note']),
    suburb_context: open({ available: { type: 'boolean' }, scope: { const: 'suburb' }, suburb: nullable(str), state }, ['available']),
  }),
);

/** `GET /api/v1/childcare/schema`: product, version, the key's licence, the dimensions, paths, limits, notices. */
export const CHILDCARE_SCHEMA_SCHEMA = obj({
  product: { const: PRODUCT },
  version: { const: PRODUCT_VERSION },
  licence: obj({ status: { const: 'active' }, expires_at: nullable(date), allowed_states: { type: 'array', items: state }, add_on: nullable(str) }),
  dimensions: obj({ childcare_pipeline_stage: { type: 'array', items: enumOf(CHILDCARE_STAGES) }, childcare_works_type: { type: 'array', items: enumOf(CHILDCARE_WORKS_TYPES) }, state: { type: 'array', items: state }, breakdowns: strings, headline: strings }),
  endpoints: strings,
  limits: { type: 'object' },
  notices: NOTICES_SCHEMA,
  data_boundaries: strings,
});

/** `GET /api/v1/childcare/export?format=geojson`: every geocoded entitled row as a point, then the metadata. */
export const CHILDCARE_GEOJSON_SCHEMA = obj({
  type: { const: 'FeatureCollection' },
  features: {
    type: 'array',
    items: obj({ type: { const: 'Feature' }, geometry: point, properties: obj(FEED_POINT) }),
  },
  metadata: obj({
    product: { const: PRODUCT },
    version: { const: PRODUCT_VERSION },
    crs: { const: 'EPSG:4326' },
    coordinate_order: { const: '[longitude, latitude]' },
    records: count,
    features: count,
    not_geocoded: count,
    truncated: { type: 'boolean' },
    features_left_out: count,
    attribution: strings,
    licences,
    data_boundaries: strings,
  }),
});
