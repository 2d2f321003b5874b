/**
 * The DA listing's queries (spec sections 2.1, 2.2 and 4.1), typed: list, nearby, one record, categories,
 * councils and stats, as the data and paging the HTTP API, `propintel das` and MCP serve. Reading query
 * strings and flags, and writing the `next` links with their cursors, is the server's
 * (server/api/da-query.ts); a library caller passes values and gets values.
 *
 * Paging: `page` and `perPage` (default 20, at most 100), newest lodged first (ties: highest id first).
 * A page after a keyset position (`after`: the last record's lodgement date and id, or distance and id for
 * nearby) visits every record that matched when a client started exactly once, even while records are being
 * imported; a `page` asked for without one is found by position, stepping over index entries (never rows).
 * Values out of range are `INVALID_ARGUMENT` naming the parameter as the HTTP API spells it.
 */
import type { StateCode } from '../catalogue/states.js';
import { EngineError, invalidArgument } from '../errors.js';
import { CATEGORY_NAMES, DA_CATEGORIES, type DaCategory } from './categories.js';
import { daListingItem, type DaRecord } from './da-record.js';
import { daDetail } from './summary.js';
import type { DaFilter, DaNearbyFilter, DaReader } from './da-store.js';
import type { DaCouncilsResponse, DaDetailResponse, DaListResponse, DaNearbyResponse, DaStatsResponse } from './response-types.js';

/** Paging and radius limits (DESIGN.md). */
export const DA_LIMITS = {
  perPage: { default: 20, max: 100 },
  radiusKm: { default: 5, max: 50 },
} as const;

/** The highest page number asked for by position. */
export const DA_MAX_PAGE = 1_000_000_000;

/** A listing row (`/v1/das`'s `data[]`, typed from its schema). */
export type DaListingItem = DaListResponse['data'][number];
/** A nearby row: a listing row and its distance. */
export type DaNearbyItem = DaNearbyResponse['data'][number];

/** Which page. */
export interface DaPaging {
  /** 1-based (default 1). */
  page?: number;
  /** Default {@link DA_LIMITS}.perPage.default, at most its max. */
  perPage?: number;
}

/** A page of a list or nearby query. */
export interface DaPage<T, K> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
  /** The keyset position after this page's last record, when another page follows; else null. */
  next: K | null;
  /** The query as applied (filters without those left unset). */
  query: Record<string, unknown>;
  order: string;
  /** The latest `last_fetched_at` over all records. */
  asAt: string | null;
}

/** A position in the listing order. */
export interface DaListPosition {
  lodged: string;
  id: number;
}

/** A position in the nearby order. */
export interface DaNearbyPosition {
  distance: number;
  id: number;
}

function checkPaging(p: DaPaging): { page: number; perPage: number } {
  const page = p.page ?? 1;
  const perPage = p.perPage ?? DA_LIMITS.perPage.default;
  if (!Number.isSafeInteger(page) || page < 1 || page > DA_MAX_PAGE) throw invalidArgument('page', `page must be from 1 to ${DA_MAX_PAGE}, got ${page}`);
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > DA_LIMITS.perPage.max) throw invalidArgument('per_page', `per_page must be from 1 to ${DA_LIMITS.perPage.max}, got ${perPage}`);
  return { page, perPage };
}

const filterEcho = (f: object): Record<string, unknown> => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));

/**
 * Records matching `filter`, newest lodged first: the page after `after`, else page `page`. `item` makes
 * each row (default the listing's; the childcare feed adds its pipeline fields).
 */
export function listDas<T = DaListingItem>(store: DaReader, req: DaPaging & { filter?: DaFilter; after?: DaListPosition | null }, item: (r: DaRecord) => T = daListingItem as (r: DaRecord) => T): DaPage<T, DaListPosition> {
  const { page, perPage } = checkPaging(req);
  const filter = req.filter ?? {};
  const after = req.after ?? null;
  const total = store.count(filter);
  const offset = (page - 1) * perPage;
  // One more than a page tells whether a next page exists without trusting a count that imports may move.
  const records = !after && offset >= total ? [] : store.list(filter, { limit: perPage + 1, offset: after ? 0 : offset, after: after ?? undefined });
  const shown = records.slice(0, perPage);
  const last = shown[shown.length - 1];
  return {
    items: shown.map(item),
    page,
    perPage,
    total,
    next: records.length > perPage && last ? { lodged: last.lodged, id: last.id } : null,
    query: filterEcho(filter),
    order: 'lodgement_date desc, id desc',
    asAt: store.latestFetchedAt(),
  };
}

/** Geocoded records within `radiusKm` of lat/lng, nearest first, each with its `distance_km`. */
export function nearbyDas(store: DaReader, req: DaPaging & { lat: number; lng: number; radiusKm?: number; filter?: DaNearbyFilter; after?: DaNearbyPosition | null }): DaPage<DaNearbyItem, DaNearbyPosition> {
  const { lat, lng } = req;
  if (!(lat >= -90 && lat <= 90)) throw invalidArgument('lat', `lat must be from -90 to 90, got ${lat}`);
  if (!(lng >= -180 && lng <= 180)) throw invalidArgument('lng', `lng must be from -180 to 180, got ${lng}`);
  const radiusKm = req.radiusKm ?? DA_LIMITS.radiusKm.default;
  if (!(radiusKm > 0) || radiusKm > DA_LIMITS.radiusKm.max) throw invalidArgument('radius_km', `radius_km is out of range: it must be above 0 and at most ${DA_LIMITS.radiusKm.max}, got ${radiusKm}`);
  const { page, perPage } = checkPaging(req);
  const filter = req.filter ?? {};
  // One more than a page tells whether a next page exists.
  const { total, hits } = store.nearbyPage(lng, lat, radiusKm * 1000, filter, { limit: perPage + 1, offset: (page - 1) * perPage, after: req.after ?? undefined });
  const pageHits = hits.slice(0, perPage);
  const records = new Map(store.getMany(pageHits.map((h) => h.id)).map((r) => [r.id, r]));
  const items = pageHits.filter((h) => records.has(h.id)).map((h) => ({ ...daListingItem(records.get(h.id)!), distance_km: Math.round(h.distance) / 1000 }) as DaNearbyItem);
  const last = pageHits[pageHits.length - 1];
  return {
    items,
    page,
    perPage,
    total,
    next: hits.length > perPage && last ? { distance: last.distance, id: last.id } : null,
    query: filterEcho({ lat, lng, radius_km: radiusKm, ...filter }),
    order: 'distance asc, id asc',
    asAt: store.latestFetchedAt(),
  };
}

/** One record with every data point and its summary; `NOT_FOUND` when there is none. */
export function getDa(store: DaReader, id: number): DaDetailResponse['data'] {
  if (!Number.isSafeInteger(id) || id < 1) throw invalidArgument('id', `the DA id must be a positive whole number, got ${id}`);
  const r = store.get(id);
  if (!r) throw new EngineError('NOT_FOUND', `no development application has id ${id}`, { reason: 'da_not_found', id });
  return daDetail(r) as DaDetailResponse['data'];
}

/** The 21 categories with their record counts (zero included), optionally in one state. */
export function listCategories(store: DaReader, filter: { state?: StateCode } = {}): { items: { slug: DaCategory; name: string; count: number }[]; total: number; asAt: string | null } {
  const counts = store.categoryCounts(filter);
  const items = DA_CATEGORIES.map((c: DaCategory) => ({ slug: c, name: CATEGORY_NAMES[c], count: counts[c] }));
  return { items, total: items.reduce((s, r) => s + r.count, 0), asAt: store.latestFetchedAt() };
}

const pct = (n: number, of: number) => (of ? Math.round((1000 * n) / of) / 10 : 0);

/** Every council holding records, with its state, count, freshness and field coverage. */
export function listCouncils(store: DaReader, filter: { state?: StateCode } = {}): DaCouncilsResponse['data'] {
  return store.councils(filter).map((c) => ({ name: c.name, state: c.state, count: c.count, last_updated: c.last_updated, geocoded_pct: pct(c.geocoded, c.count), status_present_pct: pct(c.status_present, c.count) }));
}

/** Totals by state, category and status group, the lodgement date range and freshness. */
export function daStats(store: DaReader): DaStatsResponse['data'] {
  const facets = store.facetCounts();
  const total = Object.values(facets.by_state).reduce((s, n) => s + n, 0);
  const councils = store.councils();
  const geocoded = councils.reduce((s, c) => s + c.geocoded, 0);
  const range = store.lodgedRange();
  return {
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
  } as DaStatsResponse['data'];
}
