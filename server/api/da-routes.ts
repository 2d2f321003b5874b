/**
 * The DA routes: the listing (/v1/das, /v1/das/{id}, nearby, councils, categories, stats; spec section 3) and
 * webhooks (/v1/webhooks...), both on a key with the DA listing and its daily limit.
 */
import type { ApiKeyRecord } from '../store/store.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import { hasDaListing, limitDaRequest } from '../metering/request-limits.js';
import { ApiError } from '../http/api-error.js';
import { JSON_TYPE, jsonAnswer, refusePlayground, requireDas, withLimits, type ApiContext, type ApiOptions, type ApiRequest, type ApiResponse } from './api-types.js';
import { daDocument } from './da-handlers.js';
import { decodeQuery, rejectUnknown } from './query.js';
import type { DaOperation, WebhookOperation } from './routes.js';
import { jsonBody, webhookOperation, type WebhookContext } from './webhook-handlers.js';
import { SMALL_BODY } from '../http/limits.js';


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
