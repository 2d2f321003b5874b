/**
 * The webhook endpoints (routes.ts, `/v1/webhooks...`): subscribe, list, show, delete, ping, and the
 * delivery log. The store is the server store's (server/store/sqlite/sqlite-webhook-store.ts); the dispatcher, when the
 * server runs one, is woken for pings.
 */
import { randomBytes } from 'node:crypto';
import { checkWebhookUrl, type Resolver } from '../webhooks/address-policy.js';
import { newSecret } from '../webhooks/signature.js';
import { MAX_SUBSCRIPTIONS_PER_KEY, parseSubscriptionBody, publicSubscription } from '../webhooks/subscriptions.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import type { DaEventSource, WebhookRepository } from '../store/webhook-store.js';
import { ApiError, badParameter } from '../http/api-error.js';

/** Deliveries shown by /deliveries. */
const RECENT_DELIVERIES = 50;

/** What the webhook endpoints need. */
export interface WebhookContext {
  store: WebhookRepository;
  /** Where new subscriptions take their starting event position. */
  das: () => DaEventSource;
  /** The server's delivery worker (absent when deliveries run in another process: `propintel webhooks run`). */
  dispatcher?: WebhookDispatcher;
  /** Allow http and private addresses (`--allow-private-webhooks`). */
  allowPrivate: boolean;
  /** Name resolution for the URL check (injectable for tests). */
  resolve?: Resolver;
  clock: () => Date;
}

/** An answer: status and JSON document. */
export interface WebhookAnswer {
  status: number;
  doc: unknown;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Parses a JSON request body; 413 past the size cap, 422 `invalid_body` when it is missing or not JSON. */
export function jsonBody(body: Buffer | undefined, tooLarge: boolean | undefined, limit: number): unknown {
  if (tooLarge) throw new ApiError('payload_too_large', `the request body is larger than ${limit} bytes`, { limit });
  if (!body || body.length === 0) throw new ApiError('invalid_body', 'this request needs a JSON body');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new ApiError('invalid_body', `the body is not valid JSON: ${(err as Error).message}`);
  }
}

/** The webhook operations (spec 4.1 `POST /v1/webhooks`, and the management around it). */
export type WebhookOperation = 'create' | 'list' | 'get' | 'delete' | 'test' | 'deliveries';

/** Runs one webhook operation for the key `keyId`; `id` is the path's subscription id (when it has one). */
export async function webhookOperation(ctx: WebhookContext, op: WebhookOperation, keyId: string, id: string, body: () => unknown): Promise<WebhookAnswer> {
  const own = async () => {
    const sub = await ctx.store.subscription(id);
    // Another key's subscription is indistinguishable from none.
    if (!sub || sub.key_id !== keyId) throw new ApiError('not_found', `no webhook subscription ${JSON.stringify(id.slice(0, 80))} on this key`);
    return sub;
  };
  switch (op) {
    case 'create': {
      const req = parseSubscriptionBody(body());
      const verdict = await checkWebhookUrl(req.url, { allowPrivate: ctx.allowPrivate, resolve: ctx.resolve });
      if (!verdict.ok) throw badParameter('url', verdict.message);
      if ((await ctx.store.countSubscriptions(keyId)) >= MAX_SUBSCRIPTIONS_PER_KEY) {
        throw new ApiError('too_many_subscriptions', `this key already has ${MAX_SUBSCRIPTIONS_PER_KEY} webhook subscriptions, the most one key may hold; delete one first`, { parameter: 'url', limit: MAX_SUBSCRIPTIONS_PER_KEY });
      }
      const sub = {
        id: `wh_${randomBytes(12).toString('base64url')}`,
        key_id: keyId,
        url: verdict.url.href,
        events: req.events,
        filters: req.filters,
        secret: newSecret(),
        status: 'active' as const,
        disabled_reason: null,
        created_at: ctx.clock().toISOString(),
        after_event: await ctx.das().lastEventSeq(),
      };
      await ctx.store.insertSubscription(sub);
      return { status: 201, doc: { ...publicSubscription(sub), secret: sub.secret, secret_note: 'The signing secret is shown only in this response: store it now.' } };
    }
    case 'list': {
      const subs = await ctx.store.subscriptionsOf(keyId);
      return { status: 200, doc: { webhooks: subs.map(publicSubscription), meta: { count: subs.length, limit: MAX_SUBSCRIPTIONS_PER_KEY } } };
    }
    case 'get':
      return { status: 200, doc: publicSubscription(await own()) };
    case 'delete': {
      await own();
      await ctx.store.deleteSubscription(id, keyId);
      return { status: 200, doc: { id, deleted: true } };
    }
    case 'test': {
      const sub = await own();
      if (sub.status !== 'active') throw new ApiError('subscription_disabled', `the subscription is disabled (${sub.disabled_reason ?? 'no reason recorded'}); create a new one`);
      if (!ctx.dispatcher) throw new ApiError('service_unavailable', 'this server delivers no webhooks (run `propintel webhooks run` beside it, or start it without --no-webhooks)');
      const queued = await ctx.dispatcher.ping(sub);
      return { status: 202, doc: { ...queued, type: 'ping', state: 'pending' } };
    }
    case 'deliveries': {
      await own();
      const deliveries = (await ctx.store.recentDeliveries(id, RECENT_DELIVERIES)).map((d) => ({
        id: d.id,
        event_id: d.event_id,
        type: d.type,
        state: d.state,
        attempts: d.attempts,
        created_at: iso(d.created_at),
        next_attempt_at: d.state === 'pending' ? iso(d.next_attempt_at) : null,
        last_status: d.last_status,
        last_error: d.last_error,
        attempt_log: d.attempt_log.map((a) => ({ attempt: a.attempt, at: iso(a.at), status: a.status, error: a.error, duration_ms: a.duration_ms })),
      }));
      return { status: 200, doc: { webhook_id: id, deliveries } };
    }
  }
}
