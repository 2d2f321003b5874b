/**
 * An address point (G-NAF style): unit, number, street (name and full type), suburb, state, postcode, the
 * point, and the parcel it is on. Read from the catalogue's `resolved.address` record files.
 */
import { STATES, type StateCode } from '../catalogue/states.js';
import { EngineError } from '../errors.js';

/** One address point. */
export interface AddressRecord {
  /** The address id (the billing identity). */
  id: string;
  unit: string | null;
  number: string;
  /** Street name and full type, e.g. "Blyth Street". */
  street: string;
  suburb: string;
  state: StateCode;
  postcode: string;
  lon: number;
  lat: number;
  pfi: string | null;
  lga: string | null;
  /** Catalogue source id. */
  source: string;
  /** The formatted address: "3/45 Blyth Street, Brunswick East VIC 3057". */
  text: string;
}

/** The formatted address of a record (G-NAF style). */
export function formatAddress(r: Omit<AddressRecord, 'text'>): string {
  return `${r.unit ? `${r.unit}/` : ''}${r.number} ${r.street}, ${r.suburb} ${r.state} ${r.postcode}`;
}

const s = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/**
 * Address records from CSV rows (address_id, unit, number, street_name, street_type, suburb, state, postcode,
 * lon, lat, pfi, lga). Every bad row is reported at once in one INVALID_DATA error naming row and column.
 */
export function addressRecordsFromRows(rows: Record<string, unknown>[], source: string): AddressRecord[] {
  const out: AddressRecord[] = [];
  const problems: string[] = [];
  rows.forEach((r, i) => {
    const row = i + 2; // a header line, then 1-based rows
    const lon = Number(r.lon ?? r.lng ?? r.longitude);
    const lat = Number(r.lat ?? r.latitude);
    const state = s(r.state).toUpperCase();
    const id = s(r.address_id ?? r.id);
    const number = s(r.number ?? r.number_first);
    const street = [s(r.street_name), s(r.street_type)].filter(Boolean).join(' ');
    if (!id) problems.push(`row ${row}: address_id is empty`);
    if (!number) problems.push(`row ${row}: number is empty`);
    if (!street) problems.push(`row ${row}: street_name is empty`);
    if (!(STATES as readonly string[]).includes(state)) problems.push(`row ${row}: state ${JSON.stringify(r.state)} is not an Australian state or territory code`);
    if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lon) > 180) problems.push(`row ${row}: lon/lat (${String(r.lon)}, ${String(r.lat)}) is not a coordinate`);
    if (problems.length) return;
    const rec = { id, unit: s(r.unit) || null, number, street, suburb: s(r.suburb ?? r.locality), state: state as StateCode, postcode: s(r.postcode), lon, lat, pfi: s(r.pfi) || null, lga: s(r.lga) || null, source };
    out.push({ ...rec, text: formatAddress(rec) });
  });
  if (problems.length) throw new EngineError('INVALID_DATA', `${source}: ${problems.length} bad address row(s):\n  ${problems.slice(0, 20).join('\n  ')}`, { source, problems });
  return out;
}
