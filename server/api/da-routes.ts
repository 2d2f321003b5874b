/**
 * The DA routes: the listing (/v1/das, /v1/das/{id}, nearby, councils, categories, stats; spec section 3) and
 * webhooks (/v1/webhooks...), both on a key with the DA listing and its daily limit.
 */
import type { ApiKeyRecord } from '../store/store.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import { hasDaListing, limitDaRequest } from '../metering/request-limits.js';
import { ApiError } from '../http/api-error.js';
import { JSON_TYPE, jsonAnswer, refusePlayground, requireDas, withLimits, type ApiContext, type ApiOptions, type ApiRequest, type ApiResponse } from './api-types.js';
import { daDocument, type DaOperation } from './da-handlers.js';
import { decodeQuery, rejectUnknown } from './query.js';
import { jsonBody, webhookOperation, type WebhookContext, type WebhookOperation } from './webhook-handlers.js';
import { SMALL_BODY } from '../http/limits.js';
import { daDoc, webhookDoc } from './operation-docs.js';
import { keyedOperations, type RouteValue } from './route-value.js';


/** The DA listing and webhook routes of one API. */
export class DaRoutes {
  constructor(
    private readonly ctx: ApiContext,
    private readonly webhooks: ApiOptions['webhooks'],
  ) {}

  /**
   * A DA-listing request: licence (403) -> count against the key's limit (429; every answer after this
   * carries the RateLimit headers) -> parameters (422) -> the store (404 for an unknown id) -> 200.
   */
  listing(req: ApiRequest, op: DaOperation, id: string, key: ApiKeyRecord, client: string): MaybePromise<ApiResponse> {
    if (!hasDaListing(key)) {
      throw new ApiError('not_licensed', 'this key does not include the DA listing; a key made with `propintel keys create --da-daily-limit N` does', { requested: ['da_listing'] });
    }
    const das = requireDas(this.ctx);
    return chain(limitDaRequest(this.ctx.store, key, client, this.ctx.clock()), (limits) => withLimits(limits, () => jsonAnswer(daDocument(das, op, decodeQuery(req.query), req.path, id), req.acceptEncoding, limits)));
  }

  /** A webhook request: licence (403) -> the operation (422 / 404 / 409 / 413) -> 200, 201 or 202. */
  async webhook(req: ApiRequest, op: WebhookOperation, id: string, key: ApiKeyRecord, client: string): Promise<ApiResponse> {
    await refusePlayground(this.ctx, key, client, 'webhooks');
    if (!hasDaListing(key)) {
      throw new ApiError('not_licensed', 'webhooks come with the DA listing; a key made with `propintel keys create --da-daily-limit N` has it', { requested: ['da_listing'] });
    }
    const das = requireDas(this.ctx);
    rejectUnknown(decodeQuery(req.query), [], req.path);
    const ctx: WebhookContext = { store: this.ctx.store.webhooks(), das: this.webhooks?.events ?? das, clock: this.ctx.clock, allowPrivate: this.webhooks?.allowPrivate ?? false, dispatcher: this.webhooks?.dispatcher, resolve: this.webhooks?.resolve };
    const answer = await webhookOperation(ctx, op, key.id, id, () => jsonBody(req.body, req.bodyTooLarge || (req.body?.length ?? 0) > SMALL_BODY, SMALL_BODY));
    return { status: answer.status, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify(answer.doc) };
  }
}

/** What the DA routes' handlers use: this module, and the childcare feed a childcare key gets at /api/v1/das. */
type DaModules = { da: DaRoutes; childcare: { request(req: ApiRequest, op: 'feed', key: ApiKeyRecord, client: string): MaybePromise<ApiResponse> } };

const DA_PATHS: { path: string; op: DaOperation; summary: string; description: string }[] = [
  {
    path: '/das',
    op: 'list',
    summary: 'List and filter development applications',
    description:
      'Applications newest lodged first (ties: highest id first), filtered by state, council, category, suburb, postcode, lodgement dates, status group and the residential flag (all combined with AND). Paged by `page` and `per_page`; follow `meta.pages.next` (it carries a keyset cursor) to visit every record exactly once even while records are being imported. A page past the end is an empty page with the totals.',
  },
  {
    path: '/das/nearby',
    op: 'nearby',
    summary: 'Applications within a radius of a point',
    description: 'Geocoded applications within `radius_km` (default 5, at most 50) of `lat`/`lng`, nearest first (great-circle distance), each with `distance_km`. Records without coordinates are never in radius results.',
  },
  {
    path: '/das/{id}',
    op: 'get',
    summary: 'One application with every data point and a summary',
    description: 'Every field of the listing plus `summary`, a plain-English summary built by a fixed template from the classified fields, and `summary_method`, which says so (no language model is used).',
  },
  { path: '/categories', op: 'categories', summary: 'The 21 categories with record counts', description: 'Every category (slug, display name, count), zero counts included; `state` narrows the counts.' },
  {
    path: '/councils',
    op: 'councils',
    summary: 'Councils with record counts and freshness',
    description: 'Every council holding records: state, count, `last_updated` (the latest fetch of its records), and the share of its records that are geocoded and that carry a council status. `state` narrows the list.',
  },
  { path: '/stats', op: 'stats', summary: 'Totals by state, category and status group', description: 'Total records, councils, geocoded share, counts by state, category and status group, the lodgement date range and the latest fetch.' },
];

/** The DA-listing routes at both prefixes (DESIGN.md: every DA-listing path answers at /v1 and /api/v1). */
export const DA_ROUTES: readonly RouteValue<DaModules>[] = ['/v1', '/api/v1'].flatMap((prefix) =>
  DA_PATHS.map((r): RouteValue<DaModules> => ({
    path: `${prefix}${r.path}`,
    tag: 'DA listing',
    summary: r.summary,
    description: `${r.description} Needs a key with the DA listing (daily request limit in the RateLimit headers).`,
    operations: [
      {
        method: 'GET',
        auth: 'key',
        doc: daDoc(r.op),
        handle: (c) => {
          // On a childcare key, /api/v1/das is the childcare feed (spec 4.1).
          if (r.op === 'list' && c.key.childcare && prefix === '/api/v1') return c.modules.childcare.request(c.req, 'feed', c.key, c.client());
          return c.modules.da.listing(c.req, r.op, c.id, c.key, c.client());
        },
      },
    ],
  })),
);

const WEBHOOK_NOTE = ' Needs a key with the DA listing; a key sees and changes only its own subscriptions (another key\'s id is 404).';

const WEBHOOK_PATHS: { path: string; ops: Partial<Record<'GET' | 'POST' | 'DELETE', WebhookOperation>>; summary: string; description: string }[] = [
  {
    path: '/webhooks',
    ops: { POST: 'create', GET: 'list' },
    summary: 'Subscribe to new and changed DAs; list subscriptions',
    description:
      'POST a JSON body with `url` (https, a public address), `events` (`da.created`, `da.status_changed` or both) and optional filters (`state`, `council`, `category`, `status_group`, or a circle `lat`, `lng`, `radius_km` up to 50), at the top level or in `filters`: 201 with the subscription and its signing secret (`whsec_...`), shown only this once. At most 25 subscriptions per key. Deliveries follow Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret\'s bytes), body `{type, timestamp, data}`. A 2xx within 15 s is success; anything else is retried over about three days (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), honouring Retry-After; 410 disables the subscription. GET lists the key\'s subscriptions, never their secrets.',
  },
  { path: '/webhooks/{id}', ops: { GET: 'get', DELETE: 'delete' }, summary: 'One subscription; delete it', description: 'GET shows one subscription (never its secret); DELETE removes it and cancels its pending deliveries.' },
  { path: '/webhooks/{id}/test', ops: { POST: 'test' }, summary: 'Send a ping', description: 'Queues a signed `ping` delivery to the subscription at once (202 with the delivery and event ids); its outcome shows in /deliveries.' },
  { path: '/webhooks/{id}/deliveries', ops: { GET: 'deliveries' }, summary: 'Recent deliveries and their attempts', description: 'The latest 50 deliveries, newest first: event, state (pending, delivered, failed, cancelled), attempts with their time, response status or error, and duration. Response bodies are never kept or shown.' },
];

/** The webhook routes at both prefixes, like the DA listing's. */
export const WEBHOOK_ROUTES: readonly RouteValue<{ da: DaRoutes }>[] = ['/v1', '/api/v1'].flatMap((prefix) =>
  WEBHOOK_PATHS.map((r): RouteValue<{ da: DaRoutes }> => ({
    path: `${prefix}${r.path}`,
    tag: 'Webhooks',
    summary: r.summary,
    description: `${r.description}${WEBHOOK_NOTE}`,
    operations: keyedOperations<WebhookOperation, { da: DaRoutes }>(r.ops, webhookDoc, (op) => (c) => c.modules.da.webhook(c.req, op, c.id, c.key, c.client())),
  })),
);
