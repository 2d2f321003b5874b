/**
 * The DA listing over HTTP, the CLI and MCP: query parameters as text in, the JSON documents of spec 4.1
 * out. The text is validated here, so every front end refuses the same values with the same messages
 * (`INVALID_ARGUMENT` naming the parameter, HTTP 422); the queries themselves are the engine's, typed
 * (propintel/das: listDas, nearbyDas, ...).
 *
 * `meta.pages.next` is the path of the next page, carrying a keyset `cursor` (the engine's position after
 * the page's last record, encoded): a client that follows `next` visits every record that matched when it
 * started exactly once, even while records are being imported.
 */
import { CATEGORY_NAMES, DA_LIMITS, DA_MAX_PAGE, STATUS_GROUPS, categoryOf, daStats, getDa, isIsoDate, listCategories, listCouncils, listDas, nearbyDas } from '../../engine/entry/das.js';
import type { DaFilter, DaListPosition, DaNearbyFilter, DaNearbyPosition, DaReader, DaRecord, StatusGroup } from '../../engine/entry/das.js';
import { isStateCode, STATES, type StateCode } from '../../engine/entry/data.js';
import { EngineError } from '../../engine/entry/errors.js';
import { booleanText } from '../http/query-values.js';

/** Parameters of `/v1/das`. */
export const DA_LIST_PARAMETERS = ['state', 'council', 'category', 'suburb', 'postcode', 'since', 'until', 'status_group', 'is_residential', 'page', 'per_page', 'cursor'] as const;
/** Parameters of `/v1/das/nearby`. */
export const DA_NEARBY_PARAMETERS = ['lat', 'lng', 'radius_km', 'category', 'since', 'status_group', 'page', 'per_page', 'cursor'] as const;
/** Parameters of `/v1/categories`, `/v1/councils`. */
export const DA_STATE_PARAMETERS = ['state'] as const;

/** Query parameters as text, by name (each at most once; unknown names are refused before this). */
export type DaParams = ReadonlyMap<string, string>;

/** A listing document: `data` and, for lists, `meta`. */
export interface DaDocument {
  data: unknown;
  meta?: Record<string, unknown>;
}

const invalid = (parameter: string, message: string) => new EngineError('INVALID_ARGUMENT', message, { parameter });
const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);

/** A decimal number as text: digits with an optional sign, point and exponent (`-1`, `2.5`, `1e9`). */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function wholeNumber(name: string, v: string, min: number, max: number): number {
  // A number of any length or sign is one: outside the range, the range is what to say.
  if (v.length <= 400 && NUMBER.test(v)) {
    const n = Number(v);
    if (n < min || n > max) throw invalid(name, `${name} is out of range: it must be from ${min} to ${max}, got ${shown(v)}`);
    if (Number.isInteger(n) && /^\+?\d+$/.test(v)) return n;
  }
  throw invalid(name, `${name} must be a whole number from ${min} to ${max}, got ${shown(v)}`);
}

function decimal(name: string, v: string): number {
  if (v.length > 400 || !NUMBER.test(v)) throw invalid(name, `${name} must be a number, got ${shown(v)}`);
  const n = Number(v);
  // 1e999 is a number, only too large to hold: out of range, as the range checks after this say of 1e9.
  if (!Number.isFinite(n)) throw invalid(name, `${name} is out of range: got ${shown(v)}`);
  return n;
}

function state(v: string): StateCode {
  const s = v.trim().toUpperCase();
  if (!isStateCode(s)) throw invalid('state', `state must be one of ${STATES.join(', ')}, got ${shown(v)}`);
  return s;
}

function category(v: string) {
  const c = categoryOf(v);
  if (!c) throw invalid('category', `category must be one of the ${Object.keys(CATEGORY_NAMES).length} categories (a slug such as swimming_pool, or its name such as "Swimming Pool / Spa"; see /v1/categories), got ${shown(v)}`);
  return c;
}

function statusGroup(v: string): StatusGroup {
  const g = v.trim().toLowerCase();
  if (!(STATUS_GROUPS as readonly string[]).includes(g)) throw invalid('status_group', `status_group must be one of ${STATUS_GROUPS.join(', ')}, got ${shown(v)}`);
  return g as StatusGroup;
}

function date(name: string, v: string): string {
  if (!isIsoDate(v)) throw invalid(name, `${name} must be a date as YYYY-MM-DD, got ${shown(v)}`);
  return v;
}

function flag(name: string, v: string): boolean {
  const b = booleanText(v);
  if (b === undefined) throw invalid(name, `${name} must be true, false, 1 or 0, got ${shown(v)}`);
  return b;
}

function text(name: string, v: string, max = 200): string {
  const t = v.trim();
  if (!t) throw invalid(name, `${name} must not be empty`);
  if (t.length > max) throw invalid(name, `${name} must be at most ${max} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(t)) throw invalid(name, `${name} must not contain control characters`);
  return t;
}

function paging(p: DaParams): { page: number; perPage: number; cursor: string | null } {
  const page = p.has('page') ? wholeNumber('page', p.get('page')!, 1, DA_MAX_PAGE) : 1;
  const perPage = p.has('per_page') ? wholeNumber('per_page', p.get('per_page')!, 1, DA_LIMITS.perPage.max) : DA_LIMITS.perPage.default;
  return { page, perPage, cursor: p.get('cursor') ?? null };
}

function since(p: DaParams, f: { since?: string; until?: string }): void {
  if (p.has('since')) f.since = date('since', p.get('since')!);
  if (p.has('until')) f.until = date('until', p.get('until')!);
  if (f.since && f.until && f.until < f.since) throw invalid('until', `until (${f.until}) is before since (${f.since})`);
}

/** The filter of a `/v1/das` query. */
export function parseDaFilter(p: DaParams): DaFilter {
  const f: DaFilter = {};
  if (p.has('state')) f.state = state(p.get('state')!);
  if (p.has('council')) f.council = text('council', p.get('council')!);
  if (p.has('category')) f.category = category(p.get('category')!);
  if (p.has('suburb')) f.suburb = text('suburb', p.get('suburb')!, 100);
  if (p.has('postcode')) {
    const v = p.get('postcode')!.trim();
    if (!/^\d{4}$/.test(v)) throw invalid('postcode', `postcode must be four digits, got ${shown(v)}`);
    f.postcode = v;
  }
  since(p, f);
  if (p.has('status_group')) f.status_group = statusGroup(p.get('status_group')!);
  if (p.has('is_residential')) f.is_residential = flag('is_residential', p.get('is_residential')!);
  return f;
}

function encodeCursor(kind: 'l' | 'n', key: string | number, id: number): string {
  return Buffer.from(JSON.stringify([kind, key, id])).toString('base64url');
}

function decodeCursor<K extends 'l' | 'n'>(kind: K, v: string): { key: K extends 'l' ? string : number; id: number } {
  let parsed: unknown;
  try {
    parsed = /^[A-Za-z0-9_-]{1,200}$/.test(v) ? JSON.parse(Buffer.from(v, 'base64url').toString('utf8')) : null;
  } catch {
    parsed = null;
  }
  const ok = Array.isArray(parsed) && parsed.length === 3 && parsed[0] === kind && Number.isSafeInteger(parsed[2]) && (kind === 'l' ? typeof parsed[1] === 'string' && isIsoDate(parsed[1]) : typeof parsed[1] === 'number' && Number.isFinite(parsed[1]));
  if (!ok) throw invalid('cursor', `cursor ${shown(v)} is not one this endpoint issued; follow meta.pages.next as given`);
  return { key: (parsed as unknown[])[1] as K extends 'l' ? string : number, id: (parsed as unknown[])[2] as number };
}

function nextPath(path: string, p: DaParams, page: number, cursor: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of p) if (k !== 'page' && k !== 'cursor') q.set(k, v);
  q.set('page', String(page));
  q.set('cursor', cursor);
  return `${path}?${q.toString()}`;
}

const pagesMeta = (page: { page: number; perPage: number; total: number }, next: string | null) => ({ page: page.page, per_page: page.perPage, total: page.total, total_pages: Math.ceil(page.total / page.perPage), next });

/**
 * `GET /v1/das`: records matching the filters, newest lodged first. `path` is the request's path (for
 * `next`); `narrow` adds filters and `item` makes the rows (the childcare feed: its category, the key's
 * states, and rows with the pipeline fields).
 */
export function daListDocument(store: DaReader, p: DaParams, path = '/v1/das', narrow: Partial<DaFilter> = {}, item?: (r: DaRecord) => unknown): DaDocument {
  const filter = { ...parseDaFilter(p), ...narrow };
  const pg = paging(p);
  const c = pg.cursor ? decodeCursor('l', pg.cursor) : null;
  const after: DaListPosition | null = c ? { lodged: c.key, id: c.id } : null;
  const r = listDas(store, { filter, page: pg.page, perPage: pg.perPage, after }, item);
  const next = r.next ? nextPath(path, p, pg.page + 1, encodeCursor('l', r.next.lodged, r.next.id)) : null;
  return { data: r.items, meta: { pages: pagesMeta(r, next), query: r.query, order: r.order, as_at: r.asAt } };
}

/** `GET /v1/das/nearby`: geocoded records within `radius_km` of lat/lng, nearest first, with `distance_km`. */
export function daNearbyDocument(store: DaReader, p: DaParams, path = '/v1/das/nearby'): DaDocument {
  for (const name of ['lat', 'lng']) if (!p.has(name)) throw invalid(name, `${name} is required: pass both lat and lng (WGS84 degrees)`);
  const lat = decimal('lat', p.get('lat')!);
  const lng = decimal('lng', p.get('lng')!);
  const radiusKm = p.has('radius_km') ? decimal('radius_km', p.get('radius_km')!) : undefined;
  const filter: DaNearbyFilter = {};
  if (p.has('category')) filter.category = category(p.get('category')!);
  since(p, filter);
  if (p.has('status_group')) filter.status_group = statusGroup(p.get('status_group')!);
  const pg = paging(p);
  const c = pg.cursor ? decodeCursor('n', pg.cursor) : null;
  const after: DaNearbyPosition | null = c ? { distance: Number(c.key), id: c.id } : null;
  const r = nearbyDas(store, { lat, lng, radiusKm, filter, page: pg.page, perPage: pg.perPage, after });
  const next = r.next ? nextPath(path, p, pg.page + 1, encodeCursor('n', r.next.distance, r.next.id)) : null;
  return { data: r.items, meta: { pages: pagesMeta(r, next), query: r.query, order: r.order, as_at: r.asAt } };
}

/** `GET /v1/das/{id}`: one record with every data point and its summary. */
export function daDetailDocument(store: DaReader, idText: string): DaDocument {
  if (!/^\d{1,15}$/.test(idText) || Number(idText) < 1) throw invalid('id', `the DA id must be a positive whole number, got ${shown(idText)}`);
  return { data: getDa(store, Number(idText)) };
}

const stateFilter = (p: DaParams): { state?: StateCode } => (p.has('state') ? { state: state(p.get('state')!) } : {});

/** `GET /v1/categories`: the 21 categories with their record counts (zero included). */
export function daCategoriesDocument(store: DaReader, p: DaParams = new Map()): DaDocument {
  const f = stateFilter(p);
  const r = listCategories(store, f);
  return { data: r.items, meta: { total: r.total, query: f, as_at: r.asAt } };
}

/** `GET /v1/councils`: every council holding records, with its state, count, freshness and field coverage. */
export function daCouncilsDocument(store: DaReader, p: DaParams = new Map()): DaDocument {
  const f = stateFilter(p);
  const data = listCouncils(store, f);
  return { data, meta: { total: data.length, query: f } };
}

/** `GET /v1/stats`: totals by state, category and status group, the lodgement date range and freshness. */
export function daStatsDocument(store: DaReader): DaDocument {
  return { data: daStats(store) };
}
