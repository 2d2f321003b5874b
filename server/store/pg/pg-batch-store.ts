/**
 * Batch jobs on PostgreSQL (batch-store.ts says what is kept and why): every replica works chunks of the
 * same jobs. A claim takes the next chunk with `FOR UPDATE SKIP LOCKED`, so two replicas asking at once
 * never take one chunk, and leases it; a chunk whose lease ran out (its replica died) is taken by the next
 * claim. A commit locks the chunk row, checks it is still the committer's, charges the meter through
 * `propintel_charge` (the function single lookups use) row by row, and writes the results and the job's
 * counters, all in one transaction.
 */
import type pg from 'pg';
import type { BatchCreateLimits, BatchJob, BatchJobError, BatchKeyUsage, BatchRefusal, BatchRepository, ChunkCommit, ClaimedChunk, CommitOutcome, NewBatchChunk, StoredChunk } from '../batch-store.js';
import { PgRepository } from './pg-connect.js';
import { EMPTY_JOB_RETENTION_MS, quotaError, refusal, storageError } from '../batch-store.js';
import type { ChargeOutcome } from '../store.js';

type JobRow = Omit<BatchJob, 'expires_at' | 'first_done_at' | 'stored_bytes'> & { expires_at: string | null; first_done_at: string | null; stored_bytes: string };

const toJob = (r: JobRow | undefined): BatchJob | undefined =>
  r && { ...r, expires_at: r.expires_at === null ? null : Number(r.expires_at), first_done_at: r.first_done_at === null ? null : Number(r.first_done_at), stored_bytes: Number(r.stored_bytes) };

/** What a key holds: open jobs, bytes, and the next expiry, among jobs not expired at $2. */
const USAGE = `SELECT count(*) FILTER (WHERE status IN ('queued', 'running'))::int AS open_jobs, coalesce(sum(stored_bytes), 0)::text AS stored_bytes, min(expires_at)::text AS next_expiry
  FROM batch_jobs WHERE key_id = $1 AND (expires_at IS NULL OR expires_at >= $2)`;

const toUsage = (r: { open_jobs: number; stored_bytes: string; next_expiry: string | null }): BatchKeyUsage => ({ open_jobs: r.open_jobs, stored_bytes: Number(r.stored_bytes), next_expiry: r.next_expiry === null ? null : Number(r.next_expiry) });

/** The PostgreSQL {@link BatchRepository}. */
export class PgBatchStore extends PgRepository implements BatchRepository {
  async createJob(job: BatchJob, chunks: readonly NewBatchChunk[], limits?: BatchCreateLimits): Promise<BatchRefusal | undefined> {
    job = { ...job, stored_bytes: chunks.reduce((a, c) => a + c.input.byteLength, 0) };
    // A job of no chunks has nothing to work: done at once.
    if (chunks.length === 0) job = { ...job, status: 'done', started_at: job.created_at, finished_at: job.created_at, expires_at: Date.parse(job.created_at) + EMPTY_JOB_RETENTION_MS };
    return this.tx(async (c) => {
      if (limits) {
        // One key's uploads are stored one at a time (across replicas): two at once cannot both pass the limits.
        await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`propintel_batch:${job.key_id}`]);
        const refused = refusal(toUsage((await c.query(USAGE, [job.key_id, limits.now])).rows[0]), limits, job.stored_bytes);
        if (refused) return refused;
      }
      await c.query(
        `INSERT INTO batch_jobs (id, key_id, status, created_at, started_at, finished_at, expires_at, input_format, options, columns, callback_secret, rows_total, rows_done, rows_failed, rows_skipped, charged, chunks_total, chunks_done, error, first_done_at, stored_bytes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
        [job.id, job.key_id, job.status, job.created_at, job.started_at, job.finished_at, job.expires_at, job.input_format, JSON.stringify(job.options), JSON.stringify(job.columns), job.callback_secret,
          job.rows_total, job.rows_done, job.rows_failed, job.rows_skipped, job.charged, job.chunks_total, job.chunks_done, job.error ? JSON.stringify(job.error) : null, job.first_done_at, job.stored_bytes],
      );
      for (let i = 0; i < chunks.length; i += 200) {
        const part = chunks.slice(i, i + 200);
        await c.query(
          `INSERT INTO batch_chunks (job_id, seq, first_row, row_count, input, status)
           SELECT $1, s, f, n, b, 'pending' FROM unnest($2::int[], $3::int[], $4::int[], $5::bytea[]) AS t(s, f, n, b)`,
          [job.id, part.map((p) => p.seq), part.map((p) => p.first_row), part.map((p) => p.row_count), part.map((p) => p.input)],
        );
      }
      return undefined;
    });
  }

  async keyUsage(keyId: string, now: number): Promise<BatchKeyUsage> {
    return toUsage((await this.q<{ open_jobs: number; stored_bytes: string; next_expiry: string | null }>(USAGE, [keyId, now])).rows[0]);
  }

  async job(id: string): Promise<BatchJob | undefined> {
    return toJob((await this.q<JobRow>('SELECT * FROM batch_jobs WHERE id = $1', [id])).rows[0]);
  }

  claimChunk(owner: string, leaseMs: number, now: number): Promise<ClaimedChunk | undefined> {
    return this.tx(async (c) => {
      const next = await c.query<{ job_id: string; seq: number }>(
        `SELECT c.job_id, c.seq FROM batch_chunks c JOIN batch_jobs j ON j.id = c.job_id
         WHERE j.status IN ('queued', 'running') AND (c.status = 'pending' OR (c.status = 'running' AND c.lease_until < $1))
         ORDER BY j.chunks_done, j.created_at, c.seq LIMIT 1 FOR UPDATE OF c SKIP LOCKED`,
        [now],
      );
      if (!next.rows.length) return undefined;
      const { job_id, seq } = next.rows[0];
      const leased = await c.query<{ first_row: number; row_count: number; input: Buffer; attempts: number }>(
        "UPDATE batch_chunks SET status = 'running', owner = $1, lease_until = $2, attempts = attempts + 1 WHERE job_id = $3 AND seq = $4 RETURNING first_row, row_count, input, attempts",
        [owner, now + leaseMs, job_id, seq],
      );
      // Only a queued job's row is written (and so locked) here: locks are taken chunks first, then the job,
      // in every transaction, so a claim, a commit and a cancel never wait on each other in a circle.
      await c.query("UPDATE batch_jobs SET status = 'running', started_at = $1 WHERE id = $2 AND status = 'queued'", [new Date(now).toISOString(), job_id]);
      const job = await c.query<JobRow>('SELECT * FROM batch_jobs WHERE id = $1', [job_id]);
      return { job: toJob(job.rows[0])!, seq, ...leased.rows[0] };
    });
  }

  async renewLease(jobId: string, seq: number, owner: string, until: number): Promise<boolean> {
    const r = await this.q("UPDATE batch_chunks c SET lease_until = $1 FROM batch_jobs j WHERE j.id = c.job_id AND j.status = 'running' AND c.job_id = $2 AND c.seq = $3 AND c.owner = $4 AND c.status = 'running'", [until, jobId, seq, owner]);
    return r.rowCount === 1;
  }

  async releaseChunk(jobId: string, seq: number, owner: string): Promise<void> {
    await this.q("UPDATE batch_chunks SET status = 'pending', owner = NULL, lease_until = 0 WHERE job_id = $1 AND seq = $2 AND owner = $3 AND status = 'running'", [jobId, seq, owner]);
  }

  commitChunk(commit: ChunkCommit): Promise<CommitOutcome> {
    return this.tx(async (c) => {
      // The chunk row locked first: a claim taking over an expired lease waits for this commit, then finds it done.
      const mine = await c.query(
        `SELECT 1 FROM batch_chunks ch JOIN batch_jobs j ON j.id = ch.job_id
         WHERE ch.job_id = $1 AND ch.seq = $2 AND ch.owner = $3 AND ch.status = 'running' AND j.status = 'running' FOR UPDATE OF ch`,
        [commit.jobId, commit.seq, commit.owner],
      );
      if (!mine.rows.length) return { committed: false, finished: false, job: await this.jobIn(c, commit.jobId) };
      const at = commit.now.toISOString();
      const outcomes: (ChargeOutcome | null)[] = [];
      for (const a of commit.charges) {
        if (a === null) outcomes.push(null);
        else outcomes.push((await c.query<ChargeOutcome>('SELECT outcome, used FROM propintel_charge($1, $2, $3, $4, $5)', [commit.keyId, commit.periodKey, a, commit.quota, at])).rows[0]);
      }
      const { result, failed, chargedRows } = commit.encode(outcomes.map((o) => o?.outcome ?? null));
      const charged = outcomes.filter((o) => o?.outcome === 'charged').length;
      // The job's bytes: the chunk's input goes, its results and the payloads no other chunk stored come.
      const input = await c.query<{ n: number }>('SELECT coalesce(octet_length(input), 0) AS n FROM batch_chunks WHERE job_id = $1 AND seq = $2', [commit.jobId, commit.seq]);
      let added = result.byteLength - (input.rows[0]?.n ?? 0);
      for (const p of commit.payloads ?? []) {
        const put = await c.query('INSERT INTO batch_payloads (job_id, hash, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [commit.jobId, p.hash, Buffer.from(p.body.buffer, p.body.byteOffset, p.body.byteLength)]);
        if (put.rowCount) added += p.body.byteLength;
      }
      await c.query("UPDATE batch_chunks SET status = 'done', result = $1, charged_rows = $2, payload_hashes = $3, input = NULL, owner = NULL WHERE job_id = $4 AND seq = $5", [Buffer.from(result.buffer, result.byteOffset, result.byteLength), chargedRows ? JSON.stringify(chargedRows) : null, commit.payloads ? JSON.stringify(commit.payloads.map((p) => p.hash)) : null, commit.jobId, commit.seq]);
      await c.query(
        'UPDATE batch_jobs SET rows_done = rows_done + $1, rows_failed = rows_failed + $2, charged = charged + $3, chunks_done = chunks_done + 1, first_done_at = coalesce(first_done_at, $4), stored_bytes = stored_bytes + $6 WHERE id = $5',
        [commit.charges.length, failed, charged, commit.now.getTime(), commit.jobId, added],
      );
      const expires = commit.now.getTime() + commit.retentionMs;
      const refused = outcomes.find((o) => o?.outcome === 'quota_exceeded');
      // Chunks other commits hold are passed over (SKIP LOCKED): they commit after this and find the job stopped.
      let finished = refused
        ? await this.stopIn(c, commit.jobId, 'failed', quotaError(commit, refused.used), at, expires, true)
        : (await c.query("UPDATE batch_jobs SET status = 'done', finished_at = $1, expires_at = $2 WHERE id = $3 AND status = 'running' AND chunks_done = chunks_total", [at, expires, commit.jobId])).rowCount === 1;
      if (!finished && commit.storageLimit !== undefined) {
        const usage = toUsage((await c.query(USAGE, [commit.keyId, commit.now.getTime()])).rows[0]);
        if (usage.stored_bytes > commit.storageLimit) finished = await this.stopIn(c, commit.jobId, 'failed', storageError(commit.storageLimit, usage.stored_bytes), at, expires, true);
      }
      return { committed: true, finished, job: await this.jobIn(c, commit.jobId) };
    });
  }

  private async jobIn(c: pg.PoolClient, id: string): Promise<BatchJob | undefined> {
    return toJob((await c.query<JobRow>('SELECT * FROM batch_jobs WHERE id = $1', [id])).rows[0]);
  }

  /** Stops a queued or running job; true when it did (false: it had already finished). */
  private async stopIn(c: pg.PoolClient, id: string, status: 'failed' | 'cancelled', error: BatchJobError, at: string, expires: number, skipLocked = false): Promise<boolean> {
    // The open chunks first (the order every transaction here takes its locks in: chunks, then the job).
    const skipped = await c.query<{ row_count: number }>(
      `WITH l AS (SELECT seq FROM batch_chunks WHERE job_id = $1 AND status IN ('pending', 'running') ORDER BY seq FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''})
       UPDATE batch_chunks SET status = 'skipped', owner = NULL WHERE job_id = $1 AND seq IN (SELECT seq FROM l) RETURNING row_count`,
      [id],
    );
    const rows = skipped.rows.reduce((a, r) => a + r.row_count, 0);
    const r = await c.query("UPDATE batch_jobs SET status = $1, error = $2, finished_at = $3, expires_at = $4, rows_skipped = rows_skipped + $6 WHERE id = $5 AND status IN ('queued', 'running')", [status, JSON.stringify(error), at, expires, id, rows]);
    return r.rowCount === 1;
  }

  failJob(id: string, error: BatchJobError, now: Date, retentionMs: number): Promise<BatchJob | undefined> {
    return this.tx(async (c) => {
      await this.stopIn(c, id, 'failed', error, now.toISOString(), now.getTime() + retentionMs);
      return this.jobIn(c, id);
    });
  }

  cancelJob(id: string, now: Date, retentionMs: number): Promise<BatchJob | undefined> {
    return this.tx(async (c) => {
      await this.stopIn(c, id, 'cancelled', { error: 'cancelled', message: `cancelled at ${now.toISOString()}` }, now.toISOString(), now.getTime() + retentionMs);
      return this.jobIn(c, id);
    });
  }

  async chunks(jobId: string, fromSeq: number, limit: number): Promise<StoredChunk[]> {
    return (await this.q<StoredChunk>('SELECT seq, first_row, row_count, status, result, charged_rows, payload_hashes, input FROM batch_chunks WHERE job_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3', [jobId, fromSeq, limit])).rows;
  }

  async storedBytes(jobId: string): Promise<number> {
    const r = await this.q<{ n: string }>(
      `SELECT (SELECT coalesce(sum(coalesce(octet_length(input), 0) + coalesce(octet_length(result), 0)), 0) FROM batch_chunks WHERE job_id = $1)
        + (SELECT coalesce(sum(octet_length(body)), 0) FROM batch_payloads WHERE job_id = $1) AS n`,
      [jobId],
    );
    return Number(r.rows[0].n);
  }

  async payloads(jobId: string, hashes: readonly string[]): Promise<{ hash: string; body: Buffer }[]> {
    if (!hashes.length) return [];
    return (await this.q<{ hash: string; body: Buffer }>('SELECT hash, body FROM batch_payloads WHERE job_id = $1 AND hash = ANY($2)', [jobId, [...hashes]])).rows;
  }

  deleteExpired(now: number): Promise<number> {
    return this.tx(async (c) => {
      const ids = (await c.query<{ id: string }>('DELETE FROM batch_jobs WHERE expires_at IS NOT NULL AND expires_at < $1 RETURNING id', [now])).rows.map((r) => r.id);
      if (ids.length) await c.query('DELETE FROM batch_chunks WHERE job_id = ANY($1)', [ids]);
      if (ids.length) await c.query('DELETE FROM batch_payloads WHERE job_id = ANY($1)', [ids]);
      return ids.length;
    });
  }
}
