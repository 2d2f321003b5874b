/**
 * The DA listing (spec sections 2.1, 2.2 and 4.1): list, nearby, one record, categories, councils and stats,
 * as the JSON documents the HTTP API serves and `propintel das` prints. Parameters arrive as text (a query
 * string or command-line flags) and are validated here, so the server and the CLI refuse the same values
 * with the same messages: `INVALID_ARGUMENT` naming the parameter (HTTP 422), `NOT_FOUND` for an unknown id
 * (HTTP 404).
 *
 * Paging: `page` and `per_page` (default 20, at most 100), newest lodged first (ties: highest id first).
 * `meta.pages.next` is the path of the next page, carrying a keyset `cursor` (the last record's lodgement
 * date and id, or distance and id for nearby): a client that follows `next` visits every record that
 * matched when it started exactly once, even while records are being imported (new records that sort
 * before the cursor are not shown; nothing is shown twice). A `page` asked for without a cursor is found by
 * position, stepping over index entries (never rows).
 */
import { isStateCode, STATES, type StateCode } from '../catalogue/states.js';
import { EngineError, invalidArgument } from '../errors.js';
import { booleanText } from '../query-values.js';
import { CATEGORY_NAMES, categoryOf, DA_CATEGORIES, type DaCategory } from './categories.js';
import { daListingItem, isIsoDate, type DaRecord } from './da-record.js';
import { daDetail } from './summary.js';
import type { DaFilter, DaNearbyFilter, DaReader } from './da-store.js';
import { STATUS_GROUPS, type StatusGroup } from './status-rules.js';

/** Paging and radius limits (DESIGN.md). */
export const DA_LIMITS = {
  perPage: { default: 20, max: 100 },
  radiusKm: { default: 5, max: 50 },
} as const;

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

const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);

function wholeNumber(name: string, v: string, min: number, max: number): number {
  if (!/^\d+$/.test(v)) throw invalidArgument(name, `${name} must be a whole number, got ${shown(v)}`);
  // A whole number of any length is one: past the range, the range is what to say.
  const n = v.length > 15 ? Infinity : Number(v);
  if (n < min || n > max) throw invalidArgument(name, `${name} must be from ${min} to ${max}, got ${Number.isFinite(n) ? n : shown(v)}`);
  return n;
}

function decimal(name: string, v: string): number {
  if (!/^[+-]?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})$/.test(v)) throw invalidArgument(name, `${name} must be a number, got ${shown(v)}`);
  return Number(v);
}

function state(v: string): StateCode {
  const s = v.trim().toUpperCase();
  if (!isStateCode(s)) throw invalidArgument('state', `state must be one of ${STATES.join(', ')}, got ${shown(v)}`);
  return s;
}

function category(v: string): DaCategory {
  const c = categoryOf(v);
  if (!c) throw invalidArgument('category', `category must be one of the 21 categories (a slug such as swimming_pool, or its name such as "Swimming Pool / Spa"; see /v1/categories), got ${shown(v)}`);
  return c;
}

function statusGroup(v: string): StatusGroup {
  const g = v.trim().toLowerCase();
  if (!(STATUS_GROUPS as readonly string[]).includes(g)) throw invalidArgument('status_group', `status_group must be one of ${STATUS_GROUPS.join(', ')}, got ${shown(v)}`);
  return g as StatusGroup;
}

function date(name: string, v: string): string {
  if (!isIsoDate(v)) throw invalidArgument(name, `${name} must be a date as YYYY-MM-DD, got ${shown(v)}`);
  return v;
}

function flag(name: string, v: string): boolean {
  const b = booleanText(v);
  if (b === undefined) throw invalidArgument(name, `${name} must be true, false, 1 or 0, got ${shown(v)}`);
  return b;
}

function text(name: string, v: string, max = 200): string {
  const t = v.trim();
  if (!t) throw invalidArgument(name, `${name} must not be empty`);
  if (t.length > max) throw invalidArgument(name, `${name} must be at most ${max} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(t)) throw invalidArgument(name, `${name} must not contain control characters`);
  return t;
}

interface Paging {
  page: number;
  perPage: number;
  cursor: string | null;
}

function paging(p: DaParams): Paging {
  const page = p.has('page') ? wholeNumber('page', p.get('page')!, 1, 1_000_000_000) : 1;
  const perPage = p.has('per_page') ? wholeNumber('per_page', p.get('per_page')!, 1, DA_LIMITS.perPage.max) : DA_LIMITS.perPage.default;
  return { page, perPage, cursor: p.get('cursor') ?? null };
}

function since(p: DaParams, f: { since?: string; until?: string }): void {
  if (p.has('since')) f.since = date('since', p.get('since')!);
  if (p.has('until')) f.until = date('until', p.get('until')!);
  if (f.since && f.until && f.until < f.since) throw invalidArgument('until', `until (${f.until}) is before since (${f.since})`);
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
    if (!/^\d{4}$/.test(v)) throw invalidArgument('postcode', `postcode must be four digits, got ${shown(v)}`);
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
  if (!ok) throw invalidArgument('cursor', `cursor ${shown(v)} is not one this endpoint issued; follow meta.pages.next as given`);
  return { key: (parsed as unknown[])[1] as K extends 'l' ? string : number, id: (parsed as unknown[])[2] as number };
}

function nextPath(path: string, p: DaParams, page: number, cursor: string): string {
  const q = new URLSearchParams();
  for (const [k, v] of p) if (k !== 'page' && k !== 'cursor') q.set(k, v);
  q.set('page', String(page));
  q.set('cursor', cursor);
  return `${path}?${q.toString()}`;
}

function pagesMeta(pg: Paging, total: number, next: string | null): Record<string, unknown> {
  return { page: pg.page, per_page: pg.perPage, total, total_pages: Math.ceil(total / pg.perPage), next };
}

function filterEcho(f: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}

/** `GET /v1/das`: records matching the filters, newest lodged first. `path` is the request's path (for `next`). */
export function listDas(store: DaReader, p: DaParams, path = '/v1/das', narrow: Partial<DaFilter> = {}, item: (r: DaRecord) => Record<string, unknown> = daListingItem): DaDocument {
  // `narrow`: filters the caller adds, and `item` the row it answers (the childcare feed: its category, the
  // key's states, and rows with the pipeline fields).
  const filter = { ...parseDaFilter(p), ...narrow };
  const pg = paging(p);
  const after = pg.cursor ? decodeCursor('l', pg.cursor) : null;
  const total = store.count(filter);
  const offset = (pg.page - 1) * pg.perPage;
  // One more than a page tells whether a next page exists without trusting a count that imports may move.
  const records = !after && offset >= total ? [] : store.list(filter, { limit: pg.perPage + 1, offset: after ? 0 : offset, after: after ? { lodged: after.key, id: after.id } : undefined });
  const more = records.length > pg.perPage;
  const page = records.slice(0, pg.perPage);
  const last = page[page.length - 1];
  const next = more && last ? nextPath(path, p, pg.page + 1, encodeCursor('l', last.lodged, last.id)) : null;
  return {
    data: page.map(item),
    meta: { pages: pagesMeta(pg, total, next), query: filterEcho(filter), order: 'lodgement_date desc, id desc', as_at: store.latestFetchedAt() },
  };
}

/** `GET /v1/das/nearby`: geocoded records within `radius_km` of lat/lng, nearest first, with `distance_km`. */
export function nearbyDas(store: DaReader, p: DaParams, path = '/v1/das/nearby'): DaDocument {
  for (const name of ['lat', 'lng']) if (!p.has(name)) throw invalidArgument(name, `${name} is required: pass both lat and lng (WGS84 degrees)`);
  const lat = decimal('lat', p.get('lat')!);
  const lng = decimal('lng', p.get('lng')!);
  if (lat < -90 || lat > 90) throw invalidArgument('lat', `lat must be from -90 to 90, got ${lat}`);
  if (lng < -180 || lng > 180) throw invalidArgument('lng', `lng must be from -180 to 180, got ${lng}`);
  let radiusKm: number = DA_LIMITS.radiusKm.default;
  if (p.has('radius_km')) {
    radiusKm = decimal('radius_km', p.get('radius_km')!);
    if (!(radiusKm > 0) || radiusKm > DA_LIMITS.radiusKm.max) throw invalidArgument('radius_km', `radius_km must be above 0 and at most ${DA_LIMITS.radiusKm.max}, got ${radiusKm}`);
  }
  const filter: DaNearbyFilter = {};
  if (p.has('category')) filter.category = category(p.get('category')!);
  since(p, filter);
  if (p.has('status_group')) filter.status_group = statusGroup(p.get('status_group')!);
  const pg = paging(p);
  const c = pg.cursor ? decodeCursor('n', pg.cursor) : null;
  // One more than a page tells whether a next page exists.
  const { total, hits } = store.nearbyPage(lng, lat, radiusKm * 1000, filter, { limit: pg.perPage + 1, offset: (pg.page - 1) * pg.perPage, after: c ? { distance: Number(c.key), id: c.id } : undefined });
  const pageHits = hits.slice(0, pg.perPage);
  const records = new Map(store.getMany(pageHits.map((h) => h.id)).map((r) => [r.id, r]));
  const data = pageHits.filter((h) => records.has(h.id)).map((h) => ({ ...daListingItem(records.get(h.id)!), distance_km: Math.round(h.distance) / 1000 }));
  const last = pageHits[pageHits.length - 1];
  const next = hits.length > pg.perPage && last ? nextPath(path, p, pg.page + 1, encodeCursor('n', last.distance, last.id)) : null;
  return {
    data,
    meta: { pages: pagesMeta(pg, total, next), query: filterEcho({ lat, lng, radius_km: radiusKm, ...filter }), order: 'distance asc, id asc', as_at: store.latestFetchedAt() },
  };
}

/** `GET /v1/das/{id}`: one record with every data point and its summary. */
export function getDa(store: DaReader, idText: string): DaDocument {
  if (!/^\d{1,15}$/.test(idText) || Number(idText) < 1) throw invalidArgument('id', `the DA id must be a positive whole number, got ${shown(idText)}`);
  const id = Number(idText);
  const r = store.get(id);
  if (!r) throw new EngineError('NOT_FOUND', `no development application has id ${id}`, { reason: 'da_not_found', id });
  return { data: daDetail(r) };
}

function stateFilter(p: DaParams): { state?: StateCode } {
  return p.has('state') ? { state: state(p.get('state')!) } : {};
}

/** `GET /v1/categories`: the 21 categories with their record counts (zero included). */
export function listCategories(store: DaReader, p: DaParams = new Map()): DaDocument {
  const f = stateFilter(p);
  const counts = store.categoryCounts(f);
  const data = DA_CATEGORIES.map((c: DaCategory) => ({ slug: c, name: CATEGORY_NAMES[c], count: counts[c] }));
  return { data, meta: { total: data.reduce((s, r) => s + r.count, 0), query: f, as_at: store.latestFetchedAt() } };
}

const pct = (n: number, of: number) => (of ? Math.round((1000 * n) / of) / 10 : 0);

/** `GET /v1/councils`: every council holding records, with its state, count, freshness and field coverage. */
export function listCouncils(store: DaReader, p: DaParams = new Map()): DaDocument {
  const f = stateFilter(p);
  const data = store.councils(f).map((c) => ({ name: c.name, state: c.state, count: c.count, last_updated: c.last_updated, geocoded_pct: pct(c.geocoded, c.count), status_present_pct: pct(c.status_present, c.count) }));
  return { data, meta: { total: data.length, query: f } };
}

/** `GET /v1/stats`: totals by state, category and status group, the lodgement date range and freshness. */
export function daStats(store: DaReader): DaDocument {
  const facets = store.facetCounts();
  const total = Object.values(facets.by_state).reduce((s, n) => s + n, 0);
  const councils = store.councils();
  const geocoded = councils.reduce((s, c) => s + c.geocoded, 0);
  const range = store.lodgedRange();
  return {
    data: {
      total,
      councils: councils.length,
      geocoded,
      geocoded_pct: pct(geocoded, total),
      residential: facets.residential,
      by_state: facets.by_state,
      by_category: store.categoryCounts(),
      by_status_group: facets.by_status_group,
      lodged: range,
      as_at: store.latestFetchedAt(),
    },
  };
}
