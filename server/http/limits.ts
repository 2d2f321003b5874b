/** The sizes of a request the API reads (the router, the transports and the OpenAPI document share them). */

/**
 * The longest request body read: 1 MiB, room for a 5,000-vertex catchment polygon (about 200 KB of JSON).
 * Webhook subscriptions and SQL queries are held to {@link SMALL_BODY}.
 */
export const MAX_REQUEST_BODY = 1024 * 1024;
/** The body limit of the webhook and SQL endpoints. */
export const SMALL_BODY = 64 * 1024;

/**
 * The longest request target (path and query) answered; a longer one is 414. Well above any legitimate
 * request (a full property query is under 600 bytes) and below where the transport itself gives up.
 */
export const MAX_REQUEST_TARGET = 8192;

/**
 * The body limit of a batch upload (`POST /v1/batch`): 128 MiB, about a million rows of an address and a
 * few carried columns. The rows themselves are limited to a million (propintel/batch's MAX_BATCH_ROWS).
 */
export const BATCH_MAX_BODY = 128 * 1024 * 1024;

/** The batch upload paths, which read up to {@link BATCH_MAX_BODY}. */
export const BATCH_PATHS: readonly string[] = ['/v1/batch', '/api/v1/batch'];

/**
 * The most body bytes read for a request to `path`: {@link BATCH_MAX_BODY} for a batch upload that carries
 * credentials, else {@link MAX_REQUEST_BODY} (a request without a key is answered 401 whatever its body, so
 * it never gets a large buffer held for it).
 */
export function bodyLimit(path: string, credentials: boolean): number {
  return credentials && BATCH_PATHS.includes(path) ? BATCH_MAX_BODY : MAX_REQUEST_BODY;
}
