/**
 * A route as a value: its path template, its words for the OpenAPI document, and per method who may call it,
 * how the document describes the operation and what answers it. Each product module exports its routes
 * (property-routes.ts, da-routes.ts, batch-routes.ts, sql-mcp-routes.ts, childcare-routes.ts, tile-routes.ts,
 * ops-routes.ts); routes.ts lists them in the document's order; the router (api.ts) and the OpenAPI builder
 * (server/openapi/openapi.ts) walk that one list, so neither has a branch per kind of route. Adding a route is
 * a value in its product's module (or a new module) and, for a new module, a line in routes.ts
 * (docs/development.md walks through it; test/server/route-values.test.ts adds one).
 */
import type { MaybePromise } from '../maybe-promise.js';
import type { ApiKeyRecord } from '../store/store.js';
import type { AbortSource, ApiRequest, ApiResponse } from './api-types.js';

type Obj = Record<string, unknown>;

/**
 * Who may call an operation: `key` (the router authenticates first: 401 without a valid key), `none`, or
 * `lazy` (the handler authenticates when it must: tiles need a key on real data only).
 */
export type RouteAuth = 'key' | 'none' | 'lazy';

/** OpenAPI tags, in the document's order. */
export type RouteTag = 'Property' | 'Batch' | 'Samples' | 'DA listing' | 'Webhooks' | 'SQL and MCP' | 'Childcare' | 'Tiles' | 'Service';

/** What a handler is given. `Mods` is the part of the API's product modules it uses. */
export interface RouteCall<Mods = unknown> {
  req: ApiRequest;
  /** The path template's parameters, as matched (percent-encoded). */
  params: Readonly<Record<string, string>>;
  /** The template the path matched (an alias's, when it came in by one). */
  template: string;
  /** The path's `{id}`, percent-decoded ('' when the path has none). */
  id: string;
  /** The caller's key (operations with auth `key`). */
  key: ApiKeyRecord;
  /** The client's address (the peer, or behind a trusted local proxy its X-Real-IP). */
  client(): string;
  /** Authenticates now (operations with auth `lazy`). */
  authenticate(): MaybePromise<ApiKeyRecord>;
  /** Tells the request log which key made the request. */
  onKey(id: string): void;
  /** Says when the client went away. */
  abort?: AbortSource;
  /** The client accepts gzip. */
  gzip: boolean;
  modules: Mods;
}

/** One method of a route. */
export interface RouteOperation<Mods = unknown> {
  method: 'GET' | 'POST' | 'DELETE';
  auth: RouteAuth;
  /**
   * The OpenAPI operation: `base` holds the route's tag, summary, description and operationId; the function
   * adds (or overrides) the rest and returns it. It makes fresh objects on every call (the builder edits them).
   */
  doc(route: RouteValue, base: Obj): Obj;
  /** Answers the request (throwing ApiError for the spec's error bodies). */
  handle(call: RouteCall<Mods>): MaybePromise<ApiResponse>;
}

/** One path. */
export interface RouteValue<Mods = unknown> {
  /** The path template (`/v1/das/{id}`): `{name}` matches one segment. */
  path: string;
  tag: RouteTag;
  summary: string;
  description: string;
  /** Its methods, in the order the Allow header and the document list them. */
  operations: readonly RouteOperation<Mods>[];
  /** Further templates answered by this route and never documented (a clear error for a near miss). */
  aliases?: readonly string[];
}

/** Any route, as the router and the builder hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteValue<any>;

/**
 * The methods `route` answers, as its Allow header lists them: HEAD after GET wherever GET is (RFC 9110 9.1).
 * The router refuses any other with 405, and the OpenAPI document's 405 says the same.
 */
export function withHead(route: Pick<RouteValue, 'operations'>): string[] {
  const methods = route.operations.map((o) => o.method as string);
  return methods.flatMap((m) => (m === 'GET' && !methods.includes('HEAD') ? ['GET', 'HEAD'] : [m]));
}

/** The operation answering `method` (HEAD answered by GET's), or undefined. */
export function operationFor<Mods>(route: RouteValue<Mods>, method: string): RouteOperation<Mods> | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return route.operations.find((o) => o.method === m);
}

/** A GET operation (the common case). */
export function get<Mods>(auth: RouteAuth, doc: RouteOperation<Mods>['doc'], handle: RouteOperation<Mods>['handle']): RouteOperation<Mods> {
  return { method: 'GET', auth, doc, handle };
}

/**
 * One keyed operation per method of `ops`, where a method names an operation (webhooks and batch jobs:
 * `{ GET: 'get', DELETE: 'cancel' }`), in the order `ops` lists them.
 */
export function keyedOperations<Op, Mods>(ops: Partial<Record<'GET' | 'POST' | 'DELETE', Op>>, doc: (method: string, op: Op) => RouteOperation['doc'], handle: (op: Op) => RouteOperation<Mods>['handle']): RouteOperation<Mods>[] {
  return (Object.entries(ops) as ['GET' | 'POST' | 'DELETE', Op][]).map(([method, op]) => ({ method, auth: 'key', doc: doc(method, op), handle: handle(op) }));
}
