/**
 * Looking up a chunk of batch rows, fast because it is a batch:
 * 1. every row's subject is resolved first (the cheap part: an address search, or the parcel of a point),
 *    which also settles the rows that cannot be looked up (unresolvable, outside coverage);
 * 2. the resolved rows are ordered along a Hilbert curve over their points, so consecutive lookups read the
 *    same windows, raster blocks and per-area models while they are still cached (flatbush orders its items
 *    the same way);
 * 3. the lookups run `concurrency` at a time (the engine's own limit keeps its pool busy, not flooded), and a
 *    row asked twice in the chunk (the same subject) is computed once;
 * 4. the results come back in input order, one per row, a row that throws recorded as `error`.
 *
 * Each result says, as the single lookup would, why a row has no payload: its status and the error code the
 * single lookup answers with (`address_unresolvable`, `outside_coverage`, `invalid_subject`, ...).
 */
import { isEngineError } from '../errors.js';
import type { PropertyOptions, PropertyResult, PropertySubject } from '../property/kit/contract.js';
import type { BatchCell, BatchRow } from './batch-input.js';

/** A row's outcome. */
export const BATCH_ROW_STATUSES = ['ok', 'unresolved', 'outside_coverage', 'invalid', 'error'] as const;
export type BatchRowStatus = (typeof BATCH_ROW_STATUSES)[number];

/** What a batch needs of the engine. */
export interface BatchLookupService {
  property(subject: PropertySubject, options?: PropertyOptions): Promise<PropertyResult>;
  /** Resolves the subject only: its billing identity and point. */
  identify(subject: PropertySubject): Promise<{ addressKey: string; label: string | null; sandbox: boolean; lon?: number; lat?: number }>;
  /**
   * Looks up a whole chunk (`input`: its rows packed, `rows` of them) and packs the results (batch-pack.ts),
   * spread over the engine's threads. Optional: without it the caller looks the rows up one by one.
   */
  batchChunk?(input: Uint8Array, rows: number, options: LookupRowsOptions): Promise<PackedResults>;
}

/** One row's result. */
export interface BatchRowResult {
  row: number;
  cells: Record<string, BatchCell>;
  status: BatchRowStatus;
  /** The single lookup's error code for this row (null when `ok`). */
  error: string | null;
  /** Its message in plain English (null when `ok`). */
  message: string | null;
  /** The resolved address (null for a point with no address, and for failed rows). */
  address: string | null;
  /** The match confidence of an address (1 for a point). */
  confidence: number | null;
  lat: number | null;
  lng: number | null;
  /** The billing identity (null when the row did not resolve). */
  address_key: string | null;
  /** What the meter needs: a sandbox address is never charged; an unchargeable payload says why not. */
  sandbox: boolean;
  chargeable: boolean;
  not_charged_reason: string | null;
  /** The payload (status `ok` only). */
  payload: Record<string, unknown> | null;
}

/** What the commit needs of a row: its result without the payload and the input cells. */
export type BatchRowMeta = Omit<BatchRowResult, 'payload' | 'cells'>;

/** A distinct payload of a job's results, stored once however many rows answer with it. */
export interface PackedPayload {
  /** SHA-256 of its JSON text (hex, 32 digits): what rows name it by (`payload_hash`). */
  hash: string;
  /** Its JSON text, gzipped. */
  body: Uint8Array;
}

/**
 * A chunk's (or part's) results packed (batch-pack.ts): the stored pack, each row's meta in order, the rows not
 * `ok`, and the distinct payloads the rows name.
 */
export interface PackedResults {
  meta: BatchRowMeta[];
  /** Gzipped JSON lines of the results, every row with `charged: false` and its payload named by `payload_hash`. */
  packed: Uint8Array;
  failed: number;
  payloads: PackedPayload[];
}

/** Options of {@link lookupRows}. */
export interface LookupRowsOptions {
  /** The lookup's options (components, include_geometry, the licence), the same for every row. */
  property: PropertyOptions;
  /** Lookups at once (default 8: the engine computes twice its threads and queues the rest). */
  concurrency?: number;
  /** `spatial` (default) or `input`: the order lookups are made in (results are in input order either way). */
  order?: 'spatial' | 'input';
  /** Stops starting lookups (rows not yet started come back as `error` `cancelled`). */
  signal?: AbortSignal;
}

/** The position of (x, y) along a Hilbert curve over a 2^16 x 2^16 grid. */
export function hilbertIndex(x: number, y: number): number {
  let d = 0;
  for (let s = 1 << 15; s > 0; s >>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/** Indexes of `points` in Hilbert order over their bounding box (ties in input order). */
export function hilbertOrder(points: readonly { lon: number; lat: number }[]): number[] {
  if (points.length < 2) return points.map((_, i) => i);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of points) {
    if (p.lon < minX) minX = p.lon;
    if (p.lon > maxX) maxX = p.lon;
    if (p.lat < minY) minY = p.lat;
    if (p.lat > maxY) maxY = p.lat;
  }
  const w = maxX - minX || 1, h = maxY - minY || 1;
  const keys = points.map((p) => hilbertIndex(Math.floor(((p.lon - minX) / w) * 65535), Math.floor(((p.lat - minY) / h) * 65535)));
  return points.map((_, i) => i).sort((a, b) => keys[a] - keys[b] || a - b);
}

/** A failed row's status and the single lookup's error code for its failure. */
export function failureOf(err: unknown): { status: BatchRowStatus; error: string; message: string } {
  if (isEngineError(err)) {
    const d = err.details ?? {};
    if (err.code === 'INVALID_ARGUMENT') return { status: 'invalid', error: d.reason === 'invalid_subject' ? 'invalid_subject' : 'invalid_parameter', message: err.message };
    if (err.code === 'NOT_FOUND' && d.reason === 'address_unresolvable') return { status: 'unresolved', error: 'address_unresolvable', message: err.message };
    if (err.code === 'NOT_FOUND' && d.reason === 'outside_coverage') return { status: 'outside_coverage', error: 'outside_coverage', message: err.message };
    if (err.code === 'UNAVAILABLE') return { status: 'error', error: d.component === 'address_resolution' ? 'address_resolution_unavailable' : 'core_component_unavailable', message: err.message };
    if (err.code === 'ABORTED') return { status: 'error', error: 'cancelled', message: err.message };
  }
  return { status: 'error', error: 'internal_error', message: `the lookup failed: ${err instanceof Error ? err.message : String(err)}` };
}

/** The result of a row that was not looked up (status `error`, the code and message given). */
export function failedRow(r: Pick<BatchRow, 'row' | 'cells'>, error: string, message: string): BatchRowResult {
  return { ...emptyResult(r), error, message };
}

function emptyResult(r: Pick<BatchRow, 'row' | 'cells'>): BatchRowResult {
  return { row: r.row, cells: r.cells, status: 'error', error: null, message: null, address: null, confidence: null, lat: null, lng: null, address_key: null, sandbox: false, chargeable: false, not_charged_reason: null, payload: null };
}

/** The result of a row whose lookup succeeded. */
function okResult(r: BatchRow, res: PropertyResult): BatchRowResult {
  const resolved = (res.payload.resolved ?? {}) as { address?: string | null; match_confidence?: number | null; point?: { lat: number; lng: number } };
  return {
    ...emptyResult(r),
    status: 'ok',
    address: resolved.address ?? null,
    confidence: resolved.match_confidence ?? null,
    lat: resolved.point?.lat ?? null,
    lng: resolved.point?.lng ?? null,
    address_key: res.addressKey,
    sandbox: res.sandbox,
    chargeable: res.chargeable,
    not_charged_reason: res.notChargedReason ?? null,
    payload: res.payload as Record<string, unknown>,
  };
}

/**
 * How long the row loop runs before it lets the event loop turn, ms. A lookup that settles without real I/O
 * (an unresolvable address is answered from memory) resolves in microtasks only, so without a turn the loop
 * would hold its thread until the chunk ends, and a cancel posted to the thread would wait that long.
 */
const YIELD_EVERY_MS = 10;

/** Runs `fn` over `items`, `width` at a time, letting the event loop turn every {@link YIELD_EVERY_MS}. */
async function eachLimited<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let turned = performance.now();
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      if (performance.now() - turned >= YIELD_EVERY_MS) {
        await new Promise<void>((r) => setImmediate(r));
        turned = performance.now();
        if (next >= items.length) break;
      }
      await fn(items[next++]);
    }
  }));
}

/** Looks up `rows` (see the module comment); one result per row, in input order. */
export async function lookupRows(service: BatchLookupService, rows: readonly BatchRow[], options: LookupRowsOptions): Promise<BatchRowResult[]> {
  const width = Math.max(1, options.concurrency ?? 8);
  const results: BatchRowResult[] = rows.map(emptyResult);
  const fail = (i: number, err: unknown) => Object.assign(results[i], failureOf(err));
  // 1. Resolve every subject (invalid rows are settled by their problem).
  const points: { i: number; lon: number; lat: number }[] = [];
  const unplaced: number[] = [];
  await eachLimited(rows.map((_, i) => i), width, async (i) => {
    const r = rows[i];
    if (options.signal?.aborted) {
      Object.assign(results[i], { status: 'error', error: 'cancelled', message: 'the batch was stopped before this row was looked up' });
      return;
    }
    if (!r.subject) {
      Object.assign(results[i], { status: 'invalid', error: r.problem?.error ?? 'invalid_parameter', message: r.problem?.message ?? 'the row has no subject' });
      return;
    }
    try {
      const id = await service.identify(r.subject);
      if (id.lon !== undefined && id.lat !== undefined) points.push({ i, lon: id.lon, lat: id.lat });
      else unplaced.push(i);
    } catch (err) {
      fail(i, err);
    }
  });
  // 2. Order along the Hilbert curve (or keep input order).
  points.sort((a, b) => a.i - b.i);
  const order = options.order === 'input' ? [...points.map((p) => p.i), ...unplaced].sort((a, b) => a - b) : [...hilbertOrder(points).map((k) => points[k].i), ...unplaced];
  // 3. Look up, sharing a subject asked twice.
  const shared = new Map<string, Promise<PropertyResult>>();
  await eachLimited(order, width, async (i) => {
    if (options.signal?.aborted) {
      Object.assign(results[i], { status: 'error', error: 'cancelled', message: 'the batch was stopped before this row was looked up' });
      return;
    }
    const subject = rows[i].subject!;
    const key = JSON.stringify(subject);
    let p = shared.get(key);
    if (!p) shared.set(key, (p = service.property(subject, options.property)));
    try {
      results[i] = okResult(rows[i], await p);
    } catch (err) {
      fail(i, err);
    }
  });
  return results;
}
