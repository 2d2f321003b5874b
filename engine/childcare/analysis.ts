/**
 * Childcare market intelligence (spec 1, 2.3, 4.2): the childcare subset of the DA store as a pipeline
 * feed item, and the analysis `data` object for a state scope or a catchment (a circle or a polygon).
 *
 * Counts (headline, trend, breakdowns, coverage) always use every entitled record in scope; `featureLimit`
 * only limits the map features in `geojson` (`coverage.geojson_truncated` says when it did). Records without
 * coordinates count in a state scope but can never be inside a catchment.
 *
 * Stage and works type come from council wording by the documented rule tables: the stage from the status
 * (engine/da/status-rules.ts: withdrawn, lapsed -> unknown, refused, approved, advertised, assessment ->
 * under_assessment, anything else unknown), the works type from the description (engine/da/childcare.ts).
 */
import { booleanPointInPolygon } from '@turf/turf';
import type { Polygon } from 'geojson';
import type { StateCode } from '../catalogue/states.js';
import { CHILDCARE_STAGES, CHILDCARE_WORKS_TYPES, type ChildcareStage } from '../da/categories.js';
import { childcarePipelineStage, childcareWorksType } from '../da/childcare.js';
import { daListingItem, type DaRecord } from '../da/da-record.js';
import type { DaFilter, DaReader } from '../da/da-store.js';
import { distanceMetres, metresPerDegree } from '../geo/distance.js';

export const PRODUCT = 'childcare_market_intelligence';
export const PRODUCT_VERSION = 'v1';

/** The spec's data-boundary statements, carried by every childcare response. */
export const DATA_BOUNDARIES: readonly string[] = [
  'Council coverage and freshness vary; the coverage block states them for this response.',
  'Demand signals are planning inputs (development applications lodged), not utilisation or financial forecasts.',
  'National childcare-register service, approved-place and quality-rating data is unavailable pending commercial redistribution permission; available=false does not mean zero local services.',
  'Counts describe the tracked development pipeline at the snapshot date; they are not operating-centre counts.',
  'Status values are council-published text at the time they were observed, not a live council-status guarantee; use observed_at when reconciling.',
];

/** A catchment: a circle, or a polygon (GeoJSON, lon/lat, holes allowed). */
export type Catchment = { kind: 'circle'; lat: number; lng: number; radius_km: number } | { kind: 'polygon'; polygon: Polygon };

/** The attribution and licence of one data source, as the catalogue states them. */
export interface SourceNotice {
  source: string;
  attribution: string;
  licence: string;
}

/**
 * The notices of the DA records used: each record's data source as the catalogue states it (falling back to
 * the sources feeding development_applications when a record names none the catalogue knows).
 */
export type NoticeLookup = (sources: readonly string[]) => SourceNotice[];

/** A notice lookup without a catalogue: the council registers, under each council's terms. */
export const GENERIC_NOTICES: NoticeLookup = (sources) =>
  (sources.length ? sources : ['development applications']).map((s) => ({ source: s, attribution: `Development application records (${s}): council planning registers, as published by each council.`, licence: 'Each council\'s own terms of publication.' }));

/** What to analyse. */
export interface ChildcareScope {
  /** The states in scope (the request's state, within the key's entitlement). */
  states: readonly StateCode[];
  /** Lodged on or after (YYYY-MM-DD). */
  since?: string;
  /** A catchment, for a site analysis. */
  catchment?: Catchment;
  /** Map features at most (default 500). */
  featureLimit?: number;
  /** Attribution and licence of the sources used (default {@link GENERIC_NOTICES}). */
  notices?: NoticeLookup;
}

/** An open-school point as the childcare service delivers it: no identifier, enrolment or year range. */
export interface OpenSchool {
  name: string;
  school_type: string | null;
  school_sector: string | null;
  lng: number;
  lat: number;
  /** The publisher's attribution. */
  attribution: string;
}

/** States whose open-school points the service covers (spec 1); TAS and NT are an explicit coverage gap. */
export const SCHOOL_STATES: readonly StateCode[] = ['VIC', 'NSW', 'QLD', 'WA', 'SA', 'ACT'];

/**
 * The open-school section of a site analysis: the points inside the catchment, or the coverage gap said
 * plainly (TAS and NT always; any state whose schools this dataset lacks).
 */
export function schoolsSection(state: StateCode, catchment: Catchment, schools: readonly OpenSchool[] | null): Record<string, unknown> {
  if (!SCHOOL_STATES.includes(state)) return { available: false, reason: 'coverage_gap', note: `Open-school points are not covered in ${state} (TAS and NT are a coverage gap); available=false does not mean there are no schools.`, features: null };
  if (!schools) return { available: false, reason: 'not_held', note: `This dataset holds no open-school points for ${state}.`, features: null };
  const test = catchmentTest(catchment);
  const inside = schools.filter((s) => test(s.lng, s.lat));
  return {
    available: true,
    count: inside.length,
    note: 'Open-school locations from each state publisher, subject to its sector coverage; no school identifier, enrolment, staffing or year-range data is delivered.',
    attribution: [...new Set(inside.map((s) => s.attribution))].sort(),
    features: { type: 'FeatureCollection', features: inside.map((s) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [s.lng, s.lat] }, properties: { name: s.name, school_type: s.school_type, school_sector: s.school_sector } })) },
  };
}

/** A feed row: the DA fields and the childcare pipeline fields. */
export function childcareFeedItem(r: DaRecord): Record<string, unknown> {
  return {
    ...daListingItem(r),
    childcare_pipeline_stage: childcarePipelineStage(r.status),
    childcare_works_type: childcareWorksType(r.description),
    observed_at: r.observed_at ?? r.last_fetched_at,
  };
}

/** One breakdown row. */
export interface BreakdownRow {
  key: string;
  count: number;
  share: number;
  state?: string;
}

const share = (n: number, total: number) => (total ? Math.round((n / total) * 10_000) / 10_000 : 0);
const pct = (n: number, total: number) => (total ? Math.round((n / total) * 1000) / 10 : 0);

/** Text order by UTF-16 code units: stable across locales and far cheaper than localeCompare in a big sort. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows of a count map, largest first (ties by key); each of `complete` present, zero when not counted. */
function breakdown(counts: ReadonlyMap<string, number>, total: number, complete?: readonly string[]): BreakdownRow[] {
  const all = new Map<string, number>();
  for (const k of complete ?? []) all.set(k, 0);
  for (const [k, n] of counts) all.set(k, n);
  return [...all].map(([key, count]) => ({ key, count, share: share(count, total) })).sort((a, b) => b.count - a.count || byText(a.key, b.key));
}

/**
 * What the analysis derives from one record, worked out once per record object (the store keeps the objects
 * between requests): the pipeline stage and works type, and the keys it counts by (the same string objects
 * every time, so map lookups hash them once).
 */
interface Derived {
  stage: ChildcareStage;
  works: string;
  council: string;
  suburb: string;
  councilKey: string;
  month: string;
  located: boolean;
  hasRef: boolean;
  hasStatus: boolean;
}
const derivedOf = new WeakMap<DaRecord, Derived>();
function derived(r: DaRecord): Derived {
  let d = derivedOf.get(r);
  if (!d) {
    d = {
      stage: childcarePipelineStage(r.status),
      works: childcareWorksType(r.description),
      council: `${r.council} (${r.state})`,
      suburb: `${r.suburb} (${r.state})`,
      councilKey: `${r.state}\u0000${r.council.toLowerCase()}`,
      month: r.lodged.slice(0, 7),
      located: r.lat !== null,
      hasRef: r.ref.trim() !== '',
      hasStatus: r.status.trim() !== '',
    };
    derivedOf.set(r, d);
  }
  return d;
}

/** Months `YYYY-MM` from `first` to `last`, every one. */
export function monthsBetween(first: string, last: string): string[] {
  const out: string[] = [];
  let [y, m] = first.split('-').map(Number);
  const [ly, lm] = last.split('-').map(Number);
  while (y < ly || (y === ly && m <= lm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m++;
    if (m > 12) (m = 1), y++;
  }
  return out;
}

/** The lon/lat box of a catchment. */
function catchmentBox(c: Catchment): [number, number, number, number] {
  if (c.kind === 'circle') {
    // A degree of latitude is 110.57 to 111.69 km; the box takes the shortest and 1% more, so it always
    // holds the circle (the exact distance test follows).
    const dLat = (1.01 * c.radius_km) / 110.57;
    const dLng = (1.01 * c.radius_km) / (111.32 * Math.max(0.01, Math.cos(((Math.abs(c.lat) + dLat) * Math.PI) / 180)));
    return [c.lng - dLng, c.lat - dLat, c.lng + dLng, c.lat + dLat];
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of c.polygon.coordinates[0]) {
    if (x < x0) x0 = x;
    if (y < y0) y0 = y;
    if (x > x1) x1 = x;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

/**
 * A point-in-polygon test prepared once for many points: the edges of every ring bucketed into horizontal
 * strips, and the even-odd rule over the edges of the point's strip only (so a hole, being crossed as well,
 * excludes its inside). A 5,000-vertex catchment tested against 10^5 points costs a few edges per point
 * instead of all 5,000.
 */
export function preparedPolygon(polygon: Polygon): (lng: number, lat: number) => boolean {
  const xs: number[] = [], ys: number[] = [];
  let y0 = Infinity, y1 = -Infinity, x0 = Infinity, x1 = -Infinity;
  for (const ring of polygon.coordinates) {
    for (let k = 0; k + 1 < ring.length; k++) {
      xs.push(ring[k][0], ring[k + 1][0]);
      ys.push(ring[k][1], ring[k + 1][1]);
    }
    for (const [x, y] of ring) (y0 = Math.min(y0, y)), (y1 = Math.max(y1, y)), (x0 = Math.min(x0, x)), (x1 = Math.max(x1, x));
  }
  const edges = xs.length / 2;
  const strips = Math.max(1, Math.min(4096, Math.ceil(edges / 4)));
  const h = (y1 - y0) / strips || 1;
  const buckets: number[][] = Array.from({ length: strips }, () => []);
  for (let e = 0; e < edges; e++) {
    const lo = Math.min(ys[2 * e], ys[2 * e + 1]), hi = Math.max(ys[2 * e], ys[2 * e + 1]);
    const a = Math.max(0, Math.floor((lo - y0) / h)), b = Math.min(strips - 1, Math.floor((hi - y0) / h));
    for (let s = a; s <= b; s++) buckets[s].push(e);
  }
  return (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const bucket = buckets[Math.min(strips - 1, Math.floor((y - y0) / h))];
    let inside = false;
    for (const e of bucket) {
      const xa = xs[2 * e], ya = ys[2 * e], xb = xs[2 * e + 1], yb = ys[2 * e + 1];
      if (ya > y !== yb > y && x < ((xb - xa) * (y - ya)) / (yb - ya) + xa) inside = !inside;
    }
    return inside;
  };
}

/** Whether a point is in the catchment (a polygon's holes excluded). */
export function inCatchment(c: Catchment, lng: number, lat: number): boolean {
  if (c.kind === 'circle') return distanceMetres(c.lng, c.lat, lng, lat) <= c.radius_km * 1000;
  return booleanPointInPolygon([lng, lat], c.polygon);
}

/** A membership test for many points of one catchment. */
function catchmentTest(c: Catchment): (lng: number, lat: number) => boolean {
  if (c.kind === 'polygon') return preparedPolygon(c.polygon);
  // The flat-earth scale at the centre decides every point clearly inside or outside (the exact distance's
  // scale, at the pair's mean latitude, differs by well under 1% within 30 km); the exact test settles the
  // points near the edge, so the answer is the same as inCatchment's for every point.
  const { kx, ky } = metresPerDegree(c.lat);
  const r = c.radius_km * 1000, lo = (0.99 * r) ** 2, hi = (1.01 * r) ** 2;
  return (lng, lat) => {
    const dx = (lng - c.lng) * kx, dy = (lat - c.lat) * ky, d2 = dx * dx + dy * dy;
    return d2 <= lo ? true : d2 > hi ? false : inCatchment(c, lng, lat);
  };
}

/** The analysis `data` object (spec 2.3) of the childcare records in `scope`. */
export function childcareAnalysis(das: DaReader, scope: ChildcareScope): Record<string, unknown> {
  const c = scope.catchment;
  const inside = c ? catchmentTest(c) : null;
  // The category's records come from the store's in-memory copy; a catchment's from the radius index,
  // which also sums its demand signals, without reading a row.
  const all = das.categoryRecords('childcare');
  let records: DaRecord[];
  let area: { n: number; subdivisions: number; lots: number; dwellings: number } | null = null;
  if (c) {
    const box = catchmentBox(c);
    const kept = new Set<number>();
    area = { n: 0, subdivisions: 0, lots: 0, dwellings: 0 };
    for (const st of scope.states) {
      const a = das.area(st, box, inside!, { since: scope.since, keep: 'childcare' });
      for (const id of a.kept) kept.add(id);
      area.n += a.n, area.subdivisions += a.subdivisions, area.lots += a.lots, area.dwellings += a.dwellings;
    }
    records = all.filter((r) => kept.has(r.id));
  } else {
    const states = new Set(scope.states);
    records = all.filter((r) => states.has(r.state) && (!scope.since || r.lodged >= scope.since));
  }
  const total = records.length;
  // One pass over the records: every count the sections need.
  const stageCount = new Map<string, number>(), worksCount = new Map<string, number>(), stateCount = new Map<string, number>();
  const councilCount = new Map<string, number>(), suburbCount = new Map<string, number>(), byMonth = new Map<string, number>();
  const councils = new Map<string, { council: string; state: string; records: number; geocoded: number; status_present: number; last_updated: string }>();
  const perState = new Map<string, { records: number; geocoded: number; last: string }>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let geocoded = 0, withRef = 0, withStatus = 0, firstMonth = '9999-99', lastMonth = '', latest = '';
  for (const r of records) {
    const d = derived(r);
    bump(stageCount, d.stage);
    bump(worksCount, d.works);
    bump(stateCount, r.state);
    bump(councilCount, d.council);
    bump(suburbCount, d.suburb);
    const month = d.month;
    bump(byMonth, month);
    if (month < firstMonth) firstMonth = month;
    if (month > lastMonth) lastMonth = month;
    const located = d.located;
    if (located) geocoded++;
    if (d.hasRef) withRef++;
    if (d.hasStatus) withStatus++;
    if (r.last_fetched_at > latest) latest = r.last_fetched_at;
    let e = councils.get(d.councilKey);
    if (!e) councils.set(d.councilKey, (e = { council: r.council, state: r.state, records: 0, geocoded: 0, status_present: 0, last_updated: '' }));
    e.records++;
    if (located) e.geocoded++;
    if (r.status) e.status_present++;
    if (r.last_fetched_at > e.last_updated) e.last_updated = r.last_fetched_at;
    let st = perState.get(r.state);
    if (!st) perState.set(r.state, (st = { records: 0, geocoded: 0, last: '' }));
    st.records++;
    if (located) st.geocoded++;
    if (r.last_fetched_at > st.last) st.last = r.last_fetched_at;
  }
  const count = (s: ChildcareStage) => stageCount.get(s) ?? 0;

  // Trend: every month from the first lodgement (or `since`) to the last, zero months included.
  const asAt = das.latestFetchedAt();
  const trend = total ? monthsBetween(scope.since ? scope.since.slice(0, 7) : firstMonth, lastMonth).map((month) => ({ month, total: byMonth.get(month) ?? 0 })) : [];

  // Coverage, per state.
  const councilsPerState = new Map<string, number>();
  for (const e of councils.values()) bump(councilsPerState, e.state);
  const stateRows = scope.states.map((s) => {
    const st = perState.get(s);
    return { state: s, records: st?.records ?? 0, councils: councilsPerState.get(s) ?? 0, geocoded_pct: pct(st?.geocoded ?? 0, st?.records ?? 0), last_updated: st?.last || null };
  });

  // Demand signals: all development in the same scope and period.
  const allFilter: DaFilter = { states: scope.states };
  if (scope.since) allFilter.since = scope.since;
  const demand = area ? { all_development: area.n, subdivisions: area.subdivisions, lots: area.lots, dwellings: area.dwellings } : das.developmentTotals(allFilter);

  // Map features: newest lodged first, at most featureLimit.
  const limit = scope.featureLimit ?? 500;
  const mappable = records.filter((r) => r.lat !== null && r.lng !== null);
  const features = mappable.slice(0, limit).map((r, i) => ({
    type: 'Feature' as const,
    geometry: { type: 'Point' as const, coordinates: [r.lng!, r.lat!] },
    properties: {
      id: r.id,
      council_reference: r.ref,
      council_name: r.council,
      state: r.state,
      address: r.address,
      lodgement_date: r.lodged,
      status: r.status,
      council_url: r.council_url,
      council_url_type: r.council_url_type,
      childcare_pipeline_stage: derived(r).stage,
      childcare_works_type: derived(r).works,
      rank: i + 1,
    },
  }));

  // Every source the answer used: the childcare records' and, through the demand signals, the DA sources'.
  const sources = [...new Set(records.map((r) => r.source))].sort();
  const notices = (scope.notices ?? GENERIC_NOTICES)(sources);
  return {
    scope: {
      product: PRODUCT,
      version: PRODUCT_VERSION,
      states: scope.states,
      since: scope.since ?? null,
      catchment: c ? (c.kind === 'circle' ? { type: 'circle', lat: c.lat, lng: c.lng, radius_km: c.radius_km } : { type: 'polygon', rings: c.polygon.coordinates.length, vertices: c.polygon.coordinates.reduce((n, ring) => n + ring.length - 1, 0) }) : null,
      as_at: asAt,
    },
    headline: { total, under_assessment: count('under_assessment'), advertised: count('advertised'), approved: count('approved'), refused: count('refused') },
    trend,
    breakdowns: {
      stage: breakdown(stageCount, total, CHILDCARE_STAGES),
      works_type: breakdown(worksCount, total, CHILDCARE_WORKS_TYPES),
      state: breakdown(stateCount, total, scope.states),
      council: breakdown(councilCount, total),
      suburb: breakdown(suburbCount, total),
    },
    coverage: {
      records: total,
      geocoded_pct: pct(geocoded, total),
      council_reference_pct: pct(withRef, total),
      status_present_pct: pct(withStatus, total),
      geojson_truncated: mappable.length > features.length,
      freshness: { latest_fetched: latest || null, store_as_at: asAt },
      states: stateRows,
      councils: [...councils.values()].map((e) => ({ council: e.council, state: e.state, records: e.records, geocoded_pct: pct(e.geocoded, e.records), status_present_pct: pct(e.status_present, e.records), last_updated: e.last_updated })).sort((a, b) => b.records - a.records || byText(a.council, b.council)),
    },
    demand_signals: { ...demand, scope: c ? 'catchment' : 'state', note: DATA_BOUNDARIES[1] },
    geojson: { type: 'FeatureCollection', crs_note: 'EPSG:4326, [longitude, latitude]', features, total_features: mappable.length, truncated: mappable.length > features.length },
    notices: {
      attribution: notices.map((n) => n.attribution),
      licences: notices.map((n) => ({ source: n.source, licence: n.licence })),
      keep: 'Keep these attribution and licence notices with any output shown to customers.',
      data_boundaries: DATA_BOUNDARIES,
    },
  };
}
