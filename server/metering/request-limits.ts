/**
 * Request limits of the DA listing (spec section 8): a DA-listing key has a daily request limit (the
 * Starter plan's 1,000 a day) counted in the Australia/Melbourne day; the playground's public demo key is
 * limited to 10 requests a minute per client address, so one visitor cannot use it up for everyone.
 *
 * Every keyed DA response carries the limit, what remains and when it resets, as the IETF httpapi
 * RateLimit fields (draft-ietf-httpapi-ratelimit-headers-06: `RateLimit-Limit`, `RateLimit-Remaining`,
 * `RateLimit-Reset` in seconds, and `RateLimit-Policy` `limit;w=window-seconds`). Over the limit: 429 with
 * `Retry-After` and a body naming the limit, the count and the reset time. Every counted request counts,
 * whatever its answer (a 422 for a bad parameter, a 404 for an unknown id), as GitHub's and Stripe's do;
 * a key without the DA listing is refused (403) before anything is counted.
 */
import { ApiError } from '../http/api-error.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import type { ApiKeyRecord, RequestLimiter } from '../store/store.js';
import { melbourneDate, melbourneIso, melbourneMidnight } from './billing-period.js';

/** The playground demo key's limit: requests per minute per client address (spec section 8). */
export const PLAYGROUND_PER_MINUTE = 10;

/** The label of the playground's demo key (reserved: `keys create` refuses labels starting `playground:`). */
export const PLAYGROUND_LABEL = 'playground:demo';

/** A limit window: its key in the store, when it resets and its length in seconds. */
export interface LimitWindow {
  key: string;
  resetsAt: Date;
  seconds: number;
  /** `day` (Australia/Melbourne) or `minute` (UTC). */
  kind: 'day' | 'minute';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The Australia/Melbourne day containing `at` (23, 24 or 25 hours long across daylight-saving changes). */
export function melbourneDay(at: Date): LimitWindow {
  const d = melbourneDate(at);
  const start = melbourneMidnight(d.y, d.m, d.d);
  const next = new Date(Date.UTC(d.y, d.m - 1, d.d + 1));
  const resetsAt = melbourneMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
  return { key: `${d.y}-${pad(d.m)}-${pad(d.d)}`, resetsAt, seconds: Math.round((resetsAt.getTime() - start.getTime()) / 1000), kind: 'day' };
}

/** The UTC minute containing `at`. */
export function utcMinute(at: Date): LimitWindow {
  const start = Math.floor(at.getTime() / 60_000) * 60_000;
  return { key: new Date(start).toISOString().slice(0, 16), resetsAt: new Date(start + 60_000), seconds: 60, kind: 'minute' };
}

/** True for the playground's demo key. */
export function isPlaygroundKey(key: ApiKeyRecord): boolean {
  return key.label === PLAYGROUND_LABEL;
}

/** True when a key may use the DA listing: it has a daily limit, or it is the playground's demo key. */
export function hasDaListing(key: ApiKeyRecord): boolean {
  return key.da_daily_limit !== null || isPlaygroundKey(key);
}

/**
 * Counts one DA-listing request of `key` (from `client`, the peer address) at `now` and returns the
 * RateLimit headers for the response; throws 429 when the limit is reached (the headers ride on the error).
 */
/** Childcare requests a day when the key names no limit of its own (spec 8 leaves the number to us). */
export const CHILDCARE_DAILY_DEFAULT = 1000;

export function limitDaRequest(limiter: RequestLimiter, key: ApiKeyRecord, client: string, now: Date, product: 'da' | 'childcare' = 'da'): MaybePromise<Record<string, string>> {
  const playground = product === 'da' && isPlaygroundKey(key);
  const window = playground ? utcMinute(now) : melbourneDay(now);
  // The childcare service counts against its own daily limit, never the DA listing's (a childcare key's limit
  // must not open the DA listing, nor the DA listing's the childcare service).
  const limit = playground ? PLAYGROUND_PER_MINUTE : product === 'childcare' ? (key.childcare?.daily_limit ?? CHILDCARE_DAILY_DEFAULT) : (key.da_daily_limit ?? 0);
  const bucket = playground ? `playground:${client || 'unknown'}` : `${product}:${key.id}`;
  return chain(limiter.countRequest(bucket, window.key, limit, new Date(window.resetsAt.getTime() + 60_000)), (o) => {
    const resetS = Math.max(1, Math.ceil((window.resetsAt.getTime() - now.getTime()) / 1000));
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - o.used)),
      'RateLimit-Reset': String(resetS),
      'RateLimit-Policy': `${limit};w=${window.seconds}`,
    };
    if (o.allowed) return headers;
    const resetsAt = window.kind === 'day' ? melbourneIso(window.resetsAt) : window.resetsAt.toISOString().replace('.000Z', 'Z');
    throw new ApiError(
      playground ? 'playground_limit_exceeded' : 'daily_limit_exceeded',
      playground
        ? `the playground's demo key allows ${limit} requests a minute from each address; try again in ${resetS} s, or use your own key from a server`
        : `this key has used its ${product === 'childcare' ? 'childcare' : 'DA-listing'} limit of ${limit} requests today (Australia/Melbourne); the limit resets at ${resetsAt}`,
      { limit, used: o.used, window: window.kind, resets_at: resetsAt, retry_after_s: resetS },
      { ...headers, 'Retry-After': String(resetS) },
    );
  });
}
