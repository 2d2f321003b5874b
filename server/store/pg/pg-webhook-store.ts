/**
 * Webhook subscriptions and deliveries in PostgreSQL, shared by every replica's dispatcher.
 *
 * - Fan-out: the event cursor row is locked (FOR UPDATE) while deliveries are added and it moves, so each
 *   event becomes deliveries once however many dispatchers run.
 * - Sending: due deliveries are claimed with `FOR UPDATE SKIP LOCKED` and their lease written in the same
 *   transaction, so two replicas never take one delivery; a replica that dies while sending leaves a lease
 *   that runs out, and the delivery is sent again with the same `webhook-id` (at-least-once, as in the
 *   SQLite store).
 */
import type pg from 'pg';
import type { DeliveryAttempt, DeliveryState, NewDelivery, WebhookDelivery, WebhookRepository, WebhookSubscription } from '../webhook-store.js';
import { PgRepository } from './pg-connect.js';

interface SubscriptionRow extends Omit<WebhookSubscription, 'events' | 'filters'> {
  events: string;
  filters: string;
}

const subscriptionOf = (r: SubscriptionRow): WebhookSubscription => ({ ...r, events: JSON.parse(r.events), filters: JSON.parse(r.filters) });

const DELIVERY_COLUMNS = 'id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, last_status, last_error';

/** The PostgreSQL {@link WebhookRepository}. */
export class PgWebhookStore extends PgRepository implements WebhookRepository {
  async insertSubscription(sub: WebhookSubscription): Promise<void> {
    await this.q(
      `INSERT INTO webhooks (id, key_id, url, events, filters, secret, status, disabled_reason, created_at, after_event) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [sub.id, sub.key_id, sub.url, JSON.stringify(sub.events), JSON.stringify(sub.filters), sub.secret, sub.status, sub.disabled_reason, sub.created_at, sub.after_event],
    );
  }

  async subscription(id: string): Promise<WebhookSubscription | undefined> {
    const r = await this.q<SubscriptionRow>('SELECT * FROM webhooks WHERE id = $1', [id]);
    return r.rows.length ? subscriptionOf(r.rows[0]) : undefined;
  }

  async subscriptionsOf(keyId: string): Promise<WebhookSubscription[]> {
    return (await this.q<SubscriptionRow>('SELECT * FROM webhooks WHERE key_id = $1 ORDER BY created_at, id', [keyId])).rows.map(subscriptionOf);
  }

  async countSubscriptions(keyId: string): Promise<number> {
    return Number((await this.q<{ n: string }>('SELECT count(*) AS n FROM webhooks WHERE key_id = $1', [keyId])).rows[0].n);
  }

  async activeSubscriptions(): Promise<WebhookSubscription[]> {
    return (await this.q<SubscriptionRow>("SELECT * FROM webhooks WHERE status = 'active'")).rows.map(subscriptionOf);
  }

  deleteSubscription(id: string, keyId: string): Promise<boolean> {
    return this.tx(async (c) => {
      const gone = ((await c.query('DELETE FROM webhooks WHERE id = $1 AND key_id = $2', [id, keyId])).rowCount ?? 0) > 0;
      if (gone) await c.query("UPDATE webhook_deliveries SET state = 'cancelled', last_error = $1 WHERE webhook_id = $2 AND state = 'pending'", ['subscription deleted', id]);
      return gone;
    });
  }

  async disableSubscription(id: string, reason: string): Promise<void> {
    await this.tx(async (c) => {
      await c.query("UPDATE webhooks SET status = 'disabled', disabled_reason = $1 WHERE id = $2", [reason, id]);
      await c.query("UPDATE webhook_deliveries SET state = 'cancelled', last_error = $1 WHERE webhook_id = $2 AND state = 'pending'", [`subscription disabled: ${reason}`, id]);
    });
  }

  async meta(key: string): Promise<string | undefined> {
    return (await this.q<{ value: string }>('SELECT value FROM webhook_meta WHERE key = $1', [key])).rows[0]?.value;
  }

  enqueue(deliveries: readonly NewDelivery[], cursorKey: string, expected: string | undefined, cursor: string, at: number): Promise<boolean> {
    return this.tx(async (c) => {
      if (expected === undefined) {
        // The first cursor: whoever inserts it wins; the others see a conflict and start over.
        const r = await c.query('INSERT INTO webhook_meta (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [cursorKey, cursor]);
        if (r.rowCount !== 1) return false;
      } else {
        // The cursor row stays locked until commit: a second dispatcher waits here, then finds it moved.
        const r = await c.query<{ value: string }>('SELECT value FROM webhook_meta WHERE key = $1 FOR UPDATE', [cursorKey]);
        if (r.rows[0]?.value !== expected) return false;
        await c.query('UPDATE webhook_meta SET value = $2 WHERE key = $1', [cursorKey, cursor]);
      }
      for (let i = 0; i < deliveries.length; i += 500) {
        const part = deliveries.slice(i, i + 500);
        await c.query(
          `INSERT INTO webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at)
           SELECT id, webhook_id, event_id, type, body, 'pending', 0, $6, $6 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t(id, webhook_id, event_id, type, body)`,
          [part.map((d) => d.id), part.map((d) => d.webhook_id), part.map((d) => d.event_id), part.map((d) => d.type), part.map((d) => d.body), at],
        );
      }
      return true;
    });
  }

  async addDelivery(d: NewDelivery, at: number): Promise<void> {
    await this.q(`INSERT INTO webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6)`, [d.id, d.webhook_id, d.event_id, d.type, d.body, at]);
  }

  claimDue(now: number, limit: number, skip: readonly string[], leaseUntil: number, accept?: (d: WebhookDelivery) => boolean): Promise<WebhookDelivery[]> {
    return this.tx(async (c) => {
      // Rows another replica is claiming right now are skipped, not waited for; those it took are no longer
      // due when this one looks again (their lease moved next_attempt_at on).
      const due = await c.query<WebhookDelivery>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= $1 AND NOT (webhook_id = ANY($2::text[]))
         ORDER BY next_attempt_at, n LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [now, skip, limit],
      );
      const taken = due.rows.filter((d) => !accept || accept(d));
      if (taken.length) await c.query('UPDATE webhook_deliveries SET next_attempt_at = $1 WHERE id = ANY($2::text[])', [leaseUntil, taken.map((d) => d.id)]);
      return taken.map((d) => ({ ...d, next_attempt_at: leaseUntil }));
    });
  }

  async nextDue(): Promise<number | null> {
    return (await this.q<{ t: number | null }>("SELECT min(next_attempt_at) AS t FROM webhook_deliveries WHERE state = 'pending'")).rows[0].t ?? null;
  }

  recordAttempt(d: WebhookDelivery, attempt: DeliveryAttempt, next: { state: DeliveryState; next_attempt_at: number }): Promise<boolean> {
    return this.tx(async (c) => {
      // Only while this worker's lease holds: a worker whose lease ran out (a stalled replica) records nothing.
      const r = await c.query('UPDATE webhook_deliveries SET state = $1, attempts = $2, next_attempt_at = $3, last_status = $4, last_error = $5 WHERE id = $6 AND next_attempt_at = $7', [next.state, attempt.attempt, next.next_attempt_at, attempt.status, attempt.error, d.id, d.next_attempt_at]);
      if (r.rowCount === 0) return false;
      await c.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (delivery_id, attempt) DO UPDATE SET at = excluded.at, status = excluded.status, error = excluded.error, duration_ms = excluded.duration_ms`,
        [d.id, attempt.attempt, attempt.at, attempt.status, attempt.error, attempt.duration_ms],
      );
      return true;
    });
  }

  async cancelDelivery(d: WebhookDelivery, why: string): Promise<void> {
    await this.q("UPDATE webhook_deliveries SET state = 'cancelled', last_error = $1 WHERE id = $2 AND next_attempt_at = $3", [why, d.id, d.next_attempt_at]);
  }

  async delivery(id: string): Promise<WebhookDelivery | undefined> {
    return (await this.q<WebhookDelivery>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`, [id])).rows[0];
  }

  async recentDeliveries(webhookId: string, limit: number): Promise<(WebhookDelivery & { attempt_log: DeliveryAttempt[] })[]> {
    const ds = (await this.q<WebhookDelivery>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, n DESC LIMIT $2`, [webhookId, limit])).rows;
    if (!ds.length) return [];
    const attempts = (await this.q<DeliveryAttempt & { delivery_id: string }>('SELECT delivery_id, attempt, at, status, error, duration_ms FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY attempt', [ds.map((d) => d.id)])).rows;
    return ds.map((d) => ({ ...d, attempt_log: attempts.filter((a) => a.delivery_id === d.id).map(({ delivery_id: _, ...a }) => a) }));
  }

  pruneDeliveries(before: number): Promise<number> {
    return this.tx(async (c) => {
      const n = (await c.query("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < $1", [before])).rowCount ?? 0;
      if (n) await c.query('DELETE FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)');
      return n;
    });
  }
}
