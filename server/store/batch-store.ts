/**
 * What the store keeps of batch jobs (POST /v1/batch), in either dialect (sqlite-batch-store.ts,
 * pg-batch-store.ts, over the tables of tables.ts's BATCH_TABLES):
 * - a job: its key, options, input columns, counters and status;
 * - its chunks: each a run of input rows (gzipped JSON lines) and, once looked up, their results.
 *
 * A chunk is worked by one worker at a time under a lease, which the worker renews while it works; a chunk
 * whose lease ran out (its worker died, or was killed with -9) is taken by the next worker that asks. The
 * results of a chunk, the meter's charges for its rows and the job's counters are written in one
 * transaction, and only by the chunk's current owner: a row is never done twice, never lost, and the meter
 * counts each address once whatever crashed where.
 */
import type { BatchOutputFormat } from '../../engine/entry/batch.js';
import type { MaybePromise } from '../maybe-promise.js';
import type { ChargeOutcome } from './charge.js';

/** A job's states. */
export const BATCH_JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type BatchJobStatus = (typeof BATCH_JOB_STATUSES)[number];

/** A chunk's states: `skipped` chunks were never looked up (the job stopped at its quota or was cancelled). */
export type BatchChunkStatus = 'pending' | 'running' | 'done' | 'skipped';

/** What a job was asked for. */
export interface BatchJobOptions {
  components: string[] | null;
  include_geometry: boolean;
  /** The results' default format. */
  format: BatchOutputFormat;
  callback_url: string | null;
}

/** Why a job stopped: an error body (`quota_exceeded` with the meter's figures, `key_revoked`, `cancelled`). */
export interface BatchJobError {
  error: string;
  message: string;
  [field: string]: unknown;
}

/** A job as stored. */
export interface BatchJob {
  id: string;
  key_id: string;
  status: BatchJobStatus;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Epoch ms after which the job and its results are deleted (set when it finishes). */
  expires_at: number | null;
  input_format: 'csv' | 'jsonl';
  options: BatchJobOptions;
  /** The input's columns, as the results carry them. */
  columns: string[];
  /** The `batch.completed` webhook's signing secret, when a callback was asked for. */
  callback_secret: string | null;
  rows_total: number;
  /** Rows looked up (whatever their status). */
  rows_done: number;
  /** Rows looked up whose status is not `ok`. */
  rows_failed: number;
  /** Rows never looked up (the job stopped at the quota or was cancelled). */
  rows_skipped: number;
  /** Unique addresses this job charged to the key (a repeat in the period is free). */
  charged: number;
  chunks_total: number;
  chunks_done: number;
  error: BatchJobError | null;
  /** Epoch ms of the first chunk's results (the rate's start). */
  first_done_at: number | null;
  /** Bytes the job holds in the store: its rows not yet looked up, its results and its payloads (all compressed). */
  stored_bytes: number;
}

/** What a key may hold, checked in the transaction that stores a new job (so two uploads at once cannot both pass). */
export interface BatchCreateLimits {
  /** Jobs queued or running at once. */
  jobs: number;
  /** Bytes its kept jobs may hold, the new one's input included. */
  storedBytes: number;
  /** Now, epoch ms: jobs expired before it do not count (they are about to be deleted). */
  now: number;
}

/** What a key holds of batch jobs. */
export interface BatchKeyUsage {
  /** Jobs queued or running. */
  open_jobs: number;
  /** Bytes its kept jobs hold. */
  stored_bytes: number;
  /** Epoch ms when its next finished job expires (frees its bytes), or null when none will. */
  next_expiry: number | null;
}

/** Why a new job was not stored: the limit it would break, and what the key holds. */
export interface BatchRefusal {
  limit: 'jobs' | 'stored_bytes';
  usage: BatchKeyUsage;
}

/** A chunk to store with a new job. */
export interface NewBatchChunk {
  seq: number;
  first_row: number;
  row_count: number;
  /** Gzipped JSON lines of the rows. */
  input: Buffer;
}

/** A chunk handed to a worker. */
export interface ClaimedChunk {
  job: BatchJob;
  seq: number;
  first_row: number;
  row_count: number;
  input: Buffer;
  /** How many times it was claimed, this time included. */
  attempts: number;
}

/** A chunk as the results read it. */
export interface StoredChunk {
  seq: number;
  first_row: number;
  row_count: number;
  status: BatchChunkStatus;
  /** Gzipped JSON lines of results (`done`). */
  result: Buffer | null;
  /**
   * The positions in `result` of the rows the meter charged, as a JSON array, when the rows were stored with
   * `charged: false` (engine/batch/batch-pack.ts); null when each row says itself.
   */
  charged_rows: string | null;
  /** The hashes of the payloads its rows name (JSON), stored once per job apart from them; null for rows that hold theirs. */
  payload_hashes: string | null;
  /** The rows, while not done (`skipped` chunks keep them for their results). */
  input: Buffer | null;
}

/** A chunk's results offered for commit, with the meter's charges for its rows. */
export interface ChunkCommit {
  jobId: string;
  seq: number;
  owner: string;
  now: Date;
  keyId: string;
  periodKey: string;
  quota: number;
  /** How long the job is kept once this commit finishes it, ms. */
  retentionMs: number;
  /** Per row in order: the address key to charge, or null for a row that is not charged. */
  charges: (string | null)[];
  /**
   * The chunk's stored results given the meter's outcome for each row (null where nothing was charged):
   * gzipped JSON lines, and how many rows are not `ok` (a row refused by the quota is not).
   */
  encode(outcomes: (ChargeOutcome['outcome'] | null)[]): { result: Uint8Array; failed: number; chargedRows?: number[] };
  /** The distinct payloads the chunk's rows name, stored once per job (a payload another chunk stored is not again). */
  payloads?: readonly { hash: string; body: Uint8Array }[];
  /**
   * The bytes the key's jobs may hold: a commit that leaves them holding more (and does not finish the job)
   * stops the job, `failed` with `storage_limit`; what it committed is kept. None: no limit.
   */
  storageLimit?: number;
}

/** What a commit did. */
export interface CommitOutcome {
  /** False when the chunk was no longer this worker's (its lease taken over, or the job stopped): nothing was written. */
  committed: boolean;
  /** The job after the commit. */
  job: BatchJob | undefined;
  /** True when this commit finished the job (its last chunk, or the quota reached): the one to announce it. */
  finished: boolean;
}

/** The store's batch side. */
export interface BatchRepository {
  /**
   * Stores a new job (status `queued`) and its chunks, in one transaction; with `limits`, only when its key
   * holds fewer open jobs than the limit and its kept jobs' bytes with the new job's input stay within it
   * (else nothing is stored, and the refusal says which limit and what the key holds).
   */
  createJob(job: BatchJob, chunks: readonly NewBatchChunk[], limits?: BatchCreateLimits): MaybePromise<BatchRefusal | undefined>;
  /** What `keyId` holds of batch jobs at `now` (epoch ms). */
  keyUsage(keyId: string, now: number): MaybePromise<BatchKeyUsage>;
  /** The job with `id`, or undefined. */
  job(id: string): MaybePromise<BatchJob | undefined>;
  /**
   * Leases the next chunk to work to `owner` until `now + leaseMs`: a pending chunk, or one whose lease ran
   * out, of a queued or running job; the job with the fewest chunks done first (a small job is not held up
   * behind a large one). Undefined when there is none.
   */
  claimChunk(owner: string, leaseMs: number, now: number): MaybePromise<ClaimedChunk | undefined>;
  /** Extends `owner`'s lease; false when the chunk is no longer its own (taken over, or its job stopped). */
  renewLease(jobId: string, seq: number, owner: string, until: number): MaybePromise<boolean>;
  /** Hands a chunk back unworked (a worker stopping): pending again, at once. */
  releaseChunk(jobId: string, seq: number, owner: string): MaybePromise<void>;
  /**
   * Commits a chunk (see {@link ChunkCommit}): the charges in row order, the results, the job's counters.
   * A charge refused by the quota stops the job: status `failed` with `quota_exceeded`, and every chunk not
   * yet done is `skipped`. The job is `done` when its last chunk is.
   */
  commitChunk(commit: ChunkCommit): MaybePromise<CommitOutcome>;
  /** Stops a queued or running job for good (`failed` with `error`); undefined when there is no such job. */
  failJob(id: string, error: BatchJobError, now: Date, retentionMs: number): MaybePromise<BatchJob | undefined>;
  /**
   * Cancels a queued or running job: status `cancelled`, chunks not done `skipped` (a worker's commit of one
   * is refused). A finished job is returned as it is.
   */
  cancelJob(id: string, now: Date, retentionMs: number): MaybePromise<BatchJob | undefined>;
  /** Up to `limit` chunks of a job from `fromSeq` on, in order. */
  chunks(jobId: string, fromSeq: number, limit: number): MaybePromise<StoredChunk[]>;
  /** The bytes a job holds in the store: its chunks' input and results and its payloads. */
  storedBytes(jobId: string): MaybePromise<number>;
  /** The stored payloads of a job with these hashes (gzipped JSON). */
  payloads(jobId: string, hashes: readonly string[]): MaybePromise<{ hash: string; body: Buffer }[]>;
  /** Deletes jobs (and their chunks) that expired before `now`; how many. */
  deleteExpired(now: number): MaybePromise<number>;
}

/** How long a job of no rows is kept (it never gets this far through the API, which refuses an empty file). */
export const EMPTY_JOB_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** The limit a new job of `bytes` would break, given what its key holds; undefined when it breaks none. */
export function refusal(usage: BatchKeyUsage, limits: BatchCreateLimits, bytes: number): BatchRefusal | undefined {
  if (usage.open_jobs >= limits.jobs) return { limit: 'jobs', usage };
  if (usage.stored_bytes + bytes > limits.storedBytes) return { limit: 'stored_bytes', usage };
  return undefined;
}

/** The error a job stops with when its key's jobs hold more than `limit` bytes. */
export function storageError(limit: number, used: number): BatchJobError {
  return {
    error: 'storage_limit',
    message: `the key's batch jobs hold ${used} bytes, past its limit of ${limit} bytes (${mib(limit)}); the rows not yet looked up were neither looked up nor charged (the results so far are kept)`,
    limit,
    used,
  };
}

/** Bytes as MiB or GiB, for messages. */
export function mib(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(2)} GiB` : `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** The error a job stops with when a charge is refused. */
export function quotaError(c: Pick<ChunkCommit, 'quota' | 'periodKey'>, used: number): BatchJobError {
  return {
    error: 'quota_exceeded',
    message: `the key reached its quota of ${c.quota} unique addresses in billing period ${c.periodKey}; the rows not yet looked up are marked quota_exceeded and were not charged`,
    used,
    quota: c.quota,
    billing_period_key: c.periodKey,
  };
}
