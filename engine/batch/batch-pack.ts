/**
 * A batch chunk's rows and results as they are stored and sent between threads: gzipped JSON lines, each
 * line ended by a newline, so the packs of a chunk's parts, looked up on different threads, concatenate into
 * one (gzip readers read concatenated members as one stream).
 *
 * Results are packed where they were computed (an engine thread), with `charged: false` on every row: which
 * rows the meter charged is decided later, when the chunk commits, and stored beside the pack (a list of row
 * positions), so the thread that commits never parses, rewrites or compresses a payload.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { EngineError } from '../errors.js';
import { batchRows, type BatchInputOptions, type BatchRow } from './batch-input.js';
import { BatchFileWriter, collectColumns, type BatchOutputOptions, type StoredBatchRow } from './batch-output.js';
import { lookupRows, type BatchLookupService, type BatchRowMeta, type BatchRowResult, type LookupRowsOptions, type PackedPayload, type PackedResults } from './batch-run.js';

/** Gzipped JSON lines of `items` (each line ended by a newline). */
export function packLines(items: readonly unknown[]): Buffer {
  let text = '';
  for (const i of items) text += `${JSON.stringify(i)}\n`;
  return gzipSync(text, { level: 4 });
}

/** The items of {@link packLines} (or of several packs concatenated, or of the older form without the last newline). */
export function unpackLines<T>(buf: Uint8Array): T[] {
  const text = gunzipSync(buf).toString('utf8');
  const out: T[] = [];
  for (const line of text.split('\n')) if (line) out.push(JSON.parse(line) as T);
  return out;
}

export type { BatchRowMeta, PackedPayload, PackedResults } from './batch-run.js';

/**
 * Packs `results` (see the module comment). Each distinct payload is taken out of the rows and kept once
 * (`payloads`, gzipped JSON named by its hash); a row names its payload by `payload_hash`. A job of 200,000
 * rows over three addresses stores three payloads, not 200,000 copies.
 */
export function packResults(results: readonly BatchRowResult[]): PackedResults {
  const meta: BatchRowMeta[] = [];
  const texts = new Map<string, string>();
  let failed = 0;
  const rows: StoredBatchRow[] = [];
  for (const r of results) {
    const { payload, cells: _c, ...m } = r;
    meta.push(m);
    if (r.status !== 'ok') failed++;
    let hash: string | null = null;
    if (payload) {
      const json = JSON.stringify(payload);
      hash = createHash('sha256').update(json).digest('hex').slice(0, 32);
      if (!texts.has(hash)) texts.set(hash, json);
    }
    rows.push({ ...r, payload: null, payload_hash: hash, charged: false });
  }
  const payloads = [...texts].map(([hash, json]) => ({ hash, body: gzipSync(json, { level: 4 }) }));
  return { meta, packed: packLines(rows), failed, payloads };
}

/** The packs of a chunk's parts as one, in order (a payload two parts share, once). */
export function joinPacked(parts: readonly PackedResults[]): PackedResults {
  const payloads = new Map<string, PackedPayload>();
  for (const p of parts) for (const x of p.payloads) if (!payloads.has(x.hash)) payloads.set(x.hash, x);
  return { meta: parts.flatMap((p) => p.meta), packed: Buffer.concat(parts.map((p) => p.packed)), failed: parts.reduce((a, p) => a + p.failed, 0), payloads: [...payloads.values()] };
}

/** The payloads rows name by `payload_hash`, each read from its gzipped JSON once (rows stored with theirs inline pass as they are). */
export function withPayloads(rows: StoredBatchRow[], payloads: Iterable<readonly [string, Uint8Array]>): StoredBatchRow[] {
  const bodies = new Map(payloads);
  const parsed = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    const h = r.payload_hash;
    if (!h) continue;
    let p = parsed.get(h);
    if (!p) {
      const body = bodies.get(h);
      if (!body) throw new EngineError('INVALID_DATA', `a stored batch row names payload ${h}, which its job does not hold`, { file: 'batch_payloads' });
      parsed.set(h, (p = JSON.parse(gunzipSync(body).toString('utf8')) as Record<string, unknown>));
    }
    r.payload = p;
  }
  return rows;
}

/**
 * Looks up rows `from` to `to` (end excluded; default all) of a packed chunk input and packs the results:
 * an engine thread's part of a chunk.
 */
export async function lookupPacked(service: BatchLookupService, input: Uint8Array, options: LookupRowsOptions & { from?: number; to?: number }): Promise<PackedResults> {
  const rows = unpackLines<BatchRow>(input);
  const part = rows.slice(options.from ?? 0, options.to ?? rows.length);
  return packResults(await lookupRows(service, part, options));
}

/** A chunk of an upload: its first row's number, how many rows, and the rows packed ({@link packLines}). */
export interface UploadChunk {
  first_row: number;
  row_count: number;
  input: Uint8Array;
}

/** An upload read into chunks: the chunks, the input's columns (JSON lines: every key seen, first-seen order) and the rows. */
export interface ReadUpload {
  chunks: UploadChunk[];
  columns: string[];
  rows: number;
}

/**
 * Reads an uploaded file (UTF-8 bytes) into packed chunks of `chunkRows` rows (batch-input.ts checks each row
 * as the single lookup would). Throws INVALID_ARGUMENT naming `body` for a file that cannot be read as a whole,
 * or that is not UTF-8 text. An engine thread runs it for the server: the work grows with the file.
 */
export function readUpload(bytes: Uint8Array, input: BatchInputOptions, chunkRows: number): ReadUpload {
  const steps = uploadSteps(bytes, input, chunkRows);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** {@link readUpload} giving the event loop a turn after each chunk (where it runs on a thread that answers requests). */
export async function readUploadYielding(bytes: Uint8Array, input: BatchInputOptions, chunkRows: number): Promise<ReadUpload> {
  const steps = uploadSteps(bytes, input, chunkRows);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The reading of an upload, a step per chunk. */
function* uploadSteps(bytes: Uint8Array, input: BatchInputOptions, chunkRows: number): Generator<void, ReadUpload> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new EngineError('INVALID_ARGUMENT', 'the upload is not UTF-8 text', { parameter: 'body', reason: 'not_utf8' });
  }
  const chunks: UploadChunk[] = [];
  let columns: string[] = [];
  const seen = new Set<string>();
  let rows: BatchRow[] = [];
  let total = 0;
  const flush = () => {
    if (!rows.length) return;
    chunks.push({ first_row: rows[0].row, row_count: rows.length, input: packLines(rows) });
    rows = [];
  };
  for (const r of batchRows(text, input, (c) => (columns = [...c]))) {
    if (input.format === 'jsonl') collectColumns(columns, seen, r.cells);
    rows.push(r);
    total++;
    if (rows.length >= chunkRows) {
      flush();
      yield;
    }
  }
  flush();
  return { chunks, columns, rows: total };
}

/**
 * The records of a stored chunk's results in an output file (`writer`'s format): the pack unpacked, the rows the
 * meter charged marked (`chargedRows`, when the pack says `charged: false` throughout), each row written. An
 * engine thread runs it for the server's downloads: a chunk of full payloads is tens of megabytes of JSON.
 */
export function packedRowsText(packed: Uint8Array, chargedRows: readonly number[] | null, output: BatchOutputOptions, first: boolean, payloads: Iterable<readonly [string, Uint8Array]> = []): string {
  const rows = withPayloads(unpackLines<StoredBatchRow>(packed), payloads);
  if (chargedRows) for (const i of chargedRows) if (rows[i]) rows[i].charged = true;
  const writer = new BatchFileWriter(output);
  if (!first) writer.resumeAfter(1);
  let text = '';
  for (const r of rows) text += writer.row(r);
  return text;
}
