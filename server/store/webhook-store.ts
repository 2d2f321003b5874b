/**
 * The webhook store's contract (subscriptions, deliveries, their attempts, and the DA event feed they are
 * made from), which the SQLite store (sqlite-webhook-store.ts) and the PostgreSQL one (pg-webhook-store.ts)
 * implement.
 */
import type { DaEvent, DaEventType } from '../../engine/entry/das.js';
import type { MaybePromise } from '../maybe-promise.js';

/** Event kinds a subscription may ask for. */
export type WebhookEventType = DaEventType;

/** Optional filters of a subscription, combined with AND. */
export interface WebhookFilters {
  state?: string;
  /** Council name, exact (case ignored). */
  council?: string;
  category?: string;
  status_group?: string;
  /** A circle: lat, lng and radius_km together. */
  lat?: number;
  lng?: number;
  radius_km?: number;
}

/** A subscription as stored. */
export interface WebhookSubscription {
  id: string;
  key_id: string;
  url: string;
  events: WebhookEventType[];
  filters: WebhookFilters;
  secret: string;
  /** `active`, or `disabled` (the endpoint answered 410 Gone). */
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  created_at: string;
  /** The DA event outbox's position at creation: only later events are delivered. */
  after_event: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One delivery: one event (or ping) to one subscription. */
export interface WebhookDelivery {
  id: string;
  webhook_id: string;
  /** The event id: the `webhook-id` header of every attempt. */
  event_id: string;
  type: string;
  /** The exact JSON body, the same on every attempt. */
  body: string;
  state: DeliveryState;
  attempts: number;
  /** Epoch ms: when the next attempt is due (or, while one is in flight, when its lease runs out). */
  next_attempt_at: number;
  created_at: number;
  last_status: number | null;
  last_error: string | null;
}

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  attempt: number;
  at: number;
  /** The HTTP status the endpoint answered, or null when there was no answer. */
  status: number | null;
  /** What went wrong without an answer (timeout, refused, address not public, ...). */
  error: string | null;
  duration_ms: number;
}



/** A new delivery before it is stored. */
export interface NewDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  type: string;
  body: string;
}

/**
 * Subscriptions and deliveries, wherever they are kept: the SQLite {@link WebhookStore} below answers at
 * once, the PostgreSQL one (server/store/pg/pg-webhook-store.ts) with promises. The dispatcher and the
 * endpoints await every call.
 */
export interface WebhookRepository {
  insertSubscription(sub: WebhookSubscription): MaybePromise<void>;
  subscription(id: string): MaybePromise<WebhookSubscription | undefined>;
  subscriptionsOf(keyId: string): MaybePromise<WebhookSubscription[]>;
  countSubscriptions(keyId: string): MaybePromise<number>;
  activeSubscriptions(): MaybePromise<WebhookSubscription[]>;
  /** Deletes a key's subscription and cancels its pending deliveries; false when the key has no such subscription. */
  deleteSubscription(id: string, keyId: string): MaybePromise<boolean>;
  /** Disables a subscription (its endpoint answered 410 Gone) and cancels its pending deliveries. */
  disableSubscription(id: string, reason: string): MaybePromise<void>;
  /** A meta value (the dispatcher's event cursor). */
  meta(key: string): MaybePromise<string | undefined>;
  /**
   * Adds deliveries and moves the event cursor from `expected` to `cursor` in one transaction; false (and
   * nothing written) when the cursor was no longer `expected` (another worker got there first).
   */
  enqueue(deliveries: readonly NewDelivery[], cursorKey: string, expected: string | undefined, cursor: string, at: number): MaybePromise<boolean>;
  /** Adds one delivery (a ping), due at once. */
  addDelivery(d: NewDelivery, at: number): MaybePromise<void>;
  /**
   * Takes up to `limit` pending deliveries due at `now` (earliest first, leaving out the subscriptions in
   * `skip`) for sending until `leaseUntil`: each is returned to exactly one worker, whose lease token is
   * the returned `next_attempt_at`. `accept`, asked in order, may turn a delivery down (its endpoint is at
   * its bound of sends in flight); a turned-down delivery stays as it was.
   */
  claimDue(now: number, limit: number, skip: readonly string[], leaseUntil: number, accept?: (d: WebhookDelivery) => boolean): MaybePromise<WebhookDelivery[]>;
  /** When the earliest pending delivery is due (epoch ms), or null when none is pending. */
  nextDue(): MaybePromise<number | null>;
  /** Records an attempt and the new state while `d` still holds its lease; false (nothing recorded) otherwise. */
  recordAttempt(d: WebhookDelivery, attempt: DeliveryAttempt, next: { state: DeliveryState; next_attempt_at: number }): MaybePromise<boolean>;
  /** Cancels a claimed delivery (its subscription is gone), without an attempt. */
  cancelDelivery(d: WebhookDelivery, why: string): MaybePromise<void>;
  delivery(id: string): MaybePromise<WebhookDelivery | undefined>;
  /** The latest `limit` deliveries of a subscription, newest first, each with its attempts. */
  recentDeliveries(webhookId: string, limit: number): MaybePromise<(WebhookDelivery & { attempt_log: DeliveryAttempt[] })[]>;
  /** Deletes finished deliveries (and their attempts) created before `before` (epoch ms). */
  pruneDeliveries(before: number): MaybePromise<number>;
}

/** Where the dispatcher reads DA events: the DA store's outbox (engine/da/da-store.ts) or PostgreSQL's. */
export interface DaEventSource {
  /** The position of the latest event written (0 when none). */
  lastEventSeq(): MaybePromise<number>;
  /** Up to `limit` events after position `afterSeq`, oldest first. */
  eventsAfter(afterSeq: number, limit: number): MaybePromise<DaEvent[]>;
  /** Deletes events through `throughSeq` created before `before`. */
  pruneEvents(throughSeq: number, before: Date): MaybePromise<number>;
}
