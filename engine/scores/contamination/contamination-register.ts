/**
 * The contaminated-sites registers (state EPA registers) as the contamination score reads them: records
 * `site_id,lon,lat,name,status,register,state,source` in one flatbush point index, and per-state register
 * coverage: `complete`, `partial`, or `not_integrated` where the state's register is not held (WA today).
 * A state missing from the coverage map is not integrated.
 */
import { invalidData } from '../../errors.js';
import { PointIndex } from '../../vector/point-index.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import { isMissing } from '../../score-kit/layer-input.js';

/** One register entry. */
export interface ContaminationSite {
  site_id: string;
  lon: number;
  lat: number;
  name: string;
  /** Publisher-native status (e.g. "Notified", "Remediated", "Regulated under CLM Act"). */
  status: string;
  /** Register name (e.g. "EPA Victoria Priority Sites Register"). */
  register: string;
  state: string;
  source: string;
}

/** Coverage of a state's register. */
export type RegisterCoverage = 'complete' | 'partial' | 'not_integrated';

/** The indexed registers. */
export interface ContaminationRegister {
  /** Null when the register records could not be loaded (every lookup is then unavailable). */
  index: PointIndex | null;
  sites: ContaminationSite[];
  coverage: Record<string, RegisterCoverage>;
  /** Why the records are missing, when they are. */
  unavailableReason: string | null;
}

/** Register sites from CSV rows; line numbers assume one line per row after the header. */
export function contaminationSitesFromRows(rows: readonly Record<string, string>[], file: string): ContaminationSite[] {
  return rows.map((row, i) => {
    const line = i + 2;
    const lon = Number(row.lon);
    const lat = Number(row.lat);
    if (!(row.lon ?? '').trim() || !(row.lat ?? '').trim() || !Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lon) > 180 || Math.abs(lat) > 90) {
      throw invalidData(file, `line ${line}: lon/lat must be numbers in range, got ${JSON.stringify(row.lon)}, ${JSON.stringify(row.lat)}`, { line });
    }
    const state = (row.state ?? '').trim().toUpperCase();
    const source = (row.source ?? '').trim();
    if (!state) throw invalidData(file, `line ${line}: empty state`, { line });
    if (!source) throw invalidData(file, `line ${line}: empty source id`, { line });
    return { site_id: row.site_id ?? String(i), lon, lat, name: row.name ?? '', status: row.status ?? '', register: row.register ?? '', state, source };
  });
}

/** Indexes register sites with the per-state coverage (keys upper-cased). */
export function buildContaminationRegister(sites: ContaminationSite[] | MissingLayer, coverage: Record<string, RegisterCoverage>): ContaminationRegister {
  const cov = Object.fromEntries(Object.entries(coverage).map(([k, v]) => [k.toUpperCase(), v]));
  if (isMissing(sites)) return { index: null, sites: [], coverage: cov, unavailableReason: sites?.reason ?? 'register records unavailable' };
  return { index: PointIndex.build(sites.flatMap((s) => [s.lon, s.lat])), sites, coverage: cov, unavailableReason: null };
}
