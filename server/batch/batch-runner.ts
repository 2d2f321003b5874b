/**
 * The batch worker each server runs (and any number of replicas run against one PostgreSQL database): it
 * claims a chunk (a lease, renewed while it works), looks its rows up in spatial order at the engine's
 * width (propintel/batch's lookupRows), and commits the results with the meter's charges in one transaction.
 * A chunk it loses (its lease taken over, the job cancelled) is dropped without writing; a chunk in hand when
 * it stops is handed back at once; one it held when the process died is taken over when the lease runs out.
 *
 * Metering is the single lookup's: each unique address once per key per billing period (a repeat, a sandbox
 * address, anything in the onboarding window and a payload whose core components failed are free). A charge
 * the quota refuses marks that row `quota_exceeded` and stops the job; nothing past the quota is charged.
 */
import { hostname } from 'node:os';
import { failedRow, lookupRows, packResults, type BatchLookupService, type BatchRow, type PackedResults, type StoredBatchRow } from '../../engine/entry/batch.js';
import { BillingPeriodCache, inOnboarding } from '../metering/billing-period.js';
import type { BatchJob, ClaimedChunk } from '../store/batch-store.js';
import type { ServerStore } from '../store/store.js';
import { sendBatchCallback } from './batch-callback.js';
import { batchDocument, batchLimits, packLines, unpackLines, type BatchLimits } from './batch-jobs.js';

/** How often a chunk being worked checks that its job still runs, ms (a cancel elsewhere stops it within this). */
const WATCH_MS = 1_000;

/** Tries a chunk gets before its rows are recorded as errors. */
export const MAX_ATTEMPTS = 3;

/** Options of {@link BatchRunner}. */
export interface BatchRunnerOptions {
  store: ServerStore;
  service: BatchLookupService;
  clock?: () => Date;
  /** How long a claimed chunk is this worker's without renewal, ms (default 60,000; renewed every third of it). */
  leaseMs?: number;
  /** How long to wait when there is nothing to do, ms (default 1,000; a new job wakes it at once). */
  idleMs?: number;
  /** Lookups at once within a chunk (default 8). */
  concurrency?: number;
  /** The order of lookups within a chunk: `spatial` (default, Hilbert) or `input` (the benchmark's comparison). */
  order?: 'spatial' | 'input';
  /** Callback URLs may be private addresses (tests, a private deployment). */
  allowPrivate?: boolean;
  log?: (line: string) => void;
  /** This worker's name in the leases (default host, process id and a random part). */
  owner?: string;
  /** What each key may hold (the storage limit stops a job that passes it; the retention is a finished job's). */
  limits?: Partial<BatchLimits>;
}

/** The batch worker. */
export class BatchRunner {
  readonly owner: string;
  private readonly clock: () => Date;
  private readonly leaseMs: number;
  private readonly limits: BatchLimits;
  private readonly periods = new BillingPeriodCache();
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private current: { claim: ClaimedChunk; controller: AbortController } | null = null;
  private lastExpiry = 0;
  /** Chunks committed by this worker (for /metrics and tests). */
  chunksDone = 0;

  constructor(private readonly options: BatchRunnerOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.leaseMs = options.leaseMs ?? 60_000;
    this.limits = batchLimits(options.limits);
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  }

  /** Starts working (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.work();
  }

  /** Wakes an idle worker (a job was just created). */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Told that job `id` was cancelled (`DELETE` on this server): a chunk of it in hand stops at once, its rows
   * not yet looked up left as they are. A replica that did not hear of it finds out within a second.
   */
  cancelled(id: string): void {
    if (this.current?.claim.job.id === id) this.current.controller.abort();
  }

  /** Stops: the chunk in hand is abandoned and handed back for another worker (or the next start). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.current?.controller.abort();
    this.wake();
    await this.loop;
  }

  /** Works one chunk if there is one; false when there was none (tests drive the worker with it). */
  async runOnce(): Promise<boolean> {
    const batches = this.options.store.batches();
    const now = this.clock().getTime();
    if (now - this.lastExpiry > 3600_000) {
      this.lastExpiry = now;
      await batches.deleteExpired(now);
    }
    const claim = await batches.claimChunk(this.owner, this.leaseMs, now);
    if (!claim) return false;
    try {
      await this.work1(claim);
    } catch (err) {
      // The chunk failed as a whole (its rows unreadable, the store lost mid-commit): handed back at once for
      // another try, and after MAX_ATTEMPTS its rows are recorded as errors so the job goes on.
      this.options.log?.(`batch: ${claim.job.id} chunk ${claim.seq} (attempt ${claim.attempts}): ${(err as Error).message}`);
      if (claim.attempts >= MAX_ATTEMPTS) await this.giveUp(claim, err);
      else await Promise.resolve(batches.releaseChunk(claim.job.id, claim.seq, this.owner)).catch(() => {});
    }
    return true;
  }

  /** Records every row of a chunk that failed MAX_ATTEMPTS times as `error` (nothing charged), or fails the job when even its rows cannot be read. */
  private async giveUp(claim: ClaimedChunk, cause: unknown): Promise<void> {
    const batches = this.options.store.batches();
    const message = `this row's chunk failed ${claim.attempts} times: ${(cause as Error)?.message ?? String(cause)}`;
    let rows: BatchRow[];
    try {
      rows = unpackLines<BatchRow>(claim.input);
    } catch {
      const job = await batches.failJob(claim.job.id, { error: 'internal_error', message }, this.clock(), this.limits.retentionMs);
      if (job) this.completed(job);
      return;
    }
    const stored: StoredBatchRow[] = rows.map((r) => ({ ...failedRow(r, 'internal_error', message), charged: false }));
    const now = this.clock();
    const out = await batches.commitChunk({ jobId: claim.job.id, seq: claim.seq, owner: this.owner, now, retentionMs: this.limits.retentionMs, keyId: claim.job.key_id, periodKey: '-', quota: 0, charges: rows.map(() => null), encode: () => ({ result: packLines(stored), failed: stored.length }) });
    if (out.finished && out.job) this.completed(out.job);
  }

  private async work(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runOnce();
      } catch (err) {
        this.options.log?.(`batch: ${(err as Error).message}`);
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.options.idleMs ?? 1000);
          this.wakeUp = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wakeUp = null;
      }
    }
  }

  private async work1(claim: ClaimedChunk): Promise<void> {
    const { store } = this.options;
    const batches = store.batches();
    const job = claim.job;
    const controller = new AbortController();
    this.current = { claim, controller };
    const key = await store.keyById(job.key_id);
    if (!key || key.revoked_at) {
      this.current = null;
      await this.keyRevoked(job, key);
      return;
    }
    // The key as it stands now: read again every second while the chunk is worked (a revoked key stops it) and
    // at its commit (the quota and period charged are the key's then, not at the chunk's start).
    let revoked = false;
    // The lease renewed while the chunk is worked; lost (taken over, or the job stopped) -> stop and drop it.
    // Between renewals the job's status is checked every second, so a job cancelled through another replica
    // stops within about a second too.
    let lastRenew = Date.now();
    const watch = setInterval(() => {
      const renewing = Date.now() - lastRenew >= Math.max(50, this.leaseMs / 3);
      if (renewing) lastRenew = Date.now();
      const check = renewing ? batches.renewLease(job.id, claim.seq, this.owner, this.clock().getTime() + this.leaseMs) : Promise.resolve(batches.job(job.id)).then((j) => !!j && j.status === 'running');
      void Promise.resolve(check).then(
        (mine) => mine || controller.abort(),
        () => {},
      );
      void Promise.resolve(store.keyById(job.key_id)).then(
        (k) => {
          if (!k || k.revoked_at) {
            revoked = true;
            controller.abort();
          }
        },
        () => {},
      );
    }, Math.min(WATCH_MS, Math.max(50, this.leaseMs / 3)));
    let results: PackedResults;
    try {
      const property = { components: job.options.components ?? undefined, include_geometry: job.options.include_geometry, licence: { components: key.components, geometry: key.geometry } };
      const service = this.options.service;
      // An engine with threads looks the chunk up there and hands back packed results; else it is looked up here.
      results = service.batchChunk
        ? await service.batchChunk(claim.input, claim.row_count, { property, order: this.options.order, signal: controller.signal })
        : packResults(await lookupRows(service, unpackLines<BatchRow>(claim.input), { property, concurrency: this.options.concurrency ?? 8, order: this.options.order, signal: controller.signal }));
    } catch (err) {
      // Stopped part-way (the job cancelled, the lease lost, the server stopping): handed back below.
      if (!controller.signal.aborted) throw err;
      results = { meta: [], packed: new Uint8Array(0), failed: 0, payloads: [] };
    } finally {
      clearInterval(watch);
      this.current = null;
    }
    // Revoked while the chunk was worked, or before its commit: nothing of it is charged or stored.
    const now0 = await store.keyById(job.key_id);
    if (revoked || !now0 || now0.revoked_at) {
      await batches.releaseChunk(job.id, claim.seq, this.owner);
      await this.keyRevoked(job, now0);
      return;
    }
    if (controller.signal.aborted) {
      // Stopping, or the chunk is no longer ours: hand it back if it still is.
      await batches.releaseChunk(job.id, claim.seq, this.owner);
      return;
    }
    const now = this.clock();
    const current = now0;
    const period = this.periods.get(now, current.period, current.effective_date);
    const free = inOnboarding(now, current.onboarding_until);
    const out = await batches.commitChunk({
      jobId: job.id,
      seq: claim.seq,
      owner: this.owner,
      now,
      retentionMs: this.limits.retentionMs,
      storageLimit: this.limits.storedBytes,
      keyId: current.id,
      periodKey: period.key,
      quota: current.quota,
      charges: results.meta.map((r) => (r.status === 'ok' && r.address_key && !r.sandbox && r.chargeable && !free ? r.address_key : null)),
      payloads: results.payloads,
      encode: (outcomes) => {
        if (!outcomes.includes('quota_exceeded')) {
          // The usual commit: the pack as it was made, and which of its rows were charged.
          const chargedRows: number[] = [];
          outcomes.forEach((o, i) => o === 'charged' && chargedRows.push(i));
          return { result: results.packed, failed: results.failed, chargedRows };
        }
        // The chunk where the quota ran out (once a job): its rows rewritten here, the refused ones as errors.
        const stored: StoredBatchRow[] = unpackLines<StoredBatchRow>(results.packed).map((r, i) =>
          outcomes[i] === 'quota_exceeded'
            ? { ...r, status: 'error', error: 'quota_exceeded', message: `the key reached its quota of ${current.quota} unique addresses in billing period ${period.key}; this row would be a new one (not charged)`, payload: null, payload_hash: null, charged: false }
            : { ...r, charged: outcomes[i] === 'charged' },
        );
        return { result: packLines(stored), failed: stored.filter((r) => r.status !== 'ok').length };
      },
    });
    if (!out.committed) return;
    this.chunksDone++;
    if (out.finished && out.job) this.completed(out.job);
  }

  /** Stops a job whose key was revoked (or deleted), saying so; its rows not yet committed are neither looked up nor charged. */
  private async keyRevoked(job: BatchJob, key: { revoked_at: string | null } | undefined): Promise<void> {
    const when = key?.revoked_at ? ` at ${key.revoked_at}` : '';
    const failed = await this.options.store.batches().failJob(job.id, { error: 'key_revoked', message: `the key that submitted the job was revoked${when}; the rows not yet done when it was were neither looked up nor charged` }, this.clock(), this.limits.retentionMs);
    if (failed?.status === 'failed') this.completed(failed);
  }

  /** The `batch.completed` webhook of a job this worker finished. */
  private completed(job: BatchJob): void {
    const url = job.options.callback_url;
    if (!url || !job.callback_secret) return;
    const body = JSON.stringify({ type: 'batch.completed', timestamp: this.clock().toISOString(), data: batchDocument(job, this.clock()) });
    void sendBatchCallback({ url, secret: job.callback_secret, id: `msg_${job.id}`, body, allowPrivate: !!this.options.allowPrivate, clock: this.clock }).then((r) => {
      if (!r.ok) this.options.log?.(`batch: ${job.id}: the batch.completed webhook to ${url} failed: ${r.error}`);
    });
  }
}
