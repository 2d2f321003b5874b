/**
 * HTTP errors and the one table that maps engine failures to them (spec section 7, STYLE.md). Every error
 * body is `{ "error": "<snake_case_code>", "message": "<plain English>", ...the fields the spec names }`.
 */
import { isEngineError } from '../../engine/entry/errors.js';
import { StoreUnavailableError } from './store-unavailable.js';

/** Seconds a client should wait before retrying a 503 (the `Retry-After` header). */
export const RETRY_AFTER_S = 30;

/**
 * Every error code the API answers with, and its one HTTP status. A code never changes status from route to
 * route: an error is made from its code ({@link ApiError}), and the OpenAPI documents list each code only under
 * its own status (the conformance suite checks both). 400 is kept for what the childcare specification names
 * (section 7: an invalid date, location or polygon, and `include_access=true`); every other bad parameter or
 * body is 422, as the property and DA-listing specifications have it.
 */
export const ERROR_STATUS = {
  // 400: the childcare service's own (spec: da-and-childcare-services 7).
  invalid_date: 400,
  invalid_location: 400,
  invalid_polygon: 400,
  unsupported_parameter: 400,
  // 401: the key.
  missing_key: 401,
  invalid_authorization: 401,
  invalid_key: 401,
  // 403: the licence.
  not_licensed: 403,
  geometry_not_licensed: 403,
  key_inactive: 403,
  key_expired: 403,
  add_on_not_enabled: 403,
  state_not_entitled: 403,
  // 404, 405, 409, 413, 414.
  not_found: 404,
  da_not_found: 404,
  unknown_layer: 404,
  sample_unavailable: 404,
  method_not_allowed: 405,
  subscription_disabled: 409,
  payload_too_large: 413,
  batch_storage_full: 413,
  uri_too_long: 414,
  // 415: a batch upload that is neither CSV nor JSON lines.
  unsupported_media_type: 415,
  // 422: a bad parameter or body (named in `parameter`), or a subject that does not resolve.
  invalid_parameter: 422,
  unknown_parameter: 422,
  duplicate_parameter: 422,
  missing_parameter: 422,
  invalid_body: 422,
  invalid_subject: 422,
  address_unresolvable: 422,
  outside_coverage: 422,
  invalid_tile: 422,
  too_many_subscriptions: 422,
  invalid_sql: 422,
  not_a_query: 422,
  forbidden_sql: 422,
  query_failed: 422,
  query_timeout: 422,
  query_too_large: 422,
  // 429: limits.
  quota_exceeded: 429,
  daily_limit_exceeded: 429,
  playground_limit_exceeded: 429,
  too_many_queries: 429,
  renderer_busy: 429,
  too_many_batch_jobs: 429,
  // 499 is nginx's "client closed request": nothing is written.
  client_closed: 499,
  internal_error: 500,
  // 503: retry after Retry-After.
  service_unavailable: 503,
  address_resolution_unavailable: 503,
  core_component_unavailable: 503,
  renderer_failed: 503,
  renderer_unavailable: 503,
} as const satisfies Record<string, number>;

/** An error code of the API. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** True when `code` is one of {@link ERROR_STATUS}'s codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);
}

/** An error answered as an HTTP response; its status is its code's ({@link ERROR_STATUS}). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status. */
  readonly status: number;

  constructor(
    /** The body's `error` code (snake_case). */
    readonly code: ErrorCode,
    message: string,
    /** Extra body fields (`parameter`, `candidates`, `used`, ...). */
    readonly fields: Record<string, unknown> = {},
    /** Extra response headers (`Retry-After`, `Allow`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  /** The response body. */
  body(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.fields };
  }
}

/** 422 for a query parameter: the body names it. */
export function badParameter(parameter: string, message: string, code: ErrorCode = 'invalid_parameter', extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(code, message, { parameter, ...extra });
}

/**
 * Maps anything a handler threw to an ApiError. Engine codes (engine/property/kit/contract.ts):
 * - INVALID_ARGUMENT -> 422 naming `details.parameter` (`invalid_subject` for the subject rules);
 * - NOT_FOUND with reason `address_unresolvable` -> 422 `address_unresolvable` with the candidates;
 * - NOT_FOUND with reason `da_not_found` (an unknown DA id) -> 404 `da_not_found`;
 * - NOT_FOUND with reason `outside_coverage` (a point no held dataset covers) -> 422 `outside_coverage`;
 * - UNAVAILABLE for `address_resolution` -> 503 `address_resolution_unavailable` (a coordinate still works);
 * - UNAVAILABLE for `development_applications` -> 503 `core_component_unavailable` (no payload, no charge);
 * - any other engine failure of a whole lookup -> 503 `service_unavailable`;
 * - anything else is a bug: 500 `internal_error` (logged with the request id).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreUnavailableError) {
    return new ApiError('service_unavailable', `the shared database did not answer, so nothing was done or charged: ${err.message}`, { retry_after_s: err.retryAfterS }, { 'Retry-After': String(err.retryAfterS) });
  }
  if (isEngineError(err)) {
    const d = err.details;
    switch (err.code) {
      case 'INVALID_ARGUMENT':
        return badParameter(String(d.parameter ?? 'query'), err.message, d.reason === 'invalid_subject' ? 'invalid_subject' : 'invalid_parameter');
      case 'NOT_FOUND':
        if (d.reason === 'da_not_found') return new ApiError('da_not_found', err.message, { id: d.id });
        if (d.reason === 'outside_coverage') return badParameter('lat', err.message, 'outside_coverage');
        if (d.reason === 'address_unresolvable') {
          return badParameter('address', err.message, 'address_unresolvable', { candidates: Array.isArray(d.candidates) ? d.candidates : [] });
        }
        break;
      case 'UNAVAILABLE':
        if (d.component === 'address_resolution') {
          return new ApiError('address_resolution_unavailable', `${err.message}`, { retry_after_s: RETRY_AFTER_S, workaround: 'pass lat and lng instead of address' }, { 'Retry-After': String(RETRY_AFTER_S) });
        }
        if (d.component === 'development_applications') {
          return new ApiError('core_component_unavailable', `the development-applications lookup could not answer, so no payload was produced and nothing was charged: ${err.message}`, { component: 'development_applications', retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
        }
        break;
      default:
        break;
    }
    return new ApiError('service_unavailable', `the lookup could not be completed (${err.code}): ${err.message}`, { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
  }
  return new ApiError('internal_error', 'an unexpected error occurred; it has been logged with this request id');
}

/** Reason phrases for the statuses the server sends. */
export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
