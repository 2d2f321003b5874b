/**
 * The error a store throws when its shared database cannot answer; here, on the floor, so the error table
 * (api-error.ts) maps it to 503 without importing the store.
 */

/**
 * The shared database could not be reached or dropped the connection (a networked store, PostgreSQL). The
 * server answers 503 with `Retry-After`; whatever the request was doing is either committed or not at all,
 * and a retried lookup of an address already counted is a free repeat, so nothing is charged twice.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, readonly retryAfterS = 5) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
