/**
 * The webhook worker: it fans DA events out to the subscriptions that match them, and delivers.
 *
 * - **Fan-out.** Events come from the DA store's outbox (engine/da/da-events.ts), read after a cursor kept in
 *   the webhook store. The deliveries of a batch of events and the cursor's move are one transaction, so an
 *   event becomes deliveries exactly once, with one worker or several on the same file.
 * - **Delivery** (Standard Webhooks): a POST of the event's JSON with `webhook-id` (the event id, the same on
 *   every retry), `webhook-timestamp` and `webhook-signature`. A 2xx answer within the timeout (15 s) is
 *   success. Anything else, 3xx included (redirects are never followed), is retried after 5 s, 5 min, 30 min,
 *   2 h, 5 h, 10 h, 14 h, 20 h and 24 h (ten attempts over about three days), or later when the answer's
 *   `Retry-After` says so (at most 24 h); then the delivery is `failed`. 410 Gone disables the subscription.
 * - **Isolation.** At most `perEndpoint` deliveries to one subscription are in flight at once, and the query
 *   for due deliveries skips subscriptions at that bound, so a slow endpoint never holds up the others.
 * - **Durability.** Pending deliveries are rows; a delivery being sent holds a lease (webhook-store.ts), so a
 *   restart resumes what was pending and resends what was in flight.
 * - **Safety.** Every connection goes through the address policy (address-policy.ts) unless private
 *   addresses are allowed; the answer's body is read up to 4 KiB, then dropped: never stored or shown.
 */
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { DaEvent } from '../../engine/entry/das.js';
import { VERSION } from '../../engine/index.js';
import { guardedLookup, isPublicAddress } from './address-policy.js';
import { webhookHeaders } from './signature.js';
import { subscriptionMatches } from './subscriptions.js';
import type { DaEventSource, NewDelivery, WebhookDelivery, WebhookRepository, WebhookSubscription } from '../store/webhook-store.js';

const SECOND = 1000, MINUTE = 60 * SECOND, HOUR = 60 * MINUTE;

/** Delays before attempts 2 to 10 (the first is immediate): the Standard Webhooks example schedule. */
export const RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR];
/** The longest wait a `Retry-After` answer can ask for. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;
/** Bytes of an endpoint's answer read before the connection is dropped. */
const RESPONSE_CAP = 4096;
const CURSOR = 'event_cursor';
const EVENT_BATCH = 1000;

/** Options of {@link WebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  store: WebhookRepository;
  /** The DA store whose events are delivered. */
  das: () => DaEventSource;
  /** Allow http and private addresses (tests, local development). Default false. */
  allowPrivate?: boolean;
  /** Delays before the second and later attempts, ms (default {@link RETRY_SCHEDULE_MS}). */
  schedule?: readonly number[];
  /** An attempt without a full answer by then is a failure (default 15 s). */
  timeoutMs?: number;
  /** Deliveries in flight to one subscription (default 4). */
  perEndpoint?: number;
  /** Deliveries in flight in all (default 64). */
  maxInFlight?: number;
  /** How often to look for new events and due retries when nothing wakes the worker (default 1 s). */
  pollMs?: number;
  /** Epoch ms (injectable for tests). */
  clock?: () => number;
  /** Lines for the log (default none). */
  log?: (line: string) => void;
}

/** What one attempt got: the status answered (and Retry-After), or why there was none. */
export type AttemptResult = { status: number; retryAfter?: string } | { error: string };

/** Milliseconds a `Retry-After` value asks to wait (seconds or an HTTP date), or 0. */
export function retryAfterMs(value: string | undefined, now: number): number {
  if (!value) return 0;
  const v = value.trim();
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : 0;
}

/** The JSON body of an event: `type`, `timestamp` (when it happened) and the thin `data`. */
export function eventBody(event: Pick<DaEvent, 'type' | 'created_at' | 'data'>): string {
  return JSON.stringify({ type: event.type, timestamp: event.created_at, data: event.data });
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

/** The worker (see the module comment). */
export class WebhookDispatcher {
  private readonly store: WebhookRepository;
  private readonly das: () => DaEventSource;
  private readonly allowPrivate: boolean;
  private readonly schedule: readonly number[];
  private readonly timeoutMs: number;
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  private readonly pollMs: number;
  private readonly clock: () => number;
  private readonly log: (line: string) => void;
  private readonly inFlightByHook = new Map<string, number>();
  /** Deliveries this worker is sending now (never claimed twice by it, whatever their lease says). */
  private readonly sendingIds = new Set<string>();
  private readonly sends = new Set<Promise<void>>();
  private readonly agents: { http: HttpAgent; https: HttpsAgent };
  private inFlight = 0;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private busy = false;
  private again = false;
  private lastPrune = 0;

  constructor(options: WebhookDispatcherOptions) {
    this.store = options.store;
    this.das = options.das;
    this.allowPrivate = options.allowPrivate ?? false;
    this.schedule = options.schedule ?? RETRY_SCHEDULE_MS;
    this.timeoutMs = options.timeoutMs ?? 15 * SECOND;
    this.perEndpoint = options.perEndpoint ?? 4;
    this.maxInFlight = options.maxInFlight ?? 64;
    this.pollMs = options.pollMs ?? SECOND;
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? (() => {});
    // Kept-alive connections; no per-host socket cap, since the in-flight bound is per subscription and one host
    // may serve several subscriptions (a cap per host would let a slow one starve the others).
    this.agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  }

  /** Attempts a delivery may take in all. */
  get maxAttempts(): number {
    return this.schedule.length + 1;
  }

  /** Deliveries being sent now. */
  get sending(): number {
    return this.inFlight;
  }

  /** Starts the loop: fan out, send what is due, sleep until the next due time or the poll interval. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.poke();
  }

  /** Stops the loop and waits (at most `graceMs`) for the sends in flight; leases cover the rest. */
  async stop(graceMs = 5000): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.sends]), new Promise((r) => (t = setTimeout(r, graceMs)))]);
    clearTimeout(t);
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Wakes the worker now (after an import, a new ping, a finished send). */
  poke(): void {
    if (!this.running) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (!this.running) return;
    this.busy = true;
    let wait = this.pollMs;
    // Each step on its own: a failing fan-out (say, a DA store that cannot be read, or a database that is
    // down for a moment) must not stop deliveries already queued, pings included, and no error may escape.
    const step = async (name: string, fn: () => unknown) => {
      try {
        await fn();
      } catch (err) {
        this.log(`webhooks: ${name}: ${(err as Error).message}`);
      }
    };
    try {
      this.again = false;
      await step('fan-out', () => this.fanOut());
      let blocked = false;
      await step('delivery', async () => (blocked = await this.dispatchDue()));
      await step('prune', () => this.prune());
      // When what is due waits only for sends in flight (an endpoint at its bound, or the overall bound),
      // sleep until one finishes (its `finally` pokes) or the poll interval: never a busy loop.
      await step('schedule', async () => {
        const next = await this.store.nextDue();
        if (next !== null && !blocked) wait = Math.max(0, Math.min(this.pollMs, next - this.clock()));
      });
    } finally {
      this.busy = false;
    }
    if (!this.running) return;
    if (this.again) return this.poke();
    this.timer = setTimeout(() => void this.tick(), wait);
  }

  /**
   * Turns new DA events into deliveries for the subscriptions that match them; returns how many deliveries
   * were queued. Safe to run from several workers at once (the cursor moves in the same transaction).
   */
  async fanOut(): Promise<number> {
    const das = this.das();
    let queued = 0;
    for (;;) {
      const cursorText = await this.store.meta(CURSOR);
      // The events' end is read before the subscriptions: a subscription made meanwhile then starts after
      // what this pass covers (its after_event), so no event falls between them.
      const last = await das.lastEventSeq();
      const subs = await this.store.activeSubscriptions();
      if (cursorText === undefined) {
        // First run: start where the oldest active subscription started (nothing earlier can match).
        const start = subs.length ? Math.min(...subs.map((s) => s.after_event)) : last;
        await this.store.enqueue([], CURSOR, undefined, String(start), this.clock());
        continue;
      }
      const cursor = Number(cursorText);
      if (subs.length === 0) {
        // Nobody listens: move past everything written so far without reading it.
        if (last > cursor) await this.store.enqueue([], CURSOR, cursorText, String(last), this.clock());
        return queued;
      }
      const events = (await das.eventsAfter(cursor, EVENT_BATCH)).filter((e) => e.seq <= last);
      if (events.length === 0) return queued;
      const deliveries: NewDelivery[] = [];
      for (const e of events) {
        let body: string | undefined;
        for (const s of subs) {
          if (!subscriptionMatches(s, e)) continue;
          body ??= eventBody(e);
          deliveries.push({ id: newId('dlv'), webhook_id: s.id, event_id: e.id, type: e.type, body });
        }
      }
      if (await this.store.enqueue(deliveries, CURSOR, cursorText, String(events[events.length - 1].seq), this.clock())) queued += deliveries.length;
      if (events.length < EVENT_BATCH) return queued;
    }
  }

  /** Queues a `ping` to one subscription, due at once; returns the delivery's id and event id. */
  async ping(sub: WebhookSubscription): Promise<{ delivery_id: string; event_id: string }> {
    const event_id = newId('evt');
    const body = JSON.stringify({ type: 'ping', timestamp: new Date(this.clock()).toISOString(), data: { webhook_id: sub.id, message: 'A test delivery from propintel: your endpoint receives and verifies our webhooks.' } });
    const delivery_id = newId('dlv');
    await this.store.addDelivery({ id: delivery_id, webhook_id: sub.id, event_id, type: 'ping', body }, this.clock());
    this.poke();
    return { delivery_id, event_id };
  }

  /** Claims and starts sending the deliveries that are due, within the in-flight bounds. */
  /** Returns true when deliveries wait only for sends in flight (an endpoint, or all of them, at the bound). */
  private async dispatchDue(): Promise<boolean> {
    const waiting = () => this.inFlight >= this.maxInFlight || [...this.inFlightByHook.values()].some((n) => n >= this.perEndpoint);
    while (this.inFlight < this.maxInFlight) {
      const now = this.clock();
      const full = [...this.inFlightByHook].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
      const lease = now + this.timeoutMs + Math.min(5 * SECOND, this.timeoutMs);
      // What this round may still take: in all, and per endpoint (its sends in flight plus those taken now).
      let room = this.maxInFlight - this.inFlight;
      const taken = new Map<string, number>();
      const accept = (d: WebhookDelivery): boolean => {
        const n = (this.inFlightByHook.get(d.webhook_id) ?? 0) + (taken.get(d.webhook_id) ?? 0);
        if (room <= 0 || n >= this.perEndpoint || this.sendingIds.has(d.id)) return false;
        room--;
        taken.set(d.webhook_id, (taken.get(d.webhook_id) ?? 0) + 1);
        return true;
      };
      const claimed = await this.store.claimDue(now, Math.min(200, 4 * (this.maxInFlight - this.inFlight)), full, lease, accept);
      if (claimed.length === 0) return waiting();
      for (const d of claimed) {
        this.sendingIds.add(d.id);
        this.inFlight++;
        this.inFlightByHook.set(d.webhook_id, (this.inFlightByHook.get(d.webhook_id) ?? 0) + 1);
        const p = this.deliver(d)
          .catch((err: unknown) => this.log(`webhooks: delivery ${d.id}: ${(err as Error).message}`))
          .finally(() => {
            this.sendingIds.delete(d.id);
            this.inFlight--;
            const n = (this.inFlightByHook.get(d.webhook_id) ?? 1) - 1;
            if (n > 0) this.inFlightByHook.set(d.webhook_id, n);
            else this.inFlightByHook.delete(d.webhook_id);
            this.sends.delete(p);
            this.poke();
          });
        this.sends.add(p);
      }
    }
    return true;
  }

  /** One attempt of one delivery, and what it leads to. */
  private async deliver(d: WebhookDelivery): Promise<void> {
    const sub = await this.store.subscription(d.webhook_id);
    const attempt = d.attempts + 1;
    const at = this.clock();
    if (!sub || sub.status !== 'active') {
      await this.store.cancelDelivery(d, 'subscription gone');
      return;
    }
    const t0 = performance.now();
    const result = await this.post(sub, d, at);
    const duration_ms = Math.round((performance.now() - t0) * 10) / 10;
    const status = 'status' in result ? result.status : null;
    const error = 'error' in result ? result.error : null;
    const record = { attempt, at, status, error, duration_ms };
    if (status !== null && status >= 200 && status < 300) {
      await this.store.recordAttempt(d, record, { state: 'delivered', next_attempt_at: at });
      return;
    }
    if (status === 410) {
      await this.store.recordAttempt(d, record, { state: 'failed', next_attempt_at: at });
      await this.store.disableSubscription(sub.id, 'the endpoint answered 410 Gone');
      this.log(`webhooks: ${sub.id} disabled: ${sub.url} answered 410 Gone`);
      return;
    }
    if (attempt >= this.maxAttempts) {
      await this.store.recordAttempt(d, record, { state: 'failed', next_attempt_at: at });
      return;
    }
    const wait = Math.max(this.schedule[attempt - 1], 'retryAfter' in result ? retryAfterMs(result.retryAfter, at) : 0);
    await this.store.recordAttempt(d, record, { state: 'pending', next_attempt_at: at + wait });
  }

  /** Sends one attempt: the status answered (and Retry-After), or why there was none. */
  private post(sub: WebhookSubscription, d: WebhookDelivery, at: number): Promise<AttemptResult> {
    return postSigned({ url: sub.url, secret: sub.secret, id: d.event_id, body: d.body, at: new Date(at), allowPrivate: this.allowPrivate, timeoutMs: this.timeoutMs, agents: this.agents });
  }

  /** Once an hour: drop events every subscription has seen (older than a week) and deliveries older than 30 days. */
  private async prune(): Promise<void> {
    const now = this.clock();
    if (now - this.lastPrune < HOUR) return;
    this.lastPrune = now;
    const cursor = Number((await this.store.meta(CURSOR)) ?? 0);
    await this.das().pruneEvents(cursor, new Date(now - 7 * 24 * HOUR));
    await this.store.pruneDeliveries(now - 30 * 24 * HOUR);
  }
}

/** One signed POST to send (a delivery's attempt, or a batch job's callback). */
export interface SignedPost {
  url: string;
  secret: string;
  /** The message id (`webhook-id`), the same on every attempt. */
  id: string;
  body: string;
  at: Date;
  /** http and private addresses allowed (`--allow-private-webhooks`). */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Keep-alive agents to reuse (default none). */
  agents?: { http: HttpAgent; https: HttpsAgent };
}

/**
 * Sends one Standard Webhooks POST: https only (http too with `allowPrivate`), to public addresses only (an
 * address literal judged here, names at connect time by the guarded lookup), redirects never followed, the
 * answer read and dropped up to a cap. Resolves with the status (and Retry-After) or why there was none.
 */
export function postSigned(p: SignedPost): Promise<AttemptResult> {
  let url: URL;
  try {
    url = new URL(p.url);
  } catch {
    return Promise.resolve({ error: 'the URL is not valid' });
  }
  const https = url.protocol === 'https:';
  if (!https && !(p.allowPrivate && url.protocol === 'http:')) return Promise.resolve({ error: `${url.protocol} refused: webhooks go to https URLs` });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address literal skips DNS (and so the guarded lookup): judge it here.
  if (!p.allowPrivate && isIP(host) && !isPublicAddress(host)) return Promise.resolve({ error: `${host} is not a public address: refused` });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(p.body)),
    'user-agent': `propintel-webhooks/${VERSION}`,
    ...webhookHeaders(p.secret, p.id, p.body, p.at),
  };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const send = https ? httpsRequest : httpRequest;
    const agent = p.agents ? (https ? p.agents.https : p.agents.http) : undefined;
    const req = send(url, { method: 'POST', headers, agent, lookup: guardedLookup(p.allowPrivate) as never }, (res: IncomingMessage) => {
      const retryAfter = res.headers['retry-after'];
      let read = 0;
      // Read (and drop) the answer up to the cap, so a kept-alive connection can be reused; past it, hang up.
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > RESPONSE_CAP) res.destroy();
      });
      res.on('end', () => settle({ status: res.statusCode ?? 0, retryAfter }));
      res.on('close', () => settle({ status: res.statusCode ?? 0, retryAfter }));
      res.on('error', () => settle({ status: res.statusCode ?? 0, retryAfter }));
    });
    const timer = setTimeout(() => {
      settle({ error: `no answer within ${p.timeoutMs / 1000} s` });
      req.destroy();
    }, p.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => settle({ error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(p.body);
  });
}
