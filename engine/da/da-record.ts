/**
 * A development application as the store keeps it: the council's fields normalised, plus the classifier's
 * categories and bands. `daItem` gives the spec 2.3 item.
 */
import { STATES, type StateCode } from '../catalogue/states.js';
import { EngineError } from '../errors.js';
import { costBand, estimatedValueBand, residentialFlag } from './bands.js';
import type { DaCategory } from './categories.js';
import { classifyDa } from './classify.js';

/** One DA record. */
export interface DaRecord {
  id: number;
  ref: string;
  council: string;
  address: string;
  suburb: string;
  state: StateCode;
  postcode: string | null;
  description: string;
  status: string;
  lodged: string;
  decided: string | null;
  cost: number | null;
  dwellings: number | null;
  storeys: number | null;
  lots: number | null;
  applicant: string | null;
  public_notice_from: string | null;
  public_notice_to: string | null;
  lat: number;
  lng: number;
  council_url: string;
  council_url_type: 'application_record' | 'search_entry';
  last_fetched_at: string;
  observed_at: string | null;
  source: string;
  category: DaCategory;
  categories: DaCategory[];
  residential: boolean;
  cost_band: string | null;
  estimated_value_band: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());
const optStr = (v: unknown) => str(v) || null;
const optNum = (v: unknown) => (v === undefined || v === null || v === '' ? null : Number(v));

/** DA records from rows (the DA JSON-lines format); every bad row reported at once (INVALID_DATA). */
export function daRecordsFromRows(rows: Record<string, unknown>[], source: string): DaRecord[] {
  const out: DaRecord[] = [];
  const problems: string[] = [];
  rows.forEach((r, i) => {
    const row = i + 1;
    const id = Number(r.id);
    const lat = Number(r.lat), lng = Number(r.lng ?? r.lon);
    const state = str(r.state).toUpperCase();
    const lodged = str(r.lodged);
    const bad: string[] = [];
    if (!Number.isInteger(id)) bad.push(`id ${JSON.stringify(r.id)} is not an integer`);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) bad.push(`lat/lng (${String(r.lat)}, ${String(r.lng)}) is not a coordinate`);
    if (!(STATES as readonly string[]).includes(state)) bad.push(`state ${JSON.stringify(r.state)} is not a state code`);
    if (!DATE.test(lodged)) bad.push(`lodged ${JSON.stringify(r.lodged)} is not YYYY-MM-DD`);
    if (!str(r.description)) bad.push('description is empty');
    const cost = optNum(r.cost);
    if (cost !== null && !Number.isFinite(cost)) bad.push(`cost ${JSON.stringify(r.cost)} is not a number`);
    const urlType = str(r.council_url_type) || 'search_entry';
    if (urlType !== 'application_record' && urlType !== 'search_entry') bad.push(`council_url_type ${JSON.stringify(urlType)} is not application_record or search_entry`);
    if (bad.length) {
      problems.push(...bad.map((b) => `row ${row}: ${b}`));
      return;
    }
    const description = str(r.description);
    const { category, categories } = classifyDa(description);
    const dwellings = optNum(r.dwellings);
    out.push({
      id, ref: str(r.council_reference ?? r.ref), council: str(r.council), address: str(r.address), suburb: str(r.suburb), state: state as StateCode,
      postcode: optStr(r.postcode), description, status: str(r.status), lodged, decided: optStr(r.decided), cost, dwellings,
      storeys: optNum(r.storeys), lots: optNum(r.lots), applicant: optStr(r.applicant), public_notice_from: optStr(r.public_notice_from),
      public_notice_to: optStr(r.public_notice_to), lat, lng, council_url: str(r.council_url), council_url_type: urlType as DaRecord['council_url_type'],
      last_fetched_at: str(r.last_fetched_at), observed_at: optStr(r.observed_at), source: str(r.source) || source,
      category, categories, residential: residentialFlag(categories), cost_band: costBand(cost), estimated_value_band: estimatedValueBand({ category, cost, dwellings }),
    });
  });
  if (problems.length) throw new EngineError('INVALID_DATA', `${source}: ${problems.length} bad DA row(s):\n  ${problems.slice(0, 20).join('\n  ')}`, { source, problems });
  return out;
}

/** The spec 2.3 item of a record at `distanceM` from the subject (0 for on-parcel). */
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
