/**
 * A batch's results as a file, one record per input row in input order:
 * - `csv`: the input's columns as given (a column whose name a result column takes is renamed `input_<name>`),
 *   then `row`, `status`, `error`, `error_message`, the resolved address, match confidence and point, and the
 *   selected components flattened to named columns ({@link BATCH_CSV_FIELDS}); cells quoted and neutralised
 *   as every CSV this service writes (OWASP CSV injection), numbers as numbers;
 * - `jsonl`: one JSON object per line with the input, the status and error, the resolved fields and the whole
 *   payload;
 * - `geojson`: a FeatureCollection, one Point feature per row (null geometry for a row that did not
 *   resolve), one feature per line so a stopped run can be resumed.
 */
import { csvField } from '../childcare/csv-cells.js';
import { FULL_LICENCE, type PropertyLicence } from '../property/kit/contract.js';
import { isSelected, selectComponents } from '../property/kit/components.js';
import { SCORE_KEYS } from '../scores/registry.js';
import type { BatchCell } from './batch-input.js';
import type { BatchRowResult } from './batch-run.js';

export const BATCH_OUTPUT_FORMATS = ['csv', 'jsonl', 'geojson'] as const;
export type BatchOutputFormat = (typeof BATCH_OUTPUT_FORMATS)[number];

/** The content type of each format. */
export const BATCH_CONTENT_TYPES: Record<BatchOutputFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson',
  geojson: 'application/geo+json',
};

type Payload = Record<string, any>;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)$/;
/** A flattened CSV column: its name, what selects it, and how it is read from a payload. */
export interface BatchCsvField {
  name: string;
  /** The block and, for scores and hazards, the item (`scores.flood`). */
  block: 'das' | 'planning' | 'hazards' | 'administrative' | 'transport' | 'scores';
  item?: string;
  numeric: boolean;
  description: string;
  get(p: Payload): unknown;
}

const count = (v: unknown) => (Array.isArray(v) ? v.length : null);
const codes = (items: unknown) => (Array.isArray(items) ? items.map((i: Payload) => i?.core?.code ?? i?.properties?.ZONE_CODE ?? '').filter(Boolean).join(';') : null);

/** The CSV's flattened component columns, in order. */
export const BATCH_CSV_FIELDS: readonly BatchCsvField[] = [
  { name: 'das_on_parcel', block: 'das', numeric: true, description: 'development applications on the parcel', get: (p) => count(p.development_applications?.on_parcel) },
  { name: 'das_nearby', block: 'das', numeric: true, description: 'development applications within 300 m', get: (p) => count(p.development_applications?.nearby_300m) },
  { name: 'zone_code', block: 'planning', numeric: false, description: 'the planning zone code (the largest share of the parcel first; several joined by ;)', get: (p) => codes(p.planning?.zone) },
  { name: 'zone_name', block: 'planning', numeric: false, description: 'the first planning zone\'s name', get: (p) => p.planning?.zone?.[0]?.core?.name ?? null },
  { name: 'overlay_codes', block: 'planning', numeric: false, description: 'planning overlay codes, joined by ;', get: (p) => codes(p.planning?.overlay) },
  { name: 'heritage_listings', block: 'planning', numeric: true, description: 'heritage register entries on the parcel', get: (p) => count(p.planning?.heritage) },
  { name: 'flood_overlay', block: 'hazards', item: 'flood', numeric: true, description: 'official flood overlays on the parcel', get: (p) => count(p.hazards?.flood) },
  { name: 'bushfire_prone', block: 'hazards', item: 'bushfire', numeric: true, description: 'official bushfire-prone areas on the parcel', get: (p) => count(p.hazards?.bushfire) },
  { name: 'contamination_sites', block: 'hazards', item: 'contamination', numeric: true, description: 'contaminated-land register entries on the parcel', get: (p) => count(p.hazards?.contamination) },
  { name: 'lga', block: 'administrative', numeric: false, description: 'the local government area', get: (p) => p.administrative?.lga?.[0]?.properties?.LGA_NAME ?? p.resolved?.parcel?.lga ?? null },
  { name: 'rail_station_km', block: 'transport', numeric: true, description: 'kilometres to the nearest rail station', get: (p) => p.transport?.rail_station?.[0]?.distance_km ?? null },
  { name: 'pt_stop_km', block: 'transport', numeric: true, description: 'kilometres to the nearest public transport stop', get: (p) => p.transport?.pt_stop?.[0]?.distance_km ?? null },
  ...SCORE_KEYS.flatMap((k): BatchCsvField[] => [
    { name: `${k}_score`, block: 'scores', item: k, numeric: true, description: `scores.${k}.score (0-100, null when not computed)`, get: (p) => p.scores?.[k]?.score ?? null },
    { name: `${k}_level`, block: 'scores', item: k, numeric: false, description: `scores.${k}.level`, get: (p) => p.scores?.[k]?.level ?? null },
  ]),
  { name: 'bushfire_bal', block: 'scores', item: 'bushfire', numeric: false, description: 'the indicative BAL (screening, not a certified assessment)', get: (p) => p.scores?.bushfire?.indicative_bal?.bal ?? null },
  { name: 'noise_lden_db', block: 'scores', item: 'noise', numeric: true, description: 'modelled road and rail noise, Lden dB', get: (p) => p.scores?.noise?.lden_db ?? null },
];

/** The result columns every CSV has after the input's. */
export const BATCH_RESULT_COLUMNS = ['row', 'status', 'error', 'error_message', 'resolved_address', 'match_confidence', 'resolved_lat', 'resolved_lng'] as const;

/** What a results file is made for. */
export interface BatchOutputOptions {
  format: BatchOutputFormat;
  /** The input's columns (CSV's header; for JSON lines, every key seen, in first-seen order). */
  columns: readonly string[];
  /** The job's `components`, or null for everything the licence covers. */
  components: string[] | null;
  licence?: PropertyLicence;
  /** Whether each row says if it was charged (the server's jobs do; the CLI meters nothing). */
  charged?: boolean;
}

/** A row as stored: its result, and whether the meter charged it. */
export type StoredBatchRow = BatchRowResult & {
  charged?: boolean;
  /** The row's payload stored apart, once per job (batch-pack.ts): `payload` is null in the row and this names it. */
  payload_hash?: string | null;
};

/** Writes the records of one results file (header, one per row, footer). */
export class BatchFileWriter {
  private readonly fields: readonly BatchCsvField[];
  private readonly inputNames: string[] = [];
  private first = true;

  constructor(private readonly options: BatchOutputOptions) {
    const sel = selectComponents(options.components, options.licence ?? FULL_LICENCE, 'full');
    this.fields = BATCH_CSV_FIELDS.filter((f) => isSelected(sel, f.block, f.item));
    // A carried column named like one of ours is renamed input_<name> (input_<name>_2, _3, ... while that is
    // taken too, by ours or by another carried column), so no two columns of the file share a name.
    const taken = new Set<string>([...BATCH_RESULT_COLUMNS, ...(options.charged ? ['charged'] : []), ...this.fields.map((f) => f.name)]);
    const carried = new Set(options.columns);
    for (const c of options.columns) {
      let name = c;
      if (taken.has(c)) {
        name = `input_${c}`;
        for (let k = 2; taken.has(name) || (carried.has(name) && name !== c); k++) name = `input_${c}_${k}`;
      }
      taken.add(name);
      this.inputNames.push(name);
    }
  }

  /** The CSV columns, in order. */
  csvColumns(): string[] {
    return [...this.inputNames, ...BATCH_RESULT_COLUMNS, ...(this.options.charged ? ['charged'] : []), ...this.fields.map((f) => f.name)];
  }

  /** What the file starts with. */
  header(): string {
    if (this.options.format === 'csv') return `${this.csvColumns().map((c) => csvField(c)).join(',')}\r\n`;
    if (this.options.format === 'geojson') return '{"type":"FeatureCollection","features":[\n';
    return '';
  }

  /** One row's record, with its line end. */
  row(r: StoredBatchRow): string {
    if (this.options.format === 'csv') return this.csvRow(r);
    const base = {
      row: r.row,
      input: r.cells,
      status: r.status,
      error: r.error,
      error_message: r.message,
      resolved_address: r.address,
      match_confidence: r.confidence,
      resolved_lat: r.lat,
      resolved_lng: r.lng,
      ...(this.options.charged ? { charged: !!r.charged } : {}),
      payload: r.payload,
    };
    if (this.options.format === 'jsonl') return `${JSON.stringify(base)}\n`;
    // GeoJSON: the point is the geometry; the other fields are the properties, named as in CSV and JSON lines.
    const { resolved_lat: lat, resolved_lng: lng, ...properties } = base;
    const feature = { type: 'Feature', geometry: lat !== null && lng !== null ? { type: 'Point', coordinates: [lng, lat] } : null, properties };
    const text = `${this.first ? '' : ','}${JSON.stringify(feature)}\n`;
    this.first = false;
    return text;
  }

  /** Continue after `rows` records already written (a resumed file). */
  resumeAfter(rows: number): void {
    if (rows > 0) this.first = false;
  }

  /** What the file ends with. */
  footer(): string {
    return this.options.format === 'geojson' ? ']}\n' : '';
  }

  private csvRow(r: StoredBatchRow): string {
    const cell = (v: BatchCell | unknown, numeric = false) => csvField(typeof v === 'boolean' ? String(v) : v, numeric);
    // A carried number (a JSON number, or CSV text that is one, like -37.8) stays a number: the formula guard is
    // for text, and a leading apostrophe would change the value.
    const out: string[] = this.options.columns.map((c) => {
      const v = r.cells[c];
      return typeof v === 'string' && DECIMAL.test(v) ? v : cell(v, typeof v === 'number');
    });
    out.push(String(r.row), cell(r.status), cell(r.error), cell(r.message), cell(r.address), cell(r.confidence, true), cell(r.lat, true), cell(r.lng, true));
    if (this.options.charged) out.push(r.charged ? 'true' : 'false');
    const p = r.payload;
    for (const f of this.fields) out.push(p ? cell(f.get(p), f.numeric) : '');
    return `${out.join(',')}\r\n`;
  }
}

/** The input columns of JSON lines rows: every key seen, in first-seen order. */
export function collectColumns(columns: string[], seen: Set<string>, cells: Record<string, BatchCell>): void {
  for (const k of Object.keys(cells)) {
    if (!seen.has(k)) {
      seen.add(k);
      columns.push(k);
    }
  }
}
