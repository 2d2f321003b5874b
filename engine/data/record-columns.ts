/**
 * The columns a record file (CSV or JSON lines) must have for the engine to read it, by the payload paths its
 * source feeds. Checked when the data store loads the file, so a file missing a needed column is rejected at
 * load time naming the file and the column, rather than failing (or silently matching nothing) at lookup.
 *
 * Each requirement mirrors what the reader of that record kind reads: the address, DA, noise and walkability
 * parsers. A record table of any other path is only reachable through its point index (layer queries by
 * distance), so it needs coordinates.
 */
import type { PayloadPath } from '../catalogue/payload-paths.js';
import { invalidData, type EngineError } from '../errors.js';

/** The columns a traffic counter file must have (the fields engine/noise/noise-inputs.ts parseCounterRecords requires). */
export const COUNTER_COLUMNS = ['counter_id', 'lon', 'lat', 'aadt'] as const;
/** The columns a noise logger file must have (the fields parseLoggerRecords requires). */
export const LOGGER_COLUMNS = ['logger_id', 'lon', 'lat', 'state', 'lden_db'] as const;

/** One required column: its name and the alternative names a reader also accepts (e.g. `lng` for `lon`). */
export interface ColumnRequirement {
  name: string;
  alternatives: readonly string[];
}

const col = (name: string, ...alternatives: string[]): ColumnRequirement => ({ name, alternatives });
const exact = (names: readonly string[]) => names.map((n) => col(n));

/** Coordinates as the data store's point index finds them (case-insensitive there; lower case here). */
const POINT = [col('lon', 'lng', 'longitude', 'long', 'x'), col('lat', 'latitude', 'y')];
/** Coordinates for readers that take exactly `lon` and `lat` (walkability points). */
const LON_LAT = exact(['lon', 'lat']);

/** Required columns per payload path, where the path's reader needs more than a point's coordinates. */
export const RECORD_COLUMNS: Partial<Record<PayloadPath, readonly ColumnRequirement[]>> = {
  // engine/address/address-record.ts: id, number, street, state and a coordinate per row.
  'resolved.address': [col('address_id', 'id'), col('number', 'number_first'), col('street_name'), col('state'), col('lon', 'lng', 'longitude'), col('lat', 'latitude')],
  // engine/da/da-record.ts
  development_applications: [col('id'), col('lat'), col('lng', 'lon'), col('state'), col('lodged'), col('description')],
  // engine/noise/noise-inputs.ts
  'scores.noise.sources': exact(COUNTER_COLUMNS),
  'scores.noise.validation': exact(LOGGER_COLUMNS),
  // engine/property/blocks/poi.ts joins catchments to schools by school_id.
  'poi.schools_500m': [col('school_id'), ...POINT],
  // engine/scores/walkability/walkability-layers.ts coordOf reads exactly lon and lat.
  'scores.walkability.amenities': LON_LAT,
  'scores.walkability.crossings': LON_LAT,
  // engine/childcare/suburb-context.ts joins the DataPack tables and the ASGS names on the SAL code.
  'childcare.suburb_demographics': [col('sal_code_2021')],
};

/**
 * The requirements for a record file of a source feeding `paths`: the union over the paths with an entry in
 * {@link RECORD_COLUMNS} (coordinates when none has one). A column two paths need keeps only the names both
 * accept, so the strictest reader is satisfied.
 */
export function requiredColumns(paths: readonly PayloadPath[]): ColumnRequirement[] {
  const lists = paths.flatMap((p) => (RECORD_COLUMNS[p] ? [RECORD_COLUMNS[p]] : []));
  const out = new Map<string, ColumnRequirement>();
  for (const list of lists.length ? lists : [POINT]) {
    for (const r of list) {
      const prev = out.get(r.name);
      out.set(r.name, prev ? col(r.name, ...prev.alternatives.filter((a) => r.alternatives.includes(a))) : r);
    }
  }
  return [...out.values()];
}

/**
 * The INVALID_DATA error for a record file at `file` whose `columns` lack a column its source's `paths` need,
 * naming the file, each missing column (with the names accepted instead) and the path needing it; null when
 * nothing is missing. Column names compare case-insensitively, as the point index finds coordinates.
 */
export function missingColumnsError(file: string, columns: readonly string[], paths: readonly PayloadPath[]): EngineError | null {
  const have = new Set(columns.map((c) => c.toLowerCase()));
  const missing = requiredColumns(paths).filter((r) => ![r.name, ...r.alternatives].some((n) => have.has(n)));
  if (missing.length === 0) return null;
  const neededBy = (r: ColumnRequirement) => {
    const explicit = paths.filter((p) => RECORD_COLUMNS[p]?.some((x) => x.name === r.name));
    return explicit.length ? explicit.join(', ') : `locating records of ${paths.join(', ')}`;
  };
  const text = missing.map((r) => `"${r.name}"${r.alternatives.length ? ` (or ${r.alternatives.map((a) => `"${a}"`).join(', ')})` : ''} needed for ${neededBy(r)}`);
  return invalidData(file, `missing required column${missing.length > 1 ? 's' : ''} ${text.join('; ')}`, { missing: missing.map((r) => r.name) });
}
