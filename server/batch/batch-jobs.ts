/**
 * Batch jobs as the API shows them: a new job made from an upload (its rows split into chunks and stored),
 * the status document of `GET /v1/batch/{id}`, and the results of `/results` streamed from the stored
 * chunks in input order (a chunk never looked up gives its rows the job's stop reason).
 */
import { randomBytes } from 'node:crypto';
import { BatchFileWriter, failedRow, packedRowsText, readUpload, unpackLines, type BatchInputFormat, type BatchInputOptions, type BatchOutputFormat, type BatchOutputOptions, type BatchRow, type ReadUpload, type StoredBatchRow } from '../../engine/entry/batch.js';
import type { PropertyLicence } from '../../engine/entry/property.js';
import type { BatchJob, BatchJobOptions, BatchRepository, NewBatchChunk, StoredChunk } from '../store/batch-store.js';

/** The batch job operations (`/v1/batch...`). */
export type BatchOperation = 'create' | 'get' | 'cancel' | 'results';

/** Content types of an upload, by input format. */
export const BATCH_UPLOAD_TYPES: Record<BatchInputFormat, readonly string[]> = {
  csv: ['text/csv', 'application/csv'],
  jsonl: ['application/x-ndjson', 'application/jsonl', 'application/jsonlines', 'application/x-jsonlines', 'application/json-lines'],
};

/** Seconds a key at its open-jobs limit is told to wait (`Retry-After`): about a chunk's work. */
export const BATCH_RETRY_AFTER_S = 30;

/** A retention as days (or hours), for messages. */
export const days = (ms: number): string => (ms % 86_400_000 === 0 ? `${ms / 86_400_000} days` : `${+(ms / 3_600_000).toFixed(2)} hours`);


/** Rows per chunk: looked up together, in spatial order, and committed in one transaction. */
export const BATCH_CHUNK_ROWS = 1000;
/** How long a finished job and its results are kept by default: 7 days after it finishes. */
export const BATCH_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * What each key may hold of batch jobs (`propintel serve --batch-jobs`, `--batch-storage-mb`,
 * `--batch-retention-days`; every key of a server gets the same). The API guide and the OpenAPI document
 * state them; a request past one is answered with the limit named.
 */
export interface BatchLimits {
  /** Jobs queued or running at once per key; another upload is 429 `too_many_batch_jobs`. */
  jobs: number;
  /**
   * Bytes a key's kept jobs may hold in the store (their rows not yet looked up, results and payloads, all
   * compressed): an upload that would take it past is 413 `batch_storage_full`, and a running job that does
   * stops (`failed`, `storage_limit`) after the chunk that did, keeping its results so far.
   */
  storedBytes: number;
  /** How long a finished job and its results are kept, ms. */
  retentionMs: number;
}

/** The limits a key gets unless the server is started with others. */
export const DEFAULT_BATCH_LIMITS: Readonly<BatchLimits> = { jobs: 4, storedBytes: 4 * 1024 ** 3, retentionMs: BATCH_RETENTION_MS };

/** `limits` with the defaults where it says nothing (an undefined value too). */
export function batchLimits(limits: Partial<BatchLimits> = {}): BatchLimits {
  return {
    jobs: limits.jobs ?? DEFAULT_BATCH_LIMITS.jobs,
    storedBytes: limits.storedBytes ?? DEFAULT_BATCH_LIMITS.storedBytes,
    retentionMs: limits.retentionMs ?? DEFAULT_BATCH_LIMITS.retentionMs,
  };
}

export { packLines, unpackLines } from '../../engine/entry/batch.js';

/** A new job id: `batch_` and 20 hex digits. */
export function newBatchId(): string {
  return `batch_${randomBytes(10).toString('hex')}`;
}

/** What reads an upload into chunks, and writes a stored chunk's results: the engine (on its threads), or here. */
export interface BatchFiles {
  batchUpload?(bytes: Uint8Array, input: BatchInputOptions, chunkRows: number): Promise<ReadUpload>;
  batchText?(packed: Uint8Array, chargedRows: readonly number[] | null, output: BatchOutputOptions, first: boolean, payloads?: readonly (readonly [string, Uint8Array])[]): Promise<Uint8Array>;
}

/**
 * Reads an upload (its UTF-8 bytes, or text) into a job and its chunks (throws the engine's INVALID_ARGUMENT,
 * parameter `body`, for a file that cannot be read as a whole; a bad row is only that row's `invalid`). The
 * reading grows with the file, so it runs on an engine thread when `files` has them (a million-row upload
 * takes seconds), else here.
 */
export async function jobFromUpload(body: Uint8Array | string, input: BatchInputOptions, base: Pick<BatchJob, 'id' | 'key_id' | 'created_at' | 'callback_secret'> & { options: BatchJobOptions }, chunkRows = BATCH_CHUNK_ROWS, files: BatchFiles = {}): Promise<{ job: BatchJob; chunks: NewBatchChunk[] }> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const read = files.batchUpload ? await files.batchUpload(bytes, input, chunkRows) : readUpload(bytes, input, chunkRows);
  const chunks: NewBatchChunk[] = read.chunks.map((c, seq) => ({ seq, first_row: c.first_row, row_count: c.row_count, input: Buffer.from(c.input.buffer, c.input.byteOffset, c.input.byteLength) }));
  const job: BatchJob = {
    ...base,
    status: 'queued',
    started_at: null,
    finished_at: null,
    expires_at: null,
    input_format: input.format,
    columns: read.columns,
    rows_total: read.rows,
    rows_done: 0,
    rows_failed: 0,
    rows_skipped: 0,
    charged: 0,
    chunks_total: chunks.length,
    chunks_done: 0,
    error: null,
    first_done_at: null,
    stored_bytes: 0,
  };
  return { job, chunks };
}

const FINISHED = new Set(['done', 'failed', 'cancelled']);

/** The status document of a job at `now`. */
export function batchDocument(job: BatchJob, now: Date, base = '/v1/batch'): Record<string, unknown> {
  const finished = FINISHED.has(job.status);
  const start = job.started_at ? Date.parse(job.started_at) : null;
  const end = finished && job.finished_at ? Date.parse(job.finished_at) : now.getTime();
  const seconds = start !== null ? Math.max(0.001, (end - start) / 1000) : null;
  const rate = seconds !== null && job.rows_done > 0 ? Math.round((job.rows_done / seconds) * 10) / 10 : null;
  const left = job.rows_total - job.rows_done;
  return {
    id: job.id,
    status: job.status,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    expires_at: job.expires_at === null ? null : new Date(job.expires_at).toISOString(),
    rows_total: job.rows_total,
    rows_done: job.rows_done,
    rows_failed: job.rows_failed,
    rows_skipped: finished ? left : 0,
    charged: job.charged,
    stored_bytes: job.stored_bytes ?? 0,
    rows_per_second: rate,
    eta_seconds: finished ? 0 : rate ? Math.ceil(left / rate) : null,
    input_format: job.input_format,
    format: job.options.format,
    components: job.options.components,
    include_geometry: job.options.include_geometry,
    callback_url: job.options.callback_url,
    error: job.error,
    url: `${base}/${job.id}`,
    results_url: `${base}/${job.id}/results`,
  };
}

/** The rows of a chunk never looked up, marked with why (the quota, a cancel, a revoked key). */
function skippedRows(c: StoredChunk, job: BatchJob): StoredBatchRow[] {
  let rows: Pick<BatchRow, 'row' | 'cells'>[];
  try {
    rows = c.input ? unpackLines<BatchRow>(c.input) : [];
  } catch {
    // Rows that cannot be read back (the reason the job stopped): each still has its line, without its cells.
    rows = Array.from({ length: c.row_count }, (_, i) => ({ row: c.first_row + i, cells: {} }));
  }
  const error = job.error?.error ?? 'cancelled';
  const message = error === 'quota_exceeded' ? 'not looked up: the key reached its quota before this row (not charged)' : `not looked up: ${job.error?.message ?? 'the job stopped'}`;
  return rows.map((r) => ({ ...failedRow(r, error, message), charged: false }));
}

/** Chunks read at a time while streaming results. */
const PAGE = 4;

/**
 * The results file of `job` in `format`, a part at a time: every row of the finished chunks at the front of
 * the job, in input order (a job still running gives the rows done so far, up to its first unfinished chunk).
 */
export async function* batchResults(batches: BatchRepository, job: BatchJob, format: BatchOutputFormat, licence: PropertyLicence, files: BatchFiles = {}): AsyncGenerator<Buffer> {
  const output: BatchOutputOptions = { format, columns: job.columns, components: job.options.components, licence, charged: true };
  const writer = new BatchFileWriter(output);
  let first = true;
  const finished = FINISHED.has(job.status);
  yield Buffer.from(writer.header());
  let seq = 0;
  for (;;) {
    const page = await batches.chunks(job.id, seq, PAGE);
    for (const c of page) {
      let rows: StoredBatchRow[];
      if (c.status === 'done' && c.result) {
        // Rows packed where they were looked up say charged: false; the commit named the charged ones. A chunk of
        // full payloads is tens of megabytes of JSON to read and write: an engine thread does it when there are.
        const charged = c.charged_rows ? (JSON.parse(c.charged_rows) as number[]) : null;
        // The payloads its rows name, stored once per job.
        const hashes = c.payload_hashes ? (JSON.parse(c.payload_hashes) as string[]) : [];
        const payloads = (await batches.payloads(job.id, hashes)).map((p): [string, Uint8Array] => [p.hash, p.body]);
        const bytes = files.batchText ? await files.batchText(c.result, charged, output, first, payloads) : Buffer.from(packedRowsText(c.result, charged, output, first, payloads));
        if (c.row_count > 0) first = false;
        seq = c.seq + 1;
        yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        continue;
      }
      else if (c.status === 'skipped' || finished) rows = skippedRows(c, job);
      else {
        yield Buffer.from(writer.footer());
        return;
      }
      if (!first) writer.resumeAfter(1);
      if (rows.length) first = false;
      yield Buffer.from(rows.map((r) => writer.row(r)).join(''));
      seq = c.seq + 1;
    }
    if (page.length < PAGE) break;
  }
  yield Buffer.from(writer.footer());
}
