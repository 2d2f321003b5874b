/**
 * What the OpenAPI document says of the childcare operations, the keyless pages and the tiles (the rest is in
 * operation-docs.ts, whose shared answers these use).
 */
import type { SampleName } from '../../engine/entry/property.js';
import { STATES } from '../../engine/entry/data.js';
import type { ChildcareOperation } from './childcare-handlers.js';
import { CHILDCARE_403, childcare400, errorResponse, jsonError, keyless, missing, notAllowed, ok, requestIdParam, type OperationDoc } from './operation-docs.js';

type Obj = Record<string, unknown>;

/** A childcare operation (GET). */
export function childcareDoc(op: ChildcareOperation): OperationDoc {
  return (route, base) => {
    const q = (name: string, schema: Obj, description: string, required = false) => ({ name, in: 'query', required, description, schema });
    const common = [q('state', { enum: [...STATES] }, 'State or territory; must be in the key\'s entitlement.', op === 'site-analysis'), q('since', { type: 'string', format: 'date' }, 'Lodged on or after (YYYY-MM-DD).'), q('feature_limit', { type: 'integer', minimum: 0, maximum: 5000, default: 500 }, 'Map features at most; never changes counts.')];
    const format = op === 'report' ? q('format', { enum: ['pdf', 'html'] }, 'pdf (a download) or html (one self-contained file).', true) : q('format', { enum: ['csv', 'geojson'], default: 'csv' }, 'The file format.');
    const site = op === 'site-analysis' || op === 'report';
    if (op === 'report') common[0].required = true;
    base.parameters = [
      ...(op === 'schema' || op === 'reconciliation-helper' ? [] : op === 'export' ? [format, common[0], common[1]] : op === 'report' ? [format, ...common] : common),
      ...(site ? [q('lat', { type: 'number', minimum: -90, maximum: 90 }, 'Site latitude (WGS84).', true), q('lng', { type: 'number', minimum: -180, maximum: 180 }, 'Site longitude (WGS84).', true), q('radius_km', { type: 'number', minimum: 0.1, maximum: 30, default: 5 }, 'Catchment radius, km.'), q('suburb', { type: 'string' }, 'The suburb whose census context is shown (a suburb fact, never a catchment statistic); default the suburb of the nearest address to the site.')] : []),
      requestIdParam(),
    ];
    base.security = [{ bearer: [] }];
    base.responses = {
      200:
        op === 'export'
          ? { description: 'The file (Content-Disposition: attachment), streamed. CSV carries its notices in X-Data-Attribution and X-Data-Licence.', content: { 'text/csv': { schema: { type: 'string' } }, 'application/geo+json': { schema: { $ref: '#/components/schemas/ChildcareGeoJson' } } } }
          : op === 'report'
            ? { description: 'The report: PDF as a download (Content-Disposition: attachment; filename=childcare-report-<state>-<date>.pdf), or HTML inline (one file, no external request).', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } }, 'text/html': { schema: { type: 'string' } } } }
          : op === 'reconciliation-helper'
            ? { description: 'The Python 3 script (Content-Disposition: attachment).', content: { 'text/x-python': { schema: { type: 'string' } } } }
            : { description: op === 'schema' ? 'Product, version, licence, dimensions, paths and notices.' : '`data` (scope, headline, trend, breakdowns, coverage, demand_signals, geojson, notices) and `meta`.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${op === 'schema' ? 'ChildcareSchema' : op === 'analysis' ? 'ChildcareAnalysis' : 'ChildcareSiteAnalysis'}` } } } },
      400: childcare400(op === 'site-analysis' || op === 'report' ? ['invalid_location'] : []),
      401: errorResponse(401),
      403: jsonError('The licence: no childcare entitlement, inactive or expired, add-on not enabled, or a state outside the entitlement.', CHILDCARE_403),
      422: jsonError('A required parameter is missing (state, lat, lng, format), an unknown or repeated parameter, or another bad value (a state that does not exist, feature_limit, format): `parameter` names it.', ['missing_parameter', 'unknown_parameter', 'duplicate_parameter', 'invalid_parameter']),
      429: op === 'report' ? jsonError('The key\'s daily limit is used up, or the report renderer is busy: this key has as many reports waiting as the renderer has slots, or no slot came free for it within 10 s (a key renders at most half the slots at once, `per_key`) (Retry-After: do not fan out report requests).', ['daily_limit_exceeded', 'renderer_busy']) : jsonError('The key\'s daily limit is used up.', ['daily_limit_exceeded']),
      ...(op === 'report' ? { 503: jsonError('The report renderer failed or is unavailable: retry after Retry-After, and use /site-analysis (JSON) or /export (CSV) meanwhile.', ['renderer_failed', 'renderer_unavailable']) } : {}),
      405: notAllowed(route),
    };
    return base;
  };
}

/** A childcare operation's POST form: a polygon catchment in the body. */
export function childcarePostDoc(op: 'site-analysis' | 'report'): OperationDoc {
  return (route, base) => {
    const post = childcareDoc(op)(route, base);
    post.operationId = `${post.operationId}_post`;
    const report = op === 'report';
    post.summary = report ? 'A finished PDF or HTML report of a polygon catchment' : 'Catchment analysis for a polygon';
    post.description = (report ? 'The report (see GET) of the polygon site analysis: `format` pdf or html in the query, the body as for POST /site-analysis. ' : '') + 'The analysis of /analysis inside `catchment`, a GeoJSON Polygon in longitude/latitude (a Feature wrapper and holes accepted; DAs in a hole are outside): closed rings, no ring crossing itself or another, at most 5,000 vertices and 30 km from the centre of its box to any vertex, every vertex in `state` (required, entitled). Body at most 1 MiB (413 beyond).';
    post.parameters = (post.parameters as Obj[]).filter((x) => x.in === 'header' || (report && x.name === 'format'));
    post.requestBody = {
      required: true,
      content: { 'application/json': { schema: { type: 'object', required: ['state', 'catchment'], additionalProperties: false, properties: { state: { enum: [...STATES] }, suburb: { type: 'string' }, since: { type: 'string', format: 'date' }, feature_limit: { type: 'integer', minimum: 0, maximum: 5000 }, include_access: { const: false }, catchment: { type: 'object', description: 'GeoJSON Polygon (or Feature with one).' } } } } },
    };
    const responses = post.responses as Obj;
    responses[400] = childcare400(['invalid_polygon']);
    responses[413] = jsonError('The body is larger than 1 MiB.', ['payload_too_large']);
    responses[422] = jsonError('The body is not JSON or not an object, its catchment is not a GeoJSON Polygon (`invalid_body`); a required field is missing (state, catchment); an unknown field or query parameter; or another bad value (a state that does not exist, feature_limit, format).', ['invalid_body', 'missing_parameter', 'unknown_parameter', 'duplicate_parameter', 'invalid_parameter']);
    return post;
  };
}

/** A canned sample: the payload of a keyless request, so no `usage` (nothing is metered). */
export function sampleDoc(name: SampleName): OperationDoc {
  return keyless((route, base) => {
    base.responses = { ...ok(route, name === 'sample' ? { $ref: '#/components/schemas/PropertySample' } : name === 'core' ? { $ref: '#/components/schemas/CoreSample' } : { type: 'object' }), ...missing('The samples are not installed on this server (datasets/samples/).', 'sample_unavailable') };
  });
}

/** A keyless JSON page answering `schema`. */
export function jsonPageDoc(schema: Obj): OperationDoc {
  return keyless((route, base) => {
    base.responses = ok(route, schema);
  });
}

/** A keyless page of `type` (HTML by default), 404 with `absent` when the server may not have it. */
export function pageDoc(type = 'text/html', absent?: string): OperationDoc {
  return keyless((route, base) => {
    base.responses = { ...ok(route, { type: 'string' }, type), ...(absent ? missing(absent) : {}) };
  });
}

/** `GET /healthz`. */
export const healthDoc: OperationDoc = jsonPageDoc({
  type: 'object',
  required: ['status', 'version'],
  properties: {
    status: { enum: ['ok', 'warming'], description: '`warming` while the engine builds its models and HAND tiles after a start (requests are answered meanwhile), then `ok`.' },
    warming: { type: 'string', description: 'What the warm-up is doing; present only while `status` is `warming`.' },
    version: { type: 'string' },
    server: { type: 'string' },
    in_flight: { type: 'integer' },
  },
});

/** `GET /map/point`. */
export const mapPointDoc: OperationDoc = keyless((route, base) => {
  base.parameters = [{ name: 'lat', in: 'query', required: true, description: 'Latitude (WGS84).', schema: { type: 'number' } }, { name: 'lng', in: 'query', required: true, description: 'Longitude (WGS84).', schema: { type: 'number' } }, ...((base.parameters as Obj[]) ?? [])];
  base.responses = { ...ok(route, { type: 'object', description: 'Address, scores with levels, hazards, DAs near.' }), 422: jsonError('lat or lng is missing or not WGS84 degrees, or another parameter; or the point is outside every dataset the server holds (`outside_coverage`).', ['invalid_parameter', 'unknown_parameter', 'duplicate_parameter', 'outside_coverage']), ...missing('Not the sample world: use /api/v1/property with a key.') };
});

const TILE_LAYERS = ['das', 'zones', 'overlays', 'flood', 'bushfire', 'schools', 'parcels', 'roads', 'water', 'contours', 'noise', 'hand'];
const pathParam = (name: string, schema: Obj, description: string): Obj => ({ name, in: 'path', required: true, description, schema });
const tileParams = (): Obj[] => [pathParam('z', { type: 'integer', minimum: 0, maximum: 18 }, 'Zoom (each layer has its own range: see its TileJSON).'), pathParam('x', { type: 'integer', minimum: 0 }, 'Column, 0 to 2^z - 1.'), pathParam('y', { type: 'integer', minimum: 0 }, 'Row, 0 to 2^z - 1 (XYZ scheme, north first).')];

/** `GET /api/v1/tiles/{layer}.json`. */
export const tileJsonDoc: OperationDoc = keyless((route, base) => {
  base.responses = {
    ...ok(route, {
      type: 'object',
      required: ['tilejson', 'tiles', 'minzoom', 'maxzoom', 'bounds', 'attribution'],
      description: 'TileJSON 3.0.0: `vector_layers` (with every field a layer\'s tiles can carry) for a vector layer; `encoding` and `tileSize` for the terrain layer.',
      properties: {
        tilejson: { const: '3.0.0' },
        tiles: { type: 'array', items: { type: 'string' }, minItems: 1 },
        minzoom: { type: 'integer', minimum: 0 },
        maxzoom: { type: 'integer', maximum: 30 },
        bounds: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
        vector_layers: { type: 'array', items: { type: 'object', required: ['id', 'fields'], properties: { id: { type: 'string' }, fields: { type: 'object', additionalProperties: { type: 'string' } } } } },
        encoding: { enum: ['terrarium'] },
        tileSize: { const: 256 },
      },
      oneOf: [{ required: ['vector_layers'] }, { required: ['encoding', 'tileSize'] }],
    }),
    ...missing('No such layer.', 'unknown_layer'),
  };
  base.parameters = [pathParam('layer', { type: 'string', enum: [...TILE_LAYERS, 'terrain'] }, 'The tile layer (`terrain`: a raster-dem TileJSON, with `encoding` and `tileSize`).'), ...(base.parameters as Obj[])];
});

/** A vector tile (`mvt`) or a terrain tile (`terrain`): a key with the geometry licence on real data; none on the sample world. */
export function tileDoc(kind: 'mvt' | 'terrain'): OperationDoc {
  return keyless((route, base) => {
    base.parameters = [...(kind === 'terrain' ? [] : [pathParam('layer', { type: 'string', enum: TILE_LAYERS }, 'The tile layer.')]), ...tileParams(), ...(base.parameters as Obj[])];
    base.security = [{ bearer: [] }, {}];
    base.responses = {
      200:
        kind === 'terrain'
          ? { description: 'The Terrarium PNG, with ETag and Cache-Control.', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } }
          : { description: 'The tile (gzipped when accepted), with ETag and Cache-Control.', content: { 'application/vnd.mapbox-vector-tile': { schema: { type: 'string', format: 'binary' } } } },
      ...(kind === 'mvt' ? { 204: { description: 'An empty tile (no body).' } } : {}),
      304: { description: 'Not modified (If-None-Match matched the ETag).' },
      401: errorResponse(401),
      403: jsonError('Real data: the key lacks the geometry licence.', ['geometry_not_licensed']),
      404: kind === 'terrain' ? jsonError('This server makes no tiles, or holds no DEM.', ['not_found', 'unknown_layer']) : jsonError('No such layer (or this server makes no tiles).', ['unknown_layer', 'not_found']),
      405: notAllowed(route),
      422: jsonError('z outside the layer\'s zooms (contours below 12 are too coarse), x/y outside the grid (`invalid_tile`), or a query parameter (tiles take none).', ['invalid_tile', 'unknown_parameter', 'invalid_parameter', 'duplicate_parameter']),
    };
  });
}

