/**
 * Where webhook subscriptions and deliveries live: tables in the server store's SQLite file, beside the keys
 * (server/store/sqlite/sqlite-store.ts opens it). Deliveries are durable: a restart, or another process running
 * `propintel webhooks run` on the same file, picks up what is pending.
 *
 * A delivery that is being sent holds a lease: its `next_attempt_at` is pushed past the send's timeout when
 * it is claimed (a conditional UPDATE, so two workers never claim one delivery). If the process dies while
 * sending, the lease runs out and the delivery is sent again, with the same `webhook-id`, which receivers
 * use to drop duplicates (at-least-once, as every webhook sender delivers).
 */
import type Database from 'better-sqlite3';
import { sqliteReconcile } from '../../../engine/entry/data.js';
import type { DaEvent, DaEventType } from '../../../engine/entry/das.js';
import type { MaybePromise } from '../../maybe-promise.js';
import { WEBHOOK_TABLES } from '../tables.js';
import type { WebhookEventType, WebhookFilters, WebhookSubscription, DeliveryState, WebhookDelivery, DeliveryAttempt, NewDelivery, WebhookRepository, DaEventSource } from '../webhook-store.js';

export type { WebhookEventType, WebhookFilters, WebhookSubscription, DeliveryState, WebhookDelivery, DeliveryAttempt, NewDelivery, WebhookRepository, DaEventSource } from '../webhook-store.js';

interface SubscriptionRow extends Omit<WebhookSubscription, 'events' | 'filters'> {
  events: string;
  filters: string;
}

const subscriptionOf = (r: SubscriptionRow): WebhookSubscription => ({ ...r, events: JSON.parse(r.events), filters: JSON.parse(r.filters) });


/** Subscriptions and deliveries on one SQLite database (the server store's). */
export class WebhookStore implements WebhookRepository {
  private readonly s;
  private readonly dueStatements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {
    sqliteReconcile(db, WEBHOOK_TABLES);
    this.s = {
      insert: db.prepare(`INSERT INTO webhooks (id, key_id, url, events, filters, secret, status, disabled_reason, created_at, after_event)
        VALUES (@id, @key_id, @url, @events, @filters, @secret, @status, @disabled_reason, @created_at, @after_event)`),
      byId: db.prepare('SELECT * FROM webhooks WHERE id = ?'),
      byKey: db.prepare('SELECT * FROM webhooks WHERE key_id = ? ORDER BY created_at, id'),
      countByKey: db.prepare('SELECT count(*) FROM webhooks WHERE key_id = ?').pluck(),
      active: db.prepare("SELECT * FROM webhooks WHERE status = 'active'"),
      remove: db.prepare('DELETE FROM webhooks WHERE id = ? AND key_id = ?'),
      disable: db.prepare("UPDATE webhooks SET status = 'disabled', disabled_reason = ? WHERE id = ?"),
      cancelPending: db.prepare("UPDATE webhook_deliveries SET state = 'cancelled', last_error = ? WHERE webhook_id = ? AND state = 'pending'"),
      addDelivery: db.prepare(`INSERT INTO webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at)
        VALUES (@id, @webhook_id, @event_id, @type, @body, 'pending', 0, @at, @at)`),
      nextDue: db.prepare("SELECT min(next_attempt_at) FROM webhook_deliveries WHERE state = 'pending'").pluck(),
      claim: db.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND state = 'pending' AND next_attempt_at = ?"),
      // Only while this worker's lease holds: a worker whose lease ran out (a stalled process) records nothing.
      finish: db.prepare('UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ? WHERE id = ? AND next_attempt_at = ?'),
      cancel: db.prepare("UPDATE webhook_deliveries SET state = 'cancelled', last_error = ? WHERE id = ? AND next_attempt_at = ?"),
      addAttempt: db.prepare('INSERT OR REPLACE INTO webhook_attempts (delivery_id, attempt, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)'),
      recent: db.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?'),
      attempts: db.prepare('SELECT attempt, at, status, error, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt'),
      delivery: db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
      getMeta: db.prepare('SELECT value FROM webhook_meta WHERE key = ?').pluck(),
      setMeta: db.prepare('INSERT INTO webhook_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      pruneDeliveries: db.prepare("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ?"),
      pruneAttempts: db.prepare('DELETE FROM webhook_attempts WHERE delivery_id NOT IN (SELECT id FROM webhook_deliveries)'),
    };
  }

  insertSubscription(sub: WebhookSubscription): void {
    this.s.insert.run({ ...sub, events: JSON.stringify(sub.events), filters: JSON.stringify(sub.filters) });
  }

  subscription(id: string): WebhookSubscription | undefined {
    const r = this.s.byId.get(id) as SubscriptionRow | undefined;
    return r ? subscriptionOf(r) : undefined;
  }

  subscriptionsOf(keyId: string): WebhookSubscription[] {
    return (this.s.byKey.all(keyId) as SubscriptionRow[]).map(subscriptionOf);
  }

  countSubscriptions(keyId: string): number {
    return this.s.countByKey.get(keyId) as number;
  }

  activeSubscriptions(): WebhookSubscription[] {
    return (this.s.active.all() as SubscriptionRow[]).map(subscriptionOf);
  }

  /** Deletes a key's subscription and cancels its pending deliveries; false when the key has no such subscription. */
  deleteSubscription(id: string, keyId: string): boolean {
    return this.db.transaction(() => {
      const gone = this.s.remove.run(id, keyId).changes > 0;
      if (gone) this.s.cancelPending.run('subscription deleted', id);
      return gone;
    })();
  }

  /** Disables a subscription (its endpoint answered 410 Gone) and cancels its pending deliveries. */
  disableSubscription(id: string, reason: string): void {
    this.db.transaction(() => {
      this.s.disable.run(reason, id);
      this.s.cancelPending.run(`subscription disabled: ${reason}`, id);
    })();
  }

  /** A meta value (the dispatcher's event cursor). */
  meta(key: string): string | undefined {
    return this.s.getMeta.get(key) as string | undefined;
  }

  /**
   * Adds deliveries and moves the event cursor to `cursor`, in one transaction: an event is fanned out to
   * its subscriptions exactly once, even with several workers or a crash between the two.
   * Returns false (and writes nothing) when the cursor was no longer `expected` (another worker got there first).
   */
  enqueue(deliveries: readonly NewDelivery[], cursorKey: string, expected: string | undefined, cursor: string, at: number): boolean {
    return this.db.transaction(() => {
      if (this.meta(cursorKey) !== expected) return false;
      for (const d of deliveries) this.s.addDelivery.run({ ...d, at });
      this.s.setMeta.run(cursorKey, cursor);
      return true;
    }).immediate();
  }

  /** Adds one delivery (a ping), due at once. */
  addDelivery(d: NewDelivery, at: number): void {
    this.s.addDelivery.run({ ...d, at });
  }

  /** Up to `limit` pending deliveries due at `now`, earliest first, leaving out the subscriptions in `skip`. */
  due(now: number, limit: number, skip: readonly string[] = []): WebhookDelivery[] {
    const not = skip.length ? ` AND webhook_id NOT IN (${skip.map(() => '?').join(', ')})` : '';
    const sql = `SELECT * FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ?${not} ORDER BY next_attempt_at, created_at LIMIT ?`;
    let stmt = this.dueStatements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.dueStatements.size < 64) this.dueStatements.set(sql, stmt);
    }
    return stmt.all(now, ...skip, limit) as WebhookDelivery[];
  }

  /** When the earliest pending delivery is due (epoch ms), or null when none is pending. */
  nextDue(): number | null {
    return (this.s.nextDue.get() as number | null) ?? null;
  }

  /** Takes a due delivery for sending until `leaseUntil`; false when another worker took it first. */
  claim(d: WebhookDelivery, leaseUntil: number): boolean {
    return this.s.claim.run(leaseUntil, d.id, d.next_attempt_at).changes === 1;
  }

  claimDue(now: number, limit: number, skip: readonly string[], leaseUntil: number, accept?: (d: WebhookDelivery) => boolean): WebhookDelivery[] {
    // A conditional UPDATE per delivery (claim): a delivery another process took meanwhile is left out.
    const out: WebhookDelivery[] = [];
    for (const d of this.due(now, limit, skip)) {
      if (accept && !accept(d)) continue;
      if (!this.claim(d, leaseUntil)) continue;
      out.push({ ...d, next_attempt_at: leaseUntil });
    }
    return out;
  }

  /**
   * Records an attempt and the delivery's new state, if `d` still holds the lease it was claimed with
   * (`d.next_attempt_at`); returns false, recording nothing, when the lease ran out and another worker took it.
   */
  recordAttempt(d: WebhookDelivery, attempt: DeliveryAttempt, next: { state: DeliveryState; next_attempt_at: number }): boolean {
    return this.db.transaction(() => {
      if (this.s.finish.run(next.state, attempt.attempt, next.next_attempt_at, attempt.status, attempt.error, d.id, d.next_attempt_at).changes === 0) return false;
      this.s.addAttempt.run(d.id, attempt.attempt, attempt.at, attempt.status, attempt.error, attempt.duration_ms);
      return true;
    })();
  }

  /** Cancels a claimed delivery (its subscription is gone), without an attempt. */
  cancelDelivery(d: WebhookDelivery, why: string): void {
    this.s.cancel.run(why, d.id, d.next_attempt_at);
  }

  delivery(id: string): WebhookDelivery | undefined {
    return this.s.delivery.get(id) as WebhookDelivery | undefined;
  }

  /** The latest `limit` deliveries of a subscription, newest first, each with its attempts. */
  recentDeliveries(webhookId: string, limit: number): (WebhookDelivery & { attempt_log: DeliveryAttempt[] })[] {
    return (this.s.recent.all(webhookId, limit) as WebhookDelivery[]).map((d) => ({ ...d, attempt_log: this.s.attempts.all(d.id) as DeliveryAttempt[] }));
  }

  /** Deletes finished deliveries (and their attempts) created before `before` (epoch ms). */
  pruneDeliveries(before: number): number {
    return this.db.transaction(() => {
      const n = this.s.pruneDeliveries.run(before).changes;
      if (n) this.s.pruneAttempts.run();
      return n;
    })();
  }
}
