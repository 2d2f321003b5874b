/**
 * JSON Schema (draft 2020-12) of the full and core property payloads (spec sections 2-3): required keys,
 * closed enumerations for control fields, publisher-native `properties` left open. The tests validate every
 * sandbox payload against it; the OpenAPI document embeds it.
 */
import { COVERAGE_STATUSES } from '../catalogue/coverage.js';
import type { ScoreRegistry } from '../scores/registry.js';
import { SURFACES_SCHEMA } from '../scores/score-schema.js';
import { scoresSchema } from '../scores/scores-schema.js';
import { ENVIRONMENT_KEYS } from './blocks/environment.js';
import { SCHOOL_CATCHMENT_FIELDS } from './blocks/poi.js';
import { PROXIMITY_LOOKUPS } from './blocks/proximity.js';
import { PLANNING_CORE_FIELDS } from './kit/planning-core.js';

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const nullableStr: Schema = { type: ['string', 'null'] };
const num: Schema = { type: 'number' };
const arr = (items: Schema): Schema => ({ type: 'array', items });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties), extra: boolean | Schema = false): Schema => ({ type: 'object', properties, required, additionalProperties: extra });
const geometry: Schema = { type: 'object', required: ['type'], properties: { type: { enum: ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'] } } };

const layerItem: Schema = {
  type: 'object',
  required: ['source', 'state', 'properties'],
  properties: { source: str, state: nullableStr, distance_km: { type: 'number', minimum: 0 }, lat: num, lng: num, properties: { type: 'object' }, geometry, geometry_omitted: str },
  additionalProperties: false,
};

const planningItem: Schema = {
  type: 'object',
  required: ['source', 'state', 'core', 'properties'],
  properties: {
    source: str,
    state: nullableStr,
    core: obj(Object.fromEntries(PLANNING_CORE_FIELDS.map((f) => [f, nullableStr]))),
    parcel_share: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    distance_m: { type: 'number', minimum: 0 },
    direction: { enum: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] },
    geometry_clip_radius_m: num,
    properties: { type: 'object' },
    geometry,
    geometry_omitted: str,
  },
  additionalProperties: false,
};

const daItem: Schema = {
  type: 'object',
  required: ['id', 'ref', 'address', 'suburb', 'state', 'council', 'description', 'categories', 'category', 'status', 'lodged', 'lat', 'lng', 'distance_km', 'residential', 'cost_band', 'estimated_value_band', 'council_url', 'council_url_type', 'last_fetched_at'],
  properties: {
    id: { type: 'integer' }, ref: str, address: str, suburb: str, state: str, council: str, description: str,
    categories: { type: 'array', items: str, minItems: 1 }, category: str, status: str,
    lodged: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, lat: num, lng: num, distance_km: { type: 'number', minimum: 0 },
    residential: { type: 'boolean' }, cost: num, cost_band: nullableStr, estimated_value_band: str, council_url: str,
    council_url_type: { enum: ['application_record', 'search_entry'] }, last_fetched_at: str,
  },
  additionalProperties: false,
};

const floodHazardItem: Schema = {
  type: 'object',
  required: ['source', 'state', 'properties'],
  properties: { source: str, state: str, kind: str, code: nullableStr, label: nullableStr, verified: { type: 'boolean' }, response_path: str, properties: { type: 'object' }, geometry, geometry_omitted: str },
  additionalProperties: false,
};

const catchmentItem: Schema = {
  type: 'object',
  required: [...SCHOOL_CATCHMENT_FIELDS],
  properties: {
    feature_type: str, school_name: nullableStr, catchment_type: nullableStr, school_type: nullableStr, school_sector: nullableStr, year_levels: nullableStr,
    school_location: { oneOf: [{ type: 'null' }, obj({ lat: num, lng: num, source: str })] },
    geometry, geometry_omitted: str,
  },
  additionalProperties: false,
};

const keyed = (keys: readonly string[], item: Schema): Schema => ({ type: 'object', properties: Object.fromEntries(keys.map((k) => [k, arr(item)])), additionalProperties: false });

const coverageEntry = obj({ status: { enum: [...COVERAGE_STATUSES] }, feature_count: { type: 'integer', minimum: 0 }, lookup_complete: { type: 'boolean' } });

const meta = (variant: 'full' | 'core'): Schema => ({
  type: 'object',
  required: ['coverage_status', 'coverage_notes', 'components_status', 'common_core', 'licensed_components', 'attribution', 'geometry', 'zones', 'as_at', 'source_currency', 'api', ...(variant === 'core' ? ['product_contract'] : [])],
  properties: {
    coverage_status: { type: 'object', additionalProperties: coverageEntry },
    coverage_notes: { type: 'object', additionalProperties: str },
    components_status: { type: 'object', additionalProperties: { enum: ['ok', 'failed', 'not_run'] } },
    common_core: obj({ version: { const: '1.0' }, planning_fields: arr(str), school_catchment_fields: arr(str) }),
    licensed_components: arr(str),
    product_contract: obj({ name: str, included_components: arr(str), schema_version: str, geometry_policy: str }),
    attribution: obj({
      sources: arr(obj({ source: str, paths: arr(str), attribution: str, licence: str, obligation_status: { enum: ['none', 'attribution_required', 'schedule_required', 'share_alike', 'withheld'] } })),
      source_inventory_complete: { type: 'boolean' },
      obligations_complete_in_response: { type: 'boolean' },
      sources_requiring_licence_schedule: arr(str),
      rule: str,
    }),
    geometry: { type: 'object', additionalProperties: str },
    noise_sources: arr(str),
    amenity_sources: obj({ sources: arr(str), openstreetmap_categories: arr(str) }),
    surfaces: obj({ attribution: { type: 'object', additionalProperties: arr(str) }, delivered_layers: arr({ enum: ['noise', 'heat', 'contours'] }), unavailable: { type: 'object', additionalProperties: { type: 'object', required: ['reason', 'note'] } } }),
    zones: obj({ nearby_search_radius_m: { type: ['integer', 'null'] } }),
    as_at: { type: 'object', required: ['layer_features', 'proximity_features'], additionalProperties: str },
    source_currency: { type: 'object', required: ['da_records'], additionalProperties: { type: 'object', required: ['last_fetched_at', 'established', 'repull'] } },
    api: obj({ major_version: { const: 'v1' }, score_model_version: { const: 'v1' } }),
    not_charged_reason: str,
    documentation: obj({ version: str, hash: str }),
  },
  additionalProperties: false,
});

/**
 * `usage` (spec 2.9), added by the server's meter (a library lookup has none): the period's count, quota and
 * key, when it resets, whether this call was charged, and the legacy `*_month*` aliases (spec 9).
 */
export const USAGE_SCHEMA: Schema = obj({
  unique_addresses_this_period: { type: 'integer', minimum: 0 },
  period_quota: { type: 'integer', minimum: 0 },
  billing_period_key: { type: 'string', pattern: '^(\\d{6}|\\d{8})$' },
  period_kind: { enum: ['calendar', 'anchored'] },
  resets_at: { type: 'string', format: 'date-time' },
  charged: { type: 'boolean' },
  unique_addresses_this_month: { type: 'integer', minimum: 0 },
  monthly_quota: { type: 'integer', minimum: 0 },
  billing_month: { type: 'string', pattern: '^(\\d{6}|\\d{8})$' },
});

/** The payload's schema; with `registry`, its `scores` block holds those scores (default the registry's). */
export function payloadSchema(variant: 'full' | 'core', registry?: ScoreRegistry): Schema {
  const scores = scoresSchema(registry);
  const blocks: Record<string, Schema> = {
    query: obj({ address: nullableStr, lat: num, lng: num }),
    resolved: obj({
      address: nullableStr,
      point: obj({ lat: num, lng: num }),
      candidates: arr({ type: 'object', required: ['address', 'confidence'] }),
      match_confidence: { type: ['number', 'null'], minimum: 0, maximum: 1 },
      match_warnings: arr({ enum: ['state_mismatch', 'postcode_mismatch', 'locality_unverified', 'low_text_match'] }),
      match_note: str,
      parcel: { oneOf: [{ type: 'null' }, obj({ pfi: nullableStr, spi: nullableStr, lot: nullableStr, plan: nullableStr, lga: nullableStr, source: str, geometry, geometry_omitted: str }, ['pfi', 'spi', 'lot', 'plan', 'lga'])] },
    }),
    development_applications: obj({ on_parcel: arr(daItem), nearby_300m: arr(daItem) }, []),
    planning: keyed(['zone', 'overlay', 'heritage', 'easement', 'growth_area', 'zones_nearby'], planningItem),
    hazards: obj({ flood: arr(floodHazardItem), bushfire: arr(layerItem), contamination: arr(layerItem) }, []),
    environment: keyed(ENVIRONMENT_KEYS, layerItem),
    poi: obj({ schools_500m: arr(layerItem), school_catchments: arr(catchmentItem), childcare_500m: { type: 'array', maxItems: 0 }, childcare_500m_status: { const: 'withheld_pending_publisher_consent' } }, []),
    transport: keyed(Object.keys(PROXIMITY_LOOKUPS.transport), { ...layerItem, required: ['source', 'state', 'properties', 'distance_km'] }),
    utilities: keyed(Object.keys(PROXIMITY_LOOKUPS.utilities), { ...layerItem, required: ['source', 'state', 'properties', 'distance_km'] }),
    administrative: keyed(['lga', 'electorate'], layerItem),
    public_housing: keyed(['sa2', 'sa1'], layerItem),
  };
  if (variant === 'full') {
    blocks.other_layers = keyed(['sa2_approval'], layerItem);
    // Each score and surface typed by its own definition (engine/scores/score-schema.ts), under $defs below.
    blocks.scores = scores.schema;
    blocks.surfaces = SURFACES_SCHEMA;
  }
  blocks.meta = meta(variant);
  blocks.usage = USAGE_SCHEMA;
  blocks.completeness = { enum: ['full', 'partial'] };
  blocks.degraded_components = arr(str);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://propintel.dev/schemas/property-${variant}-1.0.json`,
    title: variant === 'full' ? 'Property payload (GET /api/v1/property)' : 'Core property payload (GET /api/v1/property/core)',
    type: 'object',
    required: ['query', 'resolved', 'meta', 'completeness'],
    properties: blocks,
    additionalProperties: false,
    if: { properties: { completeness: { const: 'partial' } } },
    then: { required: ['degraded_components'] },
    $defs: { layerItem, planningItem, daItem, ...(variant === 'full' ? scores.defs : {}) },
  };
}

/** The full payload's schema. */
export const PROPERTY_PAYLOAD_SCHEMA: Schema = payloadSchema('full');
/** The core payload's schema: never scores, surfaces or unknown blocks. */
export const CORE_PAYLOAD_SCHEMA: Schema = payloadSchema('core');
