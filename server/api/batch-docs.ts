/**
 * The batch jobs' part of the OpenAPI document (operation-docs.ts `batchDoc`, held by the batch routes): the operations
 * with their parameters, bodies and answers, and the schemas of a job and of a result row.
 */
import { BATCH_CSV_FIELDS, BATCH_ROW_STATUSES, BATCH_RESULT_COLUMNS, MAX_BATCH_ROWS } from '../../engine/entry/batch.js';
import { BLOCK_SELECTORS, PROPERTY_BLOCKS } from '../../engine/entry/property.js';
import type { ErrorCode } from '../http/api-error.js';
import { BATCH_MAX_BODY } from '../http/limits.js';
import type { RouteValue } from './route-value.js';
import { BATCH_RETRY_AFTER_S, BATCH_UPLOAD_TYPES, DEFAULT_BATCH_LIMITS, days, type BatchOperation } from '../batch/batch-jobs.js';
import { BATCH_JOB_STATUSES } from '../store/batch-store.js';
import { mib } from '../store/batch-store.js';

type Obj = Record<string, unknown>;

/** What openapi.ts lends: its error answers. */
export interface OpenApiHelpers {
  errorResponse(status: number): Obj;
  jsonError(description: string, codes: ErrorCode[]): Obj;
  notAllowed(route: RouteValue): Obj;
}

const nullable = (type: string, extra: Obj = {}): Obj => ({ type: [type, 'null'], ...extra });

/** The schemas the batch operations refer to. */
export const BATCH_SCHEMAS: Obj = {
  BatchJob: {
    type: 'object',
    required: ['id', 'status', 'created_at', 'started_at', 'finished_at', 'expires_at', 'rows_total', 'rows_done', 'rows_failed', 'rows_skipped', 'charged', 'stored_bytes', 'rows_per_second', 'eta_seconds', 'input_format', 'format', 'components', 'include_geometry', 'callback_url', 'error', 'url', 'results_url'],
    properties: {
      id: { type: 'string', pattern: '^batch_[0-9a-f]{20}$' },
      status: { enum: [...BATCH_JOB_STATUSES] },
      created_at: { type: 'string', format: 'date-time' },
      started_at: nullable('string', { format: 'date-time' }),
      finished_at: nullable('string', { format: 'date-time' }),
      expires_at: nullable('string', { format: 'date-time', description: `When the job and its results are removed: the server's retention after it finished (${days(DEFAULT_BATCH_LIMITS.retentionMs)} unless its operator set another).` }),
      rows_total: { type: 'integer', minimum: 0, maximum: MAX_BATCH_ROWS },
      rows_done: { type: 'integer', minimum: 0, description: 'Rows looked up, whatever their status.' },
      rows_failed: { type: 'integer', minimum: 0, description: 'Rows looked up whose status is not ok.' },
      rows_skipped: { type: 'integer', minimum: 0, description: 'Rows never looked up: the job stopped (quota, cancel) before them.' },
      charged: { type: 'integer', minimum: 0, description: 'Unique addresses this job charged to the key (a repeat in the period is free).' },
      stored_bytes: { type: 'integer', minimum: 0, description: 'Bytes the job holds in the store (its rows not yet looked up, its results and their distinct payloads, compressed): what counts toward the key\'s stored-bytes limit.' },
      rows_per_second: nullable('number'),
      eta_seconds: nullable('integer', { description: 'Seconds left at the rate so far; 0 once finished, null before the first chunk.' }),
      input_format: { enum: ['csv', 'jsonl'] },
      format: { enum: ['csv', 'jsonl', 'geojson'], description: 'The results\' default format.' },
      components: nullable('array', { items: { type: 'string' } }),
      include_geometry: { type: 'boolean' },
      callback_url: nullable('string', { format: 'uri' }),
      error: { anyOf: [{ type: 'null' }, { type: 'object', required: ['error', 'message'], properties: { error: { enum: ['quota_exceeded', 'cancelled', 'key_revoked', 'storage_limit', 'internal_error'] }, message: { type: 'string' } }, additionalProperties: true }] },
      url: { type: 'string' },
      results_url: { type: 'string' },
    },
  },
  BatchResultRow: {
    type: 'object',
    description: 'One row of the results in JSON lines (each line one of these); GeoJSON features carry the same as properties but `resolved_lat` and `resolved_lng`, which are the point geometry. The fields are named as the CSV\'s result columns are.',
    required: ['row', 'input', 'status', 'error', 'error_message', 'resolved_address', 'match_confidence', 'charged', 'payload'],
    properties: {
      row: { type: 'integer', minimum: 1, description: 'The data row of the input (1 is the first after the header).' },
      input: { type: 'object', description: 'The row\'s columns as given.' },
      status: { enum: [...BATCH_ROW_STATUSES] },
      error: nullable('string', { description: 'The error code a single lookup of the row answers with (address_unresolvable, outside_coverage, invalid_subject, invalid_parameter), or why it was not looked up: quota_exceeded, cancelled, key_revoked, storage_limit, internal_error.' }),
      error_message: nullable('string', { description: 'The error in words.' }),
      resolved_address: nullable('string'),
      match_confidence: nullable('number', { description: 'As the payload\'s `resolved.match_confidence`: text relevance of the accepted address, 0-1.' }),
      resolved_lat: nullable('number'),
      resolved_lng: nullable('number'),
      charged: { type: 'boolean', description: 'This row charged a new unique address to the key.' },
      payload: { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/PropertySample' }], description: 'The property payload (status ok), as GET /api/v1/property answers without `usage`.' },
    },
  },
};

/** The per-key limits as the document states them (the server's defaults). */
const LIMITS = `Each key may have ${DEFAULT_BATCH_LIMITS.jobs} jobs queued or running at once (429 \`too_many_batch_jobs\` past that, with Retry-After), and its kept jobs may hold ${mib(DEFAULT_BATCH_LIMITS.storedBytes)} in the store (inputs not yet looked up, results and their distinct payloads, compressed: each job's \`stored_bytes\`; 413 \`batch_storage_full\` for an upload past it, and a running job that passes it stops, \`failed\` with \`storage_limit\`); a finished job is kept ${days(DEFAULT_BATCH_LIMITS.retentionMs)}. These are the defaults: an operator may set others, and the 413 and 429 bodies name the server's.`;

const CSV_COLUMNS = `The input's columns first (a name a result column takes is renamed input_<name>), then ${[...BATCH_RESULT_COLUMNS, 'charged'].join(', ')}, then the selected components flattened: ${BATCH_CSV_FIELDS.map((f) => `${f.name} (${f.description})`).join('; ')}.`;

/** One batch operation. */
export function batchOperation(route: RouteValue, method: string, op: BatchOperation, base: Obj, h: OpenApiHelpers): Obj {
  base.operationId = `${base.operationId}_${method.toLowerCase()}`;
  base.security = [{ bearer: [] }];
  const json = (schema: Obj, description: string) => ({ description, content: { 'application/json': { schema } } });
  const header = (base.parameters as Obj[] | undefined) ?? [];
  const idParam = { name: 'id', in: 'path', required: true, description: 'The job id (batch_...).', schema: { type: 'string' } };
  const query422 = (what: string, codes: ErrorCode[] = ['unknown_parameter', 'duplicate_parameter', 'invalid_parameter']) => h.jsonError(what, codes);
  if (op === 'create') {
    const q = (name: string, schema: Obj, description: string) => ({ name, in: 'query', required: false, description, schema });
    base.parameters = [
      q('components', { type: 'string', examples: ['scores.flood,planning,hazards'] }, `Comma-separated subset, as GET /api/v1/property takes it (intersected with the key's licence). Blocks: ${PROPERTY_BLOCKS.join(', ')}; dotted selectors such as ${PROPERTY_BLOCKS.flatMap((b) => BLOCK_SELECTORS[b].slice(0, 1).map((s) => `${b}.${s}`)).slice(0, 4).join(', ')}.`),
      q('include_geometry', { type: 'string', enum: ['1', '0', 'true', 'false'], default: '0' }, 'Clipped GeoJSON in each payload (JSON lines, GeoJSON). Needs the geometry licence (403).'),
      q('format', { enum: ['csv', 'jsonl', 'geojson'] }, 'The results\' default format: csv for a CSV upload, jsonl for JSON lines.'),
      q('callback_url', { type: 'string', format: 'uri' }, 'https URL (public addresses only) that receives a signed `batch.completed` webhook with the finished job, per Standard Webhooks, signed with the `callback_secret` of the 202.'),
      q('delimiter', { enum: [',', ';', 'tab', '|'] }, 'The CSV\'s delimiter (default: the one its header row uses most).'),
      ...header,
    ];
    base.requestBody = {
      required: true,
      description: `At most ${BATCH_MAX_BODY / 1024 / 1024} MiB and ${MAX_BATCH_ROWS.toLocaleString('en-AU')} rows.`,
      content: {
        ...Object.fromEntries(BATCH_UPLOAD_TYPES.csv.map((t) => [t, { schema: { type: 'string', description: 'CSV with a header row: an address column, or lat and lng columns; other columns are carried through.' } }])),
        ...Object.fromEntries(BATCH_UPLOAD_TYPES.jsonl.map((t) => [t, { schema: { type: 'string', description: 'JSON lines: one object per line with address, or lat and lng; other keys are carried through.' } }])),
      },
    };
    base.responses = {
      202: {
        ...json({ allOf: [{ $ref: '#/components/schemas/BatchJob' }, { properties: { callback_secret: { type: 'string', pattern: '^whsec_' }, callback_secret_note: { type: 'string' } } }] }, 'Accepted: the job, queued. With a callback_url, its signing secret (shown only here).'),
        headers: { Location: { description: 'The job\'s URL.', schema: { type: 'string' } } },
      },
      401: h.errorResponse(401),
      403: h.jsonError('The key covers no property component, or not what was asked (include_geometry without the geometry licence, components none of which it covers).', ['not_licensed']),
      405: h.notAllowed(route),
      413: h.jsonError(`The upload is larger than ${BATCH_MAX_BODY / 1024 / 1024} MiB (\`payload_too_large\`, \`limit\` the bytes), or the key's kept jobs would hold more than its stored-bytes limit with it (\`batch_storage_full\`: \`max_stored_bytes\`, \`stored_bytes\`, \`upload_bytes\`, and \`frees_at\`, when the next finished job expires). ${LIMITS}`, ['payload_too_large', 'batch_storage_full']),
      415: h.jsonError(`The Content-Type is neither CSV (${BATCH_UPLOAD_TYPES.csv.join(', ')}) nor JSON lines (${BATCH_UPLOAD_TYPES.jsonl.join(', ')}).`, ['unsupported_media_type']),
      429: { ...h.jsonError(`The key has its limit of jobs queued or running (\`too_many_batch_jobs\`: \`max_jobs\`, \`open_jobs\`); retry after Retry-After (${BATCH_RETRY_AFTER_S} s) or when one finishes.`, ['too_many_batch_jobs']), headers: { 'Retry-After': { description: 'Seconds to wait before uploading again.', schema: { type: 'integer' } } } },
      422: query422('The upload cannot be read as a whole (`invalid_body`: empty, not UTF-8, no header, no address or lat/lng column, a duplicate column, malformed CSV quoting, more than 1,000,000 rows), or a bad query parameter (`parameter` names it; a callback_url that is not a public https URL).', ['invalid_body', 'invalid_parameter', 'unknown_parameter', 'duplicate_parameter']),
    };
    return base;
  }
  base.parameters = [idParam, ...(op === 'results' ? [{ name: 'format', in: 'query', required: false, description: 'csv, jsonl or geojson (default the job\'s).', schema: { enum: ['csv', 'jsonl', 'geojson'] } }] : []), ...header];
  const ok =
    op === 'results'
      ? {
          description: `The results, streamed (chunked), every input row once in input order. CSV: ${CSV_COLUMNS} JSON lines: one BatchResultRow per line. GeoJSON: a FeatureCollection, one Point feature per row (null geometry when it did not resolve), one feature per line. Headers Batch-Status and Batch-Rows-Done say how far the job was when the download began.`,
          headers: { 'Batch-Status': { schema: { enum: [...BATCH_JOB_STATUSES] } }, 'Batch-Rows-Done': { schema: { type: 'integer' } }, 'Content-Disposition': { schema: { type: 'string' } } },
          content: {
            'text/csv': { schema: { type: 'string' } },
            'application/x-ndjson': { schema: { type: 'string', description: 'One BatchResultRow (see components) per line.' } },
            'application/geo+json': { schema: { type: 'object', required: ['type', 'features'], properties: { type: { const: 'FeatureCollection' }, features: { type: 'array', items: { type: 'object', required: ['type', 'geometry', 'properties'], properties: { type: { const: 'Feature' } } } } } } },
          },
        }
      : json({ $ref: '#/components/schemas/BatchJob' }, op === 'cancel' ? 'The job, cancelled (or as it was, when it had finished).' : 'The job.');
  base.responses = {
    200: ok,
    401: h.errorResponse(401),
    404: h.jsonError('No such job on this key (or it expired).', ['not_found']),
    405: h.notAllowed(route),
    422: query422(op === 'results' ? 'A query parameter other than format, or a format that is not csv, jsonl or geojson.' : 'A query parameter: this operation takes none.'),
  };
  return base;
}
