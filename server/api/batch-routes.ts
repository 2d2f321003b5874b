/**
 * Portfolio batch jobs (routes.ts, `/v1/batch...` and `/api/v1/batch...`): upload a file of addresses, poll
 * its status, stream its results, cancel it. Keyed like the property endpoints and licensed the same way
 * (the rows are looked up with the key's licence, and metered as single lookups are: each unique address once
 * per billing period). The work itself is the batch worker's (server/batch/batch-runner.ts), in this server
 * or any replica sharing its database.
 */
import { BATCH_CONTENT_TYPES, BATCH_DELIMITERS, BATCH_OUTPUT_FORMATS, type BatchInputFormat, type BatchOutputFormat } from '../../engine/entry/batch.js';
import { checkLicence, resolveOptions, type PropertyLicence } from '../../engine/entry/property.js';
import { BATCH_RETRY_AFTER_S, BATCH_UPLOAD_TYPES, batchDocument, batchLimits, days, batchResults, jobFromUpload, newBatchId, type BatchFiles, type BatchLimits, type BatchOperation } from '../batch/batch-jobs.js';
import type { BatchJob, BatchKeyUsage } from '../store/batch-store.js';
import { mib } from '../store/batch-store.js';
import type { ApiKeyRecord } from '../store/store.js';
import { checkWebhookUrl, type Resolver } from '../webhooks/address-policy.js';
import { newSecret } from '../webhooks/signature.js';
import { ApiError, badParameter } from '../http/api-error.js';
import { JSON_TYPE, type ApiContext, type ApiRequest, type ApiResponse } from './api-types.js';
import { BATCH_MAX_BODY } from '../http/limits.js';
import { decodeQuery, rejectUnknown } from './query.js';
import { booleanText } from '../http/query-values.js';
import { batchDoc } from './operation-docs.js';
import { keyedOperations, type RouteValue } from './route-value.js';

/** What a job id looks like (anything else is no job, answered without asking the store). */
const BATCH_ID = /^batch_[0-9a-f]{20}$/;

/** The query parameters of `POST /v1/batch`. */
export const BATCH_CREATE_PARAMETERS = ['components', 'include_geometry', 'format', 'callback_url', 'delimiter'] as const;

/** What the batch routes need beyond the API's context. */
export interface BatchRouteOptions {
  /** The local worker, woken when a job is created (none: another process or replica works the jobs). */
  runner?: { wake(): void; cancelled?(id: string): void };
  /** Callback URLs may be http and private addresses (`--allow-private-webhooks`). */
  allowPrivate?: boolean;
  resolve?: Resolver;
  /** Rows per chunk (default BATCH_CHUNK_ROWS, 1,000; tests make small chunks to see several). */
  chunkRows?: number;
  /** What each key may hold (default DEFAULT_BATCH_LIMITS). */
  limits?: Partial<BatchLimits>;
}

/** The error of an upload past one of the key's limits. */
function limitError(limit: 'jobs' | 'stored_bytes', usage: BatchKeyUsage, limits: BatchLimits, upload: number): ApiError {
  if (limit === 'jobs') {
    return new ApiError(
      'too_many_batch_jobs',
      `the key has ${usage.open_jobs} batch jobs queued or running, its limit of ${limits.jobs} at once; upload this one when one of them finishes (or cancel one with DELETE /v1/batch/{id})`,
      { limit: 'jobs', max_jobs: limits.jobs, open_jobs: usage.open_jobs, retry_after_s: BATCH_RETRY_AFTER_S },
      { 'Retry-After': String(BATCH_RETRY_AFTER_S) },
    );
  }
  const frees = usage.next_expiry === null ? 'no finished job of the key expires yet' : `the next finished job expires (and frees its bytes) at ${new Date(usage.next_expiry).toISOString()}`;
  return new ApiError(
    'batch_storage_full',
    `the key's batch jobs hold ${usage.stored_bytes} bytes and this upload needs ${upload} more (compressed), past its limit of ${limits.storedBytes} bytes (${mib(limits.storedBytes)}); ${frees}`,
    { limit: 'stored_bytes', max_stored_bytes: limits.storedBytes, stored_bytes: usage.stored_bytes, upload_bytes: upload, frees_at: usage.next_expiry === null ? null : new Date(usage.next_expiry).toISOString() },
  );
}

const ok = (status: number, doc: unknown, headers: Record<string, string> = {}): ApiResponse => ({ status, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store', ...headers }, body: JSON.stringify(doc) });

const licenceOf = (key: ApiKeyRecord): PropertyLicence => ({ components: key.components, geometry: key.geometry });

/** The batch routes of one API. */
export class BatchRoutes {
  /** What each key may hold. */
  readonly limits: BatchLimits;

  constructor(
    private readonly ctx: ApiContext,
    private readonly options: BatchRouteOptions = {},
  ) {
    this.limits = batchLimits(options.limits);
  }

  /** The engine's readers and writers of batch files (on its threads), when the service has them. */
  private files(): BatchFiles {
    const s = this.ctx.service as Partial<BatchFiles>;
    return {
      ...(typeof s.batchUpload === 'function' ? { batchUpload: s.batchUpload.bind(s) } : {}),
      ...(typeof s.batchText === 'function' ? { batchText: s.batchText.bind(s) } : {}),
    };
  }

  request(req: ApiRequest, op: BatchOperation, id: string, key: ApiKeyRecord): Promise<ApiResponse> {
    const base = req.path.startsWith('/api/') ? '/api/v1/batch' : '/v1/batch';
    if (op === 'create') return this.create(req, key, base);
    return this.existing(req, op, id, key, base);
  }

  private async create(req: ApiRequest, key: ApiKeyRecord, base: string): Promise<ApiResponse> {
    const params = decodeQuery(req.query);
    rejectUnknown(params, BATCH_CREATE_PARAMETERS, base);
    const components = params.has('components') ? params.get('components')!.split(',').map((s) => s.trim()) : undefined;
    if (components?.some((c) => c === '')) throw badParameter('components', `components must be a comma-separated list without empty items, got ${JSON.stringify(params.get('components'))}`);
    let includeGeometry = false;
    if (params.has('include_geometry')) {
      const b = booleanText(params.get('include_geometry')!);
      if (b === undefined) throw badParameter('include_geometry', `include_geometry must be 1, 0, true or false, got ${JSON.stringify(params.get('include_geometry')!.slice(0, 40))}`);
      includeGeometry = b;
    }
    resolveOptions({ components, include_geometry: includeGeometry });
    const refusal = checkLicence({ components, include_geometry: includeGeometry, licence: licenceOf(key), variant: 'full' });
    if (refusal) throw new ApiError('not_licensed', refusal.message, { requested: refusal.requested, licensed_components: key.components, geometry_licence: key.geometry });
    const delimiterText = params.get('delimiter');
    const delimiter = delimiterText === undefined ? undefined : delimiterText === 'tab' ? '\t' : delimiterText;
    if (delimiter !== undefined && !(BATCH_DELIMITERS as readonly string[]).includes(delimiter)) throw badParameter('delimiter', `delimiter must be one of , ; tab |, got ${JSON.stringify(delimiterText!.slice(0, 20))}`);

    // The upload: its type, size and text.
    const type = (req.contentType ?? '').split(';')[0].trim().toLowerCase();
    const input = (Object.keys(BATCH_UPLOAD_TYPES) as BatchInputFormat[]).find((f) => BATCH_UPLOAD_TYPES[f].includes(type));
    if (!input) {
      throw new ApiError('unsupported_media_type', `upload the rows as text/csv (a header row with an address column, or lat and lng columns) or application/x-ndjson (JSON lines); got ${type ? JSON.stringify(type.slice(0, 80)) : 'no Content-Type'}`, { accepted: [...BATCH_UPLOAD_TYPES.csv, ...BATCH_UPLOAD_TYPES.jsonl] });
    }
    const format = (params.get('format') ?? (input === 'csv' ? 'csv' : 'jsonl')) as BatchOutputFormat;
    if (!BATCH_OUTPUT_FORMATS.includes(format)) throw badParameter('format', `format must be csv, jsonl or geojson, got ${JSON.stringify(String(format).slice(0, 40))}`);
    let callbackUrl: string | null = null;
    if (params.has('callback_url')) {
      const verdict = await checkWebhookUrl(params.get('callback_url'), { allowPrivate: !!this.options.allowPrivate, resolve: this.options.resolve });
      if (!verdict.ok) throw badParameter('callback_url', verdict.message.replace(/^url/, 'callback_url'));
      callbackUrl = verdict.url.href;
    }
    if (req.bodyTooLarge) throw new ApiError('payload_too_large', `the upload is larger than ${BATCH_MAX_BODY} bytes (128 MiB); split it into several jobs`, { limit: BATCH_MAX_BODY });
    if (!req.body || req.body.length === 0) throw new ApiError('invalid_body', 'the upload is empty: send the rows as the request body');
    const now = this.ctx.clock();
    // A key at a limit is told before its upload is read (and again, atomically, when the job is stored).
    const batches = this.ctx.store.batches();
    const held = await batches.keyUsage(key.id, now.getTime());
    if (held.open_jobs >= this.limits.jobs) throw limitError('jobs', held, this.limits, 0);
    if (held.stored_bytes >= this.limits.storedBytes) throw limitError('stored_bytes', held, this.limits, 0);
    const secret = callbackUrl ? newSecret() : null;
    let made: Awaited<ReturnType<typeof jobFromUpload>>;
    try {
      made = await jobFromUpload(req.body, { format: input, delimiter: delimiter as (typeof BATCH_DELIMITERS)[number] | undefined }, {
        id: newBatchId(),
        key_id: key.id,
        created_at: now.toISOString(),
        callback_secret: secret,
        options: { components: components ?? null, include_geometry: includeGeometry, format, callback_url: callbackUrl },
      }, this.options.chunkRows, this.files());
    } catch (err) {
      // A file that cannot be read as a whole: 422 invalid_body with the reader's message.
      if ((err as { details?: { parameter?: string } }).details?.parameter === 'body') throw new ApiError('invalid_body', (err as Error).message);
      throw err;
    }
    const upload = made.chunks.reduce((a, c) => a + c.input.byteLength, 0);
    const refused = await batches.createJob(made.job, made.chunks, { jobs: this.limits.jobs, storedBytes: this.limits.storedBytes, now: now.getTime() });
    if (refused) throw limitError(refused.limit, refused.usage, this.limits, upload);
    this.options.runner?.wake();
    const doc = batchDocument(made.job, now, base);
    return ok(202, { ...doc, ...(secret ? { callback_secret: secret, callback_secret_note: 'The batch.completed webhook is signed with this secret (Standard Webhooks); it is shown only in this response.' } : {}) }, { Location: doc.url as string });
  }

  private async existing(req: ApiRequest, op: BatchOperation, id: string, key: ApiKeyRecord, base: string): Promise<ApiResponse> {
    const params = decodeQuery(req.query);
    rejectUnknown(params, op === 'results' ? ['format'] : [], `${base}/{id}${op === 'results' ? '/results' : ''}`);
    const batches = this.ctx.store.batches();
    const job = BATCH_ID.test(id) ? await batches.job(id) : undefined;
    // Another key's job is indistinguishable from none.
    if (!job || job.key_id !== key.id) throw new ApiError('not_found', `no batch job ${JSON.stringify(id.slice(0, 80))} on this key (jobs are kept ${days(this.limits.retentionMs)} after they finish)`);
    const now = this.ctx.clock();
    if (op === 'get') return ok(200, batchDocument(job, now, base));
    if (op === 'cancel') {
      const after = (await batches.cancelJob(id, now, this.limits.retentionMs)) ?? job;
      // The chunk this server is working stops now, not at its next lease check.
      this.options.runner?.cancelled?.(id);
      return ok(200, batchDocument(after, now, base));
    }
    const format = (params.get('format') ?? job.options.format) as BatchOutputFormat;
    if (!BATCH_OUTPUT_FORMATS.includes(format)) throw badParameter('format', `format must be csv, jsonl or geojson, got ${JSON.stringify(String(format).slice(0, 40))}`);
    return this.results(job, format, key);
  }

  private results(job: BatchJob, format: BatchOutputFormat, key: ApiKeyRecord): ApiResponse {
    const extension = format === 'jsonl' ? 'jsonl' : format === 'geojson' ? 'geojson' : 'csv';
    const batches = this.ctx.store.batches();
    return {
      status: 200,
      contentType: BATCH_CONTENT_TYPES[format],
      headers: {
        'Cache-Control': 'no-store',
        'Content-Disposition': `attachment; filename="${job.id}.${extension}"`,
        'Batch-Status': job.status,
        'Batch-Rows-Done': String(job.rows_done),
      },
      body: '',
      lengthUnknown: true,
      stream: () => batchResults(batches, job, format, licenceOf(key), this.files())[Symbol.asyncIterator](),
    };
  }
}

const BATCH_NOTE = ' Keyed like the property endpoints: the rows are looked up with the key\'s licence and metered as single lookups are (each unique address once per billing period; a row whose address was already charged this period is free, so re-submitting a file charges nothing more). Every path answers at /v1 and /api/v1.';

const BATCH_PATHS: { path: string; ops: Partial<Record<'GET' | 'POST' | 'DELETE', BatchOperation>>; summary: string; description: string }[] = [
  {
    path: '/batch',
    ops: { POST: 'create' },
    summary: 'Submit a file of addresses for lookup',
    description: 'The body is CSV (`Content-Type: text/csv`; a header row with an `address` column, or `lat` and `lng` columns; every column carried through to the results; the delimiter detected from the header or given) or JSON lines (`application/x-ndjson`; one object per line with `address`, or `lat` and `lng`), up to 1,000,000 rows and 128 MiB. Options as query parameters: `components`, `include_geometry`, the results\' `format` and a `callback_url` for a signed `batch.completed` webhook (Standard Webhooks, signed with the `callback_secret` this answer shows once). 202 with the job; its rows are looked up in the background, in spatial order, a chunk at a time. A file that cannot be read as a whole is 422 `invalid_body`; a bad row is only that row\'s `invalid` status.',
  },
  {
    path: '/batch/{id}',
    ops: { GET: 'get', DELETE: 'cancel' },
    summary: 'A batch job\'s status; cancel it',
    description: 'GET: status (`queued`, `running`, `done`, `failed`, `cancelled`), rows total, done, failed and skipped, unique addresses `charged`, rows per second and the time left. A job stops at the key\'s quota (`failed` with `error.error` `quota_exceeded`), never charging past it. DELETE cancels a queued or running job (rows not yet looked up are marked `cancelled`, not charged); a finished job is shown as it is. Jobs and their results are kept 7 days after they finish, then removed.',
  },
  {
    path: '/batch/{id}/results',
    ops: { GET: 'results' },
    summary: 'A batch job\'s results, streamed',
    description: 'Every input row once, in input order, with its carried columns, `status` (`ok`, `unresolved`, `outside_coverage`, `invalid`, `error`), `error` (the code a single lookup of the row answers with: `address_unresolvable`, `outside_coverage`, `invalid_subject`, `invalid_parameter`, `quota_exceeded`, `cancelled`, ...) and `error_message`, the resolved address, match confidence and point, whether the row was charged, and the components: flattened to named columns in CSV (`flood_score`, `flood_level`, `zone_code`, `bushfire_bal`, ...), whole in JSON lines and GeoJSON. `format` (csv, jsonl, geojson) defaults to the job\'s. While the job runs, the rows done so far (the leading finished chunks) are given.',
  },
];

/** The batch routes at both prefixes. */
export const BATCH_ROUTES: readonly RouteValue<{ batch: BatchRoutes }>[] = ['/v1', '/api/v1'].flatMap((prefix) =>
  BATCH_PATHS.map((r): RouteValue<{ batch: BatchRoutes }> => ({
    path: `${prefix}${r.path}`,
    tag: 'Batch',
    summary: r.summary,
    description: `${r.description}${BATCH_NOTE}`,
    operations: keyedOperations<BatchOperation, { batch: BatchRoutes }>(r.ops, batchDoc, (op) => (c) => c.modules.batch.request(c.req, op, c.id, c.key)),
  })),
);
