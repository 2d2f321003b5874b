/**
 * The property routes (`GET /api/v1/property` and `/property/core`, spec section 2): the query parsed and
 * validated once per raw query string -> the licence (403) -> the response cache, or a lookup shared with the
 * identical requests already waiting for one, after the quota gate -> the meter (429) -> 200 with `usage`.
 * HEAD checks all of that without computing or metering the payload.
 */
import { checkLicence, propertyBodyOf, type LicenceRefusal, type PropertyLicence, type PropertyOptions, type PropertySubject, resolveOptions, validateSubject } from '../../engine/entry/property.js';
import { BillingPeriodCache, inOnboarding, type BillingPeriod } from '../metering/billing-period.js';
import { meterLookup, quotaExceeded } from '../metering/meter.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import { propertyDoc } from './operation-docs.js';
import type { ApiKeyRecord } from '../store/store.js';
import { ApiError } from '../http/api-error.js';
import { clientClosed, JSON_TYPE, type AbortSource, type ApiContext, type ApiRequest, type ApiResponse } from './api-types.js';
import { acceptsGzip, finishPayload } from './payload-body.js';
import { parsePropertyQuery } from './query.js';
import { ResponseCache, type CachedResponse } from './response-cache.js';
import { get, type RouteValue } from './route-value.js';

interface ValidQuery {
  subject: PropertySubject;
  options: PropertyOptions;
  canonical: string;
  /** Per licence: the licence check's outcome and the response cache key. */
  byLicence: Map<string, { refusal: LicenceRefusal | null; base: string }>;
}

interface PendingLookup {
  promise: Promise<CachedResponse>;
  controller: AbortController;
  waiters: number;
}

/** The headers of a property payload. */
function payloadHeaders(gzip: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', Vary: 'Accept-Encoding' };
  if (gzip) headers['Content-Encoding'] = 'gzip';
  return headers;
}

/** The property routes of one API. */
export class PropertyRoutes {
  /** Finished payloads held for repeat requests. */
  readonly responses: ResponseCache;
  private readonly pending = new Map<string, PendingLookup>();
  private readonly periods = new BillingPeriodCache();
  private readonly queries = new Map<string, ValidQuery>();
  private get documentation(): { version: string; hash: string } {
    return this.ctx.documents.stamp();
  }

  constructor(
    private readonly ctx: ApiContext,
    responseCacheBytes: number,
  ) {
    this.responses = new ResponseCache(responseCacheBytes);
  }

  /** The parsed and validated query, remembered per raw query string (clients repeat theirs). */
  query(raw: string, variant: 'full' | 'core'): ValidQuery {
    const id = `${variant}?${raw}`;
    let v = this.queries.get(id);
    if (!v) {
      const q = parsePropertyQuery(raw, variant);
      v = { subject: validateSubject(q.subject as Record<string, unknown>), options: q.options, canonical: q.canonical, byLicence: new Map() };
      resolveOptions(q.options);
      if (this.queries.size >= 10_000) this.queries.clear();
      this.queries.set(id, v);
    }
    return v;
  }

  request(req: ApiRequest, variant: 'full' | 'core', key: ApiKeyRecord, abort?: AbortSource): MaybePromise<ApiResponse> {
    const q = this.query(req.query, variant);
    const licence: PropertyLicence = { components: key.components, geometry: key.geometry };
    // The licence decision and the cache key depend only on the query and the licence: worked out once each.
    const licenceId = `${[...key.components].sort().join(',')}|${key.geometry ? 'g' : '-'}`;
    let decided = q.byLicence.get(licenceId);
    if (!decided) {
      decided = { refusal: checkLicence({ ...q.options, licence, variant }), base: `${variant}|${licenceId}|${q.canonical}` };
      q.byLicence.set(licenceId, decided);
    }
    const refusal = decided.refusal;
    if (refusal) throw new ApiError('not_licensed', refusal.message, { requested: refusal.requested, licensed_components: key.components, geometry_licence: key.geometry });

    const now = this.ctx.clock();
    const period = this.periods.get(now, key.period, key.effective_date);
    if (req.method === 'HEAD') return this.propertyHead(req, key, period, q.subject, now);
    const base = decided.base;
    const revision = this.ctx.service.dataRevision();
    const cached = this.responses.get(`${revision}|${base}`, now.getTime());
    const entry = cached ?? chain(this.quotaGate(key, period, q.subject, now), () => this.lookup(revision, base, q.subject, q.options, licence, variant, now, abort));
    return chain(entry, (e) => {
      if (abort?.aborted) throw clientClosed();
      return chain(meterLookup(this.ctx.store, key, period, e, now), (metered): ApiResponse => {
        const gzip = acceptsGzip(req.acceptEncoding);
        return { status: 200, contentType: JSON_TYPE, headers: payloadHeaders(gzip), body: finishPayload(e.body, metered.usage, metered.notChargedReason, gzip) };
      });
    });
  }

  /**
   * HEAD of a property lookup: what GET checks (the key, the parameters, the licence, that the subject
   * resolves, the quota), without computing or metering the payload; the GET's headers and no length, which is
   * known only once the payload is made.
   */
  propertyHead(req: ApiRequest, key: ApiKeyRecord, period: BillingPeriod, subject: PropertySubject, now: Date): MaybePromise<ApiResponse> {
    const identify = this.ctx.service.identify;
    return chain(identify ? identify.call(this.ctx.service, subject) : undefined, () =>
      chain(this.quotaGate(key, period, subject, now), (): ApiResponse => ({ status: 200, contentType: JSON_TYPE, headers: payloadHeaders(acceptsGzip(req.acceptEncoding)), body: '', lengthUnknown: true })),
    );
  }

  /**
   * Refuses a lookup before computing it when the key has used its quota and the subject would be a new
   * address in the period (a repeat, a sandbox address and anything in the onboarding window stay free):
   * at quota, only the subject is resolved, not the payload. The charge after the lookup stays the atomic
   * decision; this only spares the work of answers that could never be delivered.
   */
  quotaGate(key: ApiKeyRecord, period: BillingPeriod, subject: PropertySubject, now: Date): MaybePromise<void> {
    const identify = this.ctx.service.identify;
    if (!identify || inOnboarding(now, key.onboarding_until)) return undefined;
    return chain(this.ctx.store.used(key.id, period.key), (used) => {
      if (used < key.quota) return undefined;
      return identify.call(this.ctx.service, subject).then((id) => {
        if (id.sandbox) return undefined;
        return chain(this.ctx.store.counted(key.id, period.key, id.addressKey), (counted) => {
          if (!counted) throw quotaExceeded(key, period, used, id.label, now);
        });
      });
    });
  }

  /**
   * Runs a lookup, sharing it with identical requests already waiting for one (a burst of first lookups of
   * one address computes it once). It is cancelled only when every waiting client has gone.
   */
  lookup(revision: number, base: string, subject: PropertySubject, options: PropertyOptions, licence: PropertyLicence, variant: 'full' | 'core', now: Date, abort?: AbortSource): Promise<CachedResponse> {
    const cacheKey = `${revision}|${base}`;
    let p = this.pending.get(cacheKey);
    if (!p) {
      const controller = new AbortController();
      const service = this.ctx.service;
      const lookupOptions: PropertyOptions = { ...options, licence, variant, now, signal: controller.signal };
      const meta = { documentation: this.documentation };
      // Serialised where it was computed (an engine thread) when the engine offers it, else here.
      const answer = service.propertyBody ? service.propertyBody(subject, lookupOptions, meta) : service.property(subject, lookupOptions).then((result) => propertyBodyOf(result, now.getTime(), meta));
      const promise = answer.then(({ completeness, ...entry }): CachedResponse => {
        // Only a complete payload, and only if the DA records did not change while it was computed.
        if (completeness === 'full' && service.dataRevision() === revision) this.responses.set(cacheKey, entry);
        return entry;
      });
      p = { promise, controller, waiters: 0 };
      const mine = p;
      this.pending.set(cacheKey, mine);
      const done = () => {
        if (this.pending.get(cacheKey) === mine) this.pending.delete(cacheKey);
      };
      promise.then(done, done);
    }
    const shared = p;
    shared.waiters++;
    const release = () => {
      if (--shared.waiters > 0) return;
      // Nobody waits any more: cancel, and let a later identical request start afresh.
      shared.controller.abort();
      if (this.pending.get(cacheKey) === shared) this.pending.delete(cacheKey);
    };
    if (!abort) return shared.promise;
    if (abort.aborted) {
      release();
      return Promise.reject(clientClosed());
    }
    const signal = abort.signal;
    signal.addEventListener('abort', release, { once: true });
    return shared.promise.finally(() => signal.removeEventListener('abort', release));
  }
}

/** The property lookups (spec section 4): the full payload and the Core contract, keyed and metered. */
export const PROPERTY_ROUTES: readonly RouteValue<{ property: PropertyRoutes }>[] = [
  {
    path: '/api/v1/property',
    tag: 'Property',
    summary: 'Full payload for one address or point',
    description:
      'One Australian address (free text) or point (lat and lng, never both kinds) in, one JSON payload out: DAs, planning, hazards, environment, locality facts, nine scores and, with include_surfaces=1 on geometry-licensed keys, the noise, heat and contour surfaces. Billed per unique address per key per billing period; repeats are free.',
    operations: [get('key', propertyDoc('full'), (c) => c.modules.property.request(c.req, 'full', c.key, c.abort))],
  },
  {
    path: '/api/v1/property/core',
    tag: 'Property',
    summary: 'Score-free closed Core contract',
    description:
      'Identity, DAs, POI, planning, hazards, environment, transport, utilities, administrative and public housing. Never returns scores, surfaces or future top-level blocks. The key must cover the complete Core component set. Same resolver, rights filters, coverage states, source inventory, meter and cache as the full endpoint.',
    operations: [get('key', propertyDoc('core'), (c) => c.modules.property.request(c.req, 'core', c.key, c.abort))],
  },
];
