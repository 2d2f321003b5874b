/**
 * A development application as the store keeps it: the council's fields normalised, plus what the engine
 * derives from them (the classifier's categories, status group and decision, bands, land use, building and
 * application type). Rows come in three spellings, all accepted by {@link parseDaRows}:
 *
 * - ours (the sample world's `da-records.jsonl`): `council`, `council_reference`, `lodged`, `lat`/`lng`, ...;
 * - the listing's own names (so an export re-imports): `council_name`, `lodgement_date`, `latitude`, ...;
 * - PlanningAlerts' export: `authority` (a name, or `{ full_name }`), `council_reference`, `address` (with
 *   suburb, state and postcode at its end), `description`, `date_received`, `date_scraped`, `info_url`,
 *   optional `lat`/`lng` and `on_notice_from`/`on_notice_to`. Its `id` is PlanningAlerts' own and is ignored.
 *
 * A record without coordinates is kept (about 4% of the original's are not geocoded): it is listed and
 * counted, never placed in radius results.
 */
import { STATES, type StateCode } from '../catalogue/states.js';
import { EngineError } from '../errors.js';
import { costBand, estimatedValueBand, residentialFlag } from './bands.js';
import { CATEGORY_NAMES, type DaCategory } from './categories.js';
import { classifyDa } from './classify.js';
import { applicationType, buildingType, landUse, type ApplicationType, type LandUse } from './derived-fields.js';
import { classifyStatus, type DecisionStatus, type StatusGroup } from './status-rules.js';

/** One DA record. */
export interface DaRecord {
  id: number;
  /** The council's reference; with `council`, the record's identity (imports upsert on the pair). */
  ref: string;
  council: string;
  /** The street address (number and street), without suburb, state and postcode. */
  address: string;
  suburb: string;
  state: StateCode;
  postcode: string | null;
  description: string;
  /** The council's status text, as published ('' when it publishes none). */
  status: string;
  status_group: StatusGroup;
  decision_status: DecisionStatus | null;
  /** YYYY-MM-DD. */
  lodged: string;
  decided: string | null;
  /** Dollars, as published (null when not published). */
  cost: number | null;
  dwellings: number | null;
  storeys: number | null;
  lots: number | null;
  applicant: string | null;
  public_notice_from: string | null;
  public_notice_to: string | null;
  /** WGS84; both null when the record is not geocoded. */
  lat: number | null;
  lng: number | null;
  council_url: string;
  council_url_type: 'application_record' | 'search_entry';
  /** ISO timestamp of the fetch that last saw the record. */
  last_fetched_at: string;
  observed_at: string | null;
  source: string;
  category: DaCategory;
  categories: DaCategory[];
  residential: boolean;
  cost_band: string | null;
  estimated_value_band: string;
  land_use: LandUse | null;
  building_type: string | null;
  application_type: ApplicationType;
}

/** A record before the store has given it an id (`id` is the id the row asked for, kept when free). */
export type DaDraft = Omit<DaRecord, 'id'> & { id: number | null };

/** A row that could not be read, and why. */
export interface RejectedRow {
  /** 1-based data row. */
  row: number;
  /** The file line the row starts on, when known. */
  line?: number;
  reason: string;
}

/** Options of {@link parseDaRows}. */
export interface ParseDaRowsOptions {
  /** The time used for `last_fetched_at` when a row has none (default now). */
  now?: Date;
  /** Refuse rows without an integer `id` (the dataset format; default false). */
  requireId?: boolean;
  /** The file line of each row (RecordSet.lines), for messages. */
  lines?: readonly number[];
}

const ALIASES: Record<string, readonly string[]> = {
  council: ['council', 'council_name', 'authority'],
  ref: ['council_reference', 'ref'],
  suburb: ['suburb', 'address_suburb'],
  postcode: ['postcode', 'address_postcode'],
  lodged: ['lodged', 'lodgement_date', 'date_received'],
  decided: ['decided', 'decision_date'],
  cost: ['cost', 'cost_of_development'],
  dwellings: ['dwellings', 'number_of_dwellings'],
  lots: ['lots', 'lot_count'],
  applicant: ['applicant', 'applicant_name'],
  public_notice_from: ['public_notice_from', 'on_notice_from'],
  public_notice_to: ['public_notice_to', 'on_notice_to'],
  lat: ['lat', 'latitude'],
  lng: ['lng', 'lon', 'longitude'],
  council_url: ['council_url', 'info_url'],
  council_url_type: ['council_url_type', 'info_url_type'],
  last_fetched_at: ['last_fetched_at', 'date_fetched', 'date_scraped'],
  source: ['source', 'data_source'],
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? '' : String(v).trim());
const shown = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}...` : s;
};

const STATE_TAIL = new RegExp(`^(.*?)[\\s,]+(${STATES.join('|')})\\s+(\\d{4})\\s*$`, 'i');

/** Title case for an upper-case suburb ("MARSDEN PARK" -> "Marsden Park"); other text is left as written. */
function suburbCase(s: string): string {
  if (s !== s.toUpperCase()) return s;
  return s.toLowerCase().replace(/(^|[\s'-])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase()).replace(/\bMc([a-z])/g, (_, c: string) => `Mc${c.toUpperCase()}`);
}

/**
 * Splits a one-line Australian address ("591 Carlisle Avenue MINCHINBURY NSW 2770", "12 Smith St, Fitzroy VIC
 * 3065") into street, suburb, state and postcode, or null when it does not end with a state and postcode.
 * Without a comma the suburb is the trailing run of upper-case words (PlanningAlerts' council feeds write
 * suburbs in capitals), else the last word.
 */
export function splitAddress(full: string): { street: string; suburb: string; state: StateCode; postcode: string } | null {
  const m = STATE_TAIL.exec(full.trim());
  if (!m) return null;
  const head = m[1].trim();
  const state = m[2].toUpperCase() as StateCode;
  let street = head, suburb = '';
  const comma = head.lastIndexOf(',');
  if (comma >= 0) {
    street = head.slice(0, comma).trim();
    suburb = head.slice(comma + 1).trim();
  } else {
    const words = head.split(/\s+/);
    let i = words.length;
    while (i > 0 && /^[A-Z][A-Z'.-]*$/.test(words[i - 1]) && !/^\d/.test(words[i - 1])) i--;
    if (i === words.length) i = words.length - 1;
    if (i === 0 && words.length > 1) i = 1;
    street = words.slice(0, i).join(' ');
    suburb = words.slice(i).join(' ');
  }
  return { street, suburb: suburbCase(suburb), state, postcode: m[3] };
}

function timestamp(v: string): string | null {
  if (isIsoDate(v)) return `${v}T00:00:00Z`;
  return /^\d{4}-\d{2}-\d{2}T/.test(v) && Number.isFinite(Date.parse(v)) ? v : null;
}

/** Reads one row into a draft, or the reasons it cannot be read. */
function draftOf(raw: Record<string, unknown>, source: string, options: ParseDaRowsOptions): DaDraft | string[] {
  const pick = (name: string): unknown => {
    for (const k of ALIASES[name] ?? [name]) if (raw[k] !== undefined && raw[k] !== null && raw[k] !== '') return raw[k];
    return undefined;
  };
  const text = (name: string) => str(pick(name));
  const optText = (name: string) => text(name) || null;
  const bad: string[] = [];
  const planningAlerts = raw.lodged === undefined && raw.lodgement_date === undefined && (raw.authority !== undefined || raw.date_received !== undefined);

  const authority = raw.authority;
  const council = authority && typeof authority === 'object' ? str((authority as Record<string, unknown>).full_name ?? (authority as Record<string, unknown>).short_name) : text('council');
  if (!council) bad.push(`council is empty (columns ${ALIASES.council.join(', ')})`);
  const ref = text('ref');
  if (!ref) bad.push('council_reference is empty');
  // A council may publish no description: the record is still a record (classified `other`, its summary
  // says none was given).
  const description = text('description');

  let address = text('address');
  let suburb = text('suburb');
  let postcode = optText('postcode');
  let stateText = text('state').toUpperCase();
  const split = splitAddress(address);
  if (split && (planningAlerts || !suburb)) {
    address = split.street;
    suburb ||= split.suburb;
    postcode ??= split.postcode;
    stateText ||= split.state;
  }
  if (!stateText) bad.push('state is missing: no state column, and the address does not end with a state and postcode');
  else if (!(STATES as readonly string[]).includes(stateText)) bad.push(`state ${shown(raw.state ?? stateText)} is not a state code (${STATES.join(', ')})`);
  if (postcode !== null && !/^\d{4}$/.test(postcode)) bad.push(`postcode ${shown(postcode)} is not four digits`);

  const lodged = text('lodged');
  if (!isIsoDate(lodged)) bad.push(`lodged ${shown(pick('lodged') ?? '')} is not a date as YYYY-MM-DD (columns ${ALIASES.lodged.join(', ')})`);
  const date = (name: string) => {
    const v = optText(name);
    if (v !== null && !isIsoDate(v)) bad.push(`${name} ${shown(v)} is not a date as YYYY-MM-DD`);
    return v;
  };
  const decided = date('decided');
  const noticeFrom = date('public_notice_from');
  const noticeTo = date('public_notice_to');
  if (noticeFrom && noticeTo && noticeTo < noticeFrom) bad.push(`public notice ends (${noticeTo}) before it starts (${noticeFrom})`);

  const num = (name: string, integer: boolean) => {
    const v = pick(name);
    if (v === undefined) return null;
    const n = typeof v === 'number' ? v : Number(str(v).replace(/^\$/, '').replace(/,/g, ''));
    if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
      bad.push(`${name} ${shown(v)} is not ${integer ? 'a whole number' : 'a number'} of at least 0`);
      return null;
    }
    return n;
  };
  const cost = num('cost', false);
  const dwellings = num('dwellings', true);
  const storeys = num('storeys', true);
  const lots = num('lots', true);

  const latRaw = pick('lat'), lngRaw = pick('lng');
  let lat: number | null = null, lng: number | null = null;
  if (latRaw !== undefined || lngRaw !== undefined) {
    lat = Number(latRaw);
    lng = Number(lngRaw);
    if (latRaw === undefined || lngRaw === undefined || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      bad.push(`lat/lng (${shown(latRaw ?? '')}, ${shown(lngRaw ?? '')}) is not a coordinate: give both, or neither for a record that is not geocoded`);
    }
  }

  const councilUrl = text('council_url');
  let urlType = text('council_url_type');
  if (!urlType) urlType = councilUrl && (planningAlerts || councilUrl.includes(encodeURIComponent(ref)) || (ref && councilUrl.includes(ref))) ? 'application_record' : 'search_entry';
  if (urlType !== 'application_record' && urlType !== 'search_entry') bad.push(`council_url_type ${shown(urlType)} is not application_record or search_entry`);

  const fetchedText = text('last_fetched_at');
  const fetched = fetchedText ? timestamp(fetchedText) : (options.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (!fetched) bad.push(`last_fetched_at ${shown(fetchedText)} is not a date or an ISO timestamp`);
  const observedText = text('observed_at');
  const observed = observedText ? timestamp(observedText) : null;
  if (observedText && !observed) bad.push(`observed_at ${shown(observedText)} is not a date or an ISO timestamp`);

  let id: number | null = null;
  if (!planningAlerts && raw.id !== undefined && raw.id !== '') {
    id = Number(raw.id);
    if (!Number.isSafeInteger(id) || id < 1) {
      bad.push(`id ${shown(raw.id)} is not a positive whole number`);
      id = null;
    }
  }
  if (options.requireId && id === null && !bad.some((b) => b.startsWith('id '))) bad.push(`id ${shown(raw.id ?? '')} is not a positive whole number`);
  if (bad.length) return bad;

  const status = text('status');
  const statusClass = classifyStatus(status);
  const { category, categories } = classifyDa(description);
  return {
    id, ref, council, address, suburb, state: stateText as StateCode, postcode, description, status, status_group: statusClass.status_group,
    decision_status: statusClass.decision_status, lodged, decided, cost, dwellings, storeys, lots, applicant: optText('applicant'),
    public_notice_from: noticeFrom, public_notice_to: noticeTo, lat, lng, council_url: councilUrl, council_url_type: urlType as DaRecord['council_url_type'],
    last_fetched_at: fetched!, observed_at: observed, source: text('source') || source, category, categories, residential: residentialFlag(categories),
    cost_band: costBand(cost), estimated_value_band: estimatedValueBand({ category, cost, dwellings }), land_use: landUse(category, description),
    building_type: buildingType(category, description), application_type: applicationType(ref, description),
  };
}

/** Reads rows into drafts; every unreadable row is returned in `rejected` with its reasons. */
export function parseDaRows(rows: readonly Record<string, unknown>[], source: string, options: ParseDaRowsOptions = {}): { drafts: DaDraft[]; rows: number[]; rejected: RejectedRow[] } {
  const drafts: DaDraft[] = [];
  const kept: number[] = [];
  const rejected: RejectedRow[] = [];
  const seen = new Map<string, number>();
  rows.forEach((raw, i) => {
    const row = i + 1;
    const line = options.lines?.[i];
    const d = draftOf(raw, source, options);
    if (Array.isArray(d)) {
      rejected.push({ row, ...(line !== undefined ? { line } : {}), reason: d.join('; ') });
      return;
    }
    const key = `${d.state}\u0000${d.council.toLowerCase()}\u0000${d.ref}`;
    const first = seen.get(key);
    if (first !== undefined) {
      rejected.push({ row, ...(line !== undefined ? { line } : {}), reason: `council ${JSON.stringify(d.council)} reference ${JSON.stringify(d.ref)} repeats row ${first}` });
      return;
    }
    seen.set(key, row);
    drafts.push(d);
    kept.push(row);
  });
  return { drafts, rows: kept, rejected };
}

/** DA records from rows of the dataset format (ids required); every bad row reported at once (INVALID_DATA). */
export function daRecordsFromRows(rows: readonly Record<string, unknown>[], source: string): DaRecord[] {
  const { drafts, rejected } = parseDaRows(rows, source, { requireId: true });
  if (rejected.length) {
    const problems = rejected.map((r) => `row ${r.row}: ${r.reason}`);
    throw new EngineError('INVALID_DATA', `${source}: ${rejected.length} bad DA row(s):\n  ${problems.slice(0, 20).join('\n  ')}`, { source, problems });
  }
  return drafts as DaRecord[];
}

/** The property payload's DA item (property spec 2.3) of a geocoded record at `distanceM` from the subject (0 on the parcel). */
export function daItem(r: DaRecord, distanceM: number): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: r.id, ref: r.ref, address: r.address, suburb: r.suburb, state: r.state, council: r.council, description: r.description,
    categories: r.categories, category: r.category, status: r.status, lodged: r.lodged, lat: r.lat, lng: r.lng,
    distance_km: Math.round(distanceM) / 1000, residential: r.residential,
  };
  if (r.cost !== null && r.cost > 0) item.cost = r.cost;
  item.cost_band = r.cost_band;
  item.estimated_value_band = r.estimated_value_band;
  item.council_url = r.council_url;
  item.council_url_type = r.council_url_type;
  item.last_fetched_at = r.last_fetched_at;
  return item;
}

/**
 * A record as the DA listing delivers it (`/v1/das`, `/v1/das/nearby`). The names follow the original
 * service's published SQL columns (address_suburb, council_name, trade_category, lodgement_date, ...), so the
 * listing, the SQL table and an export that re-imports all speak one vocabulary. The 18 data points of spec
 * 2.1, in these names: address and description; council_name; lodgement_date; info_url; on_notice_from and
 * on_notice_to; trade_category; land_use; building_type; lot_count; number_of_dwellings; storeys;
 * is_residential; cost_of_development; applicant_name; decision_date and decision_status; latitude and
 * longitude; summary (single record only); value_band.
 */
export function daListingItem(r: DaRecord): Record<string, unknown> {
  return {
    id: r.id,
    council_reference: r.ref,
    council_name: r.council,
    state: r.state,
    address: r.address,
    address_suburb: r.suburb,
    address_postcode: r.postcode,
    description: r.description,
    trade_category: r.category,
    trade_category_name: CATEGORY_NAMES[r.category],
    categories: r.categories,
    sub_category: r.categories[1] ?? null,
    application_type: r.application_type,
    land_use: r.land_use,
    building_type: r.building_type,
    is_residential: r.residential,
    lodgement_date: r.lodged,
    status: r.status,
    status_group: r.status_group,
    decision_date: r.decided,
    decision_status: r.decision_status,
    on_notice_from: r.public_notice_from,
    on_notice_to: r.public_notice_to,
    cost_of_development: r.cost,
    value_band: r.estimated_value_band,
    value_band_basis: r.cost_band ? 'published_cost' : r.estimated_value_band === 'unknown' ? 'none' : 'typical_cost_for_category',
    number_of_dwellings: r.dwellings,
    lot_count: r.lots,
    storeys: r.storeys,
    applicant_name: r.applicant,
    latitude: r.lat,
    longitude: r.lng,
    geocoded: r.lat !== null,
    info_url: r.council_url,
    info_url_type: r.council_url_type,
    data_source: r.source,
    date_fetched: r.last_fetched_at,
    observed_at: r.observed_at,
  };
}
