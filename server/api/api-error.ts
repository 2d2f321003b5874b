/**
 * HTTP errors and the one table that maps engine failures to them (spec section 7, STYLE.md). Every error
 * body is `{ "error": "<snake_case_code>", "message": "<plain English>", ...the fields the spec names }`.
 */
import { isEngineError } from '../../engine/errors.js';
import { StoreUnavailableError } from '../store/store.js';

/** Seconds a client should wait before retrying a 503 (the `Retry-After` header). */
export const RETRY_AFTER_S = 30;

/** An error answered as an HTTP response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The body's `error` code (snake_case). */
    readonly code: string,
    message: string,
    /** Extra body fields (`parameter`, `candidates`, `used`, ...). */
    readonly fields: Record<string, unknown> = {},
    /** Extra response headers (`Retry-After`, `Allow`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The response body. */
  body(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.fields };
  }
}

/** 422 for a query parameter: the body names it. */
export function badParameter(parameter: string, message: string, code = 'invalid_parameter', extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(422, code, message, { parameter, ...extra });
}

/**
 * Maps anything a handler threw to an ApiError. Engine codes (engine/property/contract.ts):
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
    return new ApiError(503, 'service_unavailable', `the shared database did not answer, so nothing was done or charged: ${err.message}`, { retry_after_s: err.retryAfterS }, { 'Retry-After': String(err.retryAfterS) });
  }
  if (isEngineError(err)) {
    const d = err.details;
    switch (err.code) {
      case 'INVALID_ARGUMENT':
        return badParameter(String(d.parameter ?? 'query'), err.message, d.reason === 'invalid_subject' ? 'invalid_subject' : 'invalid_parameter');
      case 'NOT_FOUND':
        if (d.reason === 'da_not_found') return new ApiError(404, 'da_not_found', err.message, { id: d.id });
        if (d.reason === 'outside_coverage') return badParameter('lat', err.message, 'outside_coverage');
        if (d.reason === 'address_unresolvable') {
          return badParameter('address', err.message, 'address_unresolvable', { candidates: Array.isArray(d.candidates) ? d.candidates : [] });
        }
        break;
      case 'UNAVAILABLE':
        if (d.component === 'address_resolution') {
          return new ApiError(503, 'address_resolution_unavailable', `${err.message}`, { retry_after_s: RETRY_AFTER_S, workaround: 'pass lat and lng instead of address' }, { 'Retry-After': String(RETRY_AFTER_S) });
        }
        if (d.component === 'development_applications') {
          return new ApiError(503, 'core_component_unavailable', `the development-applications lookup could not answer, so no payload was produced and nothing was charged: ${err.message}`, { component: 'development_applications', retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
        }
        break;
      default:
        break;
    }
    return new ApiError(503, 'service_unavailable', `the lookup could not be completed (${err.code}): ${err.message}`, { retry_after_s: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
  }
  return new ApiError(500, 'internal_error', 'an unexpected error occurred; it has been logged with this request id');
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
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
