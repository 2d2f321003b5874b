/**
 * Batch jobs in the SQLite store (batch-store.ts says what is kept and why). Every change is one IMMEDIATE
 * transaction, so it is atomic in this process and across processes sharing the file; a chunk's commit
 * charges the meter with the same statements as a single lookup, inside the same transaction.
 */
import type Database from 'better-sqlite3';
import { sqliteReconcile } from '../../../engine/entry/data.js';
import type { BatchCreateLimits, BatchJob, BatchJobError, BatchKeyUsage, BatchRefusal, BatchRepository, ChunkCommit, ClaimedChunk, CommitOutcome, NewBatchChunk, StoredChunk } from '../batch-store.js';
import { EMPTY_JOB_RETENTION_MS, quotaError, refusal, storageError } from '../batch-store.js';
import type { ChargeOutcome } from '../charge.js';
import { BATCH_TABLES } from '../tables.js';

interface JobRow extends Omit<BatchJob, 'options' | 'columns' | 'error'> {
  options: string;
  columns: string;
  error: string | null;
}

const toJob = (r: JobRow | undefined): BatchJob | undefined =>
  r && { ...r, options: JSON.parse(r.options), columns: JSON.parse(r.columns), error: r.error ? JSON.parse(r.error) : null };


/** The charge of one address, run inside the caller's transaction (sqlite-store.ts's meter). */
export type ChargeStep = (keyId: string, periodKey: string, addressKey: string, quota: number, at: string) => ChargeOutcome;

/** The SQLite {@link BatchRepository}. */
export class SqliteBatchStore implements BatchRepository {
  private readonly s;
  private readonly tx;

  constructor(private readonly db: Database.Database, charge: ChargeStep) {
    sqliteReconcile(db, BATCH_TABLES);
    const s = {
      insertJob: db.prepare(`INSERT INTO batch_jobs (id, key_id, status, created_at, started_at, finished_at, expires_at, input_format, options, columns, callback_secret, rows_total, rows_done, rows_failed, rows_skipped, charged, chunks_total, chunks_done, error, first_done_at, stored_bytes)
        VALUES (@id, @key_id, @status, @created_at, @started_at, @finished_at, @expires_at, @input_format, @options, @columns, @callback_secret, @rows_total, @rows_done, @rows_failed, @rows_skipped, @charged, @chunks_total, @chunks_done, @error, @first_done_at, @stored_bytes)`),
      usage: db.prepare(`SELECT coalesce(sum(CASE WHEN status IN ('queued', 'running') THEN 1 ELSE 0 END), 0) AS open_jobs, coalesce(sum(stored_bytes), 0) AS stored_bytes, min(expires_at) AS next_expiry
        FROM batch_jobs WHERE key_id = ? AND (expires_at IS NULL OR expires_at >= ?)`),
      inputBytes: db.prepare('SELECT coalesce(length(input), 0) FROM batch_chunks WHERE job_id = ? AND seq = ?').pluck(),
      addBytes: db.prepare('UPDATE batch_jobs SET stored_bytes = stored_bytes + ? WHERE id = ?'),
      insertChunk: db.prepare("INSERT INTO batch_chunks (job_id, seq, first_row, row_count, input, status) VALUES (?, ?, ?, ?, ?, 'pending')"),
      job: db.prepare('SELECT * FROM batch_jobs WHERE id = ?'),
      next: db.prepare(`SELECT c.job_id, c.seq FROM batch_chunks c JOIN batch_jobs j ON j.id = c.job_id
        WHERE j.status IN ('queued', 'running') AND (c.status = 'pending' OR (c.status = 'running' AND c.lease_until < ?))
        ORDER BY j.chunks_done, j.created_at, c.seq LIMIT 1`),
      lease: db.prepare("UPDATE batch_chunks SET status = 'running', owner = ?, lease_until = ?, attempts = attempts + 1 WHERE job_id = ? AND seq = ? RETURNING first_row, row_count, input, attempts"),
      start: db.prepare("UPDATE batch_jobs SET status = 'running', started_at = coalesce(started_at, ?) WHERE id = ? AND status = 'queued'"),
      renew: db.prepare("UPDATE batch_chunks SET lease_until = ? WHERE job_id = ? AND seq = ? AND owner = ? AND status = 'running' AND (SELECT status FROM batch_jobs WHERE id = job_id) = 'running'"),
      release: db.prepare("UPDATE batch_chunks SET status = 'pending', owner = NULL, lease_until = 0 WHERE job_id = ? AND seq = ? AND owner = ? AND status = 'running'"),
      owned: db.prepare("SELECT 1 FROM batch_chunks c JOIN batch_jobs j ON j.id = c.job_id WHERE c.job_id = ? AND c.seq = ? AND c.owner = ? AND c.status = 'running' AND j.status = 'running'").pluck(),
      done: db.prepare("UPDATE batch_chunks SET status = 'done', result = ?, charged_rows = ?, payload_hashes = ?, input = NULL, owner = NULL WHERE job_id = ? AND seq = ?"),
      payload: db.prepare('INSERT OR IGNORE INTO batch_payloads (job_id, hash, body) VALUES (?, ?, ?)'),
      payloads: db.prepare('SELECT hash, body FROM batch_payloads WHERE job_id = ? AND hash IN (SELECT value FROM json_each(?))'),
      dropPayloads: db.prepare('DELETE FROM batch_payloads WHERE job_id = ?'),
      bytes: db.prepare(`SELECT (SELECT coalesce(sum(coalesce(length(input), 0) + coalesce(length(result), 0)), 0) FROM batch_chunks WHERE job_id = ?)
        + (SELECT coalesce(sum(length(body)), 0) FROM batch_payloads WHERE job_id = ?)`).pluck(),
      count: db.prepare(`UPDATE batch_jobs SET rows_done = rows_done + ?, rows_failed = rows_failed + ?, charged = charged + ?, chunks_done = chunks_done + 1,
        first_done_at = coalesce(first_done_at, ?) WHERE id = ?`),
      finish: db.prepare("UPDATE batch_jobs SET status = 'done', finished_at = ?, expires_at = ? WHERE id = ? AND status = 'running' AND chunks_done = chunks_total"),
      stop: db.prepare("UPDATE batch_jobs SET status = ?, error = ?, finished_at = ?, expires_at = ? WHERE id = ? AND status IN ('queued', 'running')"),
      skipRows: db.prepare("SELECT coalesce(sum(row_count), 0) FROM batch_chunks WHERE job_id = ? AND status IN ('pending', 'running')").pluck(),
      skip: db.prepare("UPDATE batch_chunks SET status = 'skipped', owner = NULL WHERE job_id = ? AND status IN ('pending', 'running')"),
      skipped: db.prepare('UPDATE batch_jobs SET rows_skipped = rows_skipped + ? WHERE id = ?'),
      chunks: db.prepare('SELECT seq, first_row, row_count, status, result, charged_rows, payload_hashes, input FROM batch_chunks WHERE job_id = ? AND seq >= ? ORDER BY seq LIMIT ?'),
      expired: db.prepare('SELECT id FROM batch_jobs WHERE expires_at IS NOT NULL AND expires_at < ?').pluck(),
      dropChunks: db.prepare('DELETE FROM batch_chunks WHERE job_id = ?'),
      dropJob: db.prepare('DELETE FROM batch_jobs WHERE id = ?'),
    };
    this.s = s;
    const stopJob = (id: string, status: 'failed' | 'cancelled', error: BatchJobError, at: string, expires: number): boolean => {
      const changed = s.stop.run(status, JSON.stringify(error), at, expires, id).changes === 1;
      if (changed) {
        const rows = s.skipRows.get(id) as number;
        s.skip.run(id);
        s.skipped.run(rows, id);
      }
      return changed;
    };
    this.tx = {
      create: db.transaction((job: BatchJob, chunks: readonly NewBatchChunk[], limits?: BatchCreateLimits): BatchRefusal | undefined => {
        job = { ...job, stored_bytes: chunks.reduce((a, c) => a + c.input.byteLength, 0) };
        if (limits) {
          const usage = s.usage.get(job.key_id, limits.now) as BatchKeyUsage;
          const refused = refusal(usage, limits, job.stored_bytes);
          if (refused) return refused;
        }
        // A job of no chunks has nothing to work: done at once.
        if (chunks.length === 0) job = { ...job, status: 'done', started_at: job.created_at, finished_at: job.created_at, expires_at: Date.parse(job.created_at) + EMPTY_JOB_RETENTION_MS };
        s.insertJob.run({ ...job, options: JSON.stringify(job.options), columns: JSON.stringify(job.columns), error: job.error ? JSON.stringify(job.error) : null });
        for (const c of chunks) s.insertChunk.run(job.id, c.seq, c.first_row, c.row_count, c.input);
        return undefined;
      }),
      claim: db.transaction((owner: string, leaseMs: number, now: number): ClaimedChunk | undefined => {
        const next = s.next.get(now) as { job_id: string; seq: number } | undefined;
        if (!next) return undefined;
        const c = s.lease.get(owner, now + leaseMs, next.job_id, next.seq) as { first_row: number; row_count: number; input: Buffer; attempts: number };
        s.start.run(new Date(now).toISOString(), next.job_id);
        return { job: toJob(s.job.get(next.job_id) as JobRow)!, seq: next.seq, ...c };
      }),
      commit: db.transaction((c: ChunkCommit): CommitOutcome => {
        if (!s.owned.get(c.jobId, c.seq, c.owner)) return { committed: false, finished: false, job: toJob(s.job.get(c.jobId) as JobRow | undefined) };
        const at = c.now.toISOString();
        const outcomes = c.charges.map((a) => (a === null ? null : charge(c.keyId, c.periodKey, a, c.quota, at)));
        const { result, failed, chargedRows } = c.encode(outcomes.map((o) => o?.outcome ?? null));
        const charged = outcomes.filter((o) => o?.outcome === 'charged').length;
        // The job's bytes: the chunk's input goes, its results and the payloads no other chunk stored come.
        let added = result.byteLength - (s.inputBytes.get(c.jobId, c.seq) as number);
        for (const p of c.payloads ?? []) if (s.payload.run(c.jobId, p.hash, p.body).changes) added += p.body.byteLength;
        s.addBytes.run(added, c.jobId);
        s.done.run(result, chargedRows ? JSON.stringify(chargedRows) : null, c.payloads ? JSON.stringify(c.payloads.map((p) => p.hash)) : null, c.jobId, c.seq);
        s.count.run(c.charges.length, failed, charged, c.now.getTime(), c.jobId);
        const refused = outcomes.find((o) => o?.outcome === 'quota_exceeded');
        const expires = c.now.getTime() + c.retentionMs;
        let finished = refused ? stopJob(c.jobId, 'failed', quotaError(c, refused.used), at, expires) : s.finish.run(at, expires, c.jobId).changes === 1;
        if (!finished && c.storageLimit !== undefined) {
          const usage = s.usage.get(c.keyId, c.now.getTime()) as BatchKeyUsage;
          if (usage.stored_bytes > c.storageLimit) finished = stopJob(c.jobId, 'failed', storageError(c.storageLimit, usage.stored_bytes), at, expires);
        }
        return { committed: true, finished, job: toJob(s.job.get(c.jobId) as JobRow) };
      }),
      stop: db.transaction((id: string, status: 'failed' | 'cancelled', error: BatchJobError, now: Date, retentionMs: number) => {
        stopJob(id, status, error, now.toISOString(), now.getTime() + retentionMs);
        return toJob(s.job.get(id) as JobRow | undefined);
      }),
      expire: db.transaction((now: number) => {
        const ids = s.expired.all(now) as string[];
        for (const id of ids) {
          s.dropChunks.run(id);
          s.dropPayloads.run(id);
          s.dropJob.run(id);
        }
        return ids.length;
      }),
    };
  }

  createJob(job: BatchJob, chunks: readonly NewBatchChunk[], limits?: BatchCreateLimits): BatchRefusal | undefined {
    return this.tx.create.immediate(job, chunks, limits);
  }

  keyUsage(keyId: string, now: number): BatchKeyUsage {
    return this.s.usage.get(keyId, now) as BatchKeyUsage;
  }

  job(id: string): BatchJob | undefined {
    return toJob(this.s.job.get(id) as JobRow | undefined);
  }

  claimChunk(owner: string, leaseMs: number, now: number): ClaimedChunk | undefined {
    return this.tx.claim.immediate(owner, leaseMs, now);
  }

  renewLease(jobId: string, seq: number, owner: string, until: number): boolean {
    return this.s.renew.run(until, jobId, seq, owner).changes === 1;
  }

  releaseChunk(jobId: string, seq: number, owner: string): void {
    this.s.release.run(jobId, seq, owner);
  }

  commitChunk(commit: ChunkCommit): CommitOutcome {
    return this.tx.commit.immediate(commit);
  }

  failJob(id: string, error: BatchJobError, now: Date, retentionMs: number): BatchJob | undefined {
    return this.tx.stop.immediate(id, 'failed', error, now, retentionMs);
  }

  cancelJob(id: string, now: Date, retentionMs: number): BatchJob | undefined {
    return this.tx.stop.immediate(id, 'cancelled', { error: 'cancelled', message: `cancelled at ${now.toISOString()}` }, now, retentionMs);
  }

  chunks(jobId: string, fromSeq: number, limit: number): StoredChunk[] {
    return this.s.chunks.all(jobId, fromSeq, limit) as StoredChunk[];
  }

  storedBytes(jobId: string): number {
    return this.s.bytes.get(jobId, jobId) as number;
  }

  payloads(jobId: string, hashes: readonly string[]): { hash: string; body: Buffer }[] {
    return hashes.length ? (this.s.payloads.all(jobId, JSON.stringify(hashes)) as { hash: string; body: Buffer }[]) : [];
  }

  deleteExpired(now: number): number {
    return this.tx.expire.immediate(now);
  }
}




