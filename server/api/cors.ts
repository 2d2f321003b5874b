/**
 * Cross-origin requests (issue 47): a page on another site calls the API, the tiles and TileJSON with its key
 * in an `Authorization` header (MapLibre's `transformRequest`, `fetch`). Such a request is not "simple", so the
 * browser first sends a preflight, `OPTIONS` with `Access-Control-Request-Method` and
 * `Access-Control-Request-Headers`, and sends the real request only when the answer allows both (Fetch
 * standard, "CORS protocol"). Every public path answers it, without a key (a preflight never carries one):
 * 204 with the path's methods, the request headers the API reads and a max age.
 *
 * Every response, errors included, carries `Access-Control-Allow-Origin: *` (so a page can read a 401 or a 429
 * too) and exposes the headers a client acts on (`ETag`, `Retry-After`, the rate-limit fields, `Location`,
 * `X-Request-Id`, ...). `*` is right here: the API authenticates by the key in the header, never by cookies, so
 * no credentialed request is ever made; `Access-Control-Allow-Headers` must still name `Authorization`, which a
 * `*` there does not cover.
 */
import type { ApiResponse } from './api-types.js';
import { withHead, type RouteValue } from './route-value.js';

/** What a path answers, as its Allow header lists them: `withHead`, and OPTIONS (the preflight) everywhere. */
export function allowedMethods(route: Pick<RouteValue, 'operations'>): string[] {
  return [...withHead(route), 'OPTIONS'];
}

/** The request headers a cross-origin page may send (what the API reads, beyond the CORS-safelisted ones). */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'If-None-Match', 'X-Request-Id', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'] as const;

/** The response headers a cross-origin page may read (beyond the CORS-safelisted Content-Type, Cache-Control, ...). */
export const CORS_EXPOSE_HEADERS = ['ETag', 'Location', 'Retry-After', 'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Content-Disposition', 'X-Data-Licence', 'X-Data-Attribution', 'Allow', 'Mcp-Session-Id', 'Batch-Status', 'Batch-Rows-Done', 'WWW-Authenticate'] as const;

/** How long a browser may keep a preflight's answer, seconds (Chromium holds it 2 hours at most, Firefox 24). */
export const CORS_MAX_AGE = 86_400;

/** Adds the headers every response carries (a header the handler set itself is kept). */
export function withCors(res: ApiResponse): ApiResponse {
  res.headers['Access-Control-Allow-Origin'] ??= '*';
  res.headers['Access-Control-Expose-Headers'] ??= CORS_EXPOSE_HEADERS.join(', ');
  return res;
}

/** The answer to a preflight (`OPTIONS`) on a path that answers `methods` (OPTIONS included). */
export function preflight(methods: readonly string[]): ApiResponse {
  const allow = methods.join(', ');
  return {
    status: 204,
    contentType: 'text/plain; charset=utf-8',
    headers: {
      Allow: allow,
      'Access-Control-Allow-Methods': allow,
      'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
      'Access-Control-Max-Age': String(CORS_MAX_AGE),
    },
    body: '',
  };
}
