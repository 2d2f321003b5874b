/**
 * Values that are either ready or promised. The embedded SQLite store answers synchronously and a networked
 * one (PostgreSQL) would answer with promises; code written against `MaybePromise` runs without a single
 * microtask when everything is ready (a cached lookup on SQLite), and asynchronously otherwise.
 */

/** A value, or a promise of one. */
export type MaybePromise<T> = T | Promise<T>;

/** `f(v)` now when `v` is ready, after it resolves otherwise. */
export function chain<T, U>(v: MaybePromise<T>, f: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}
