/**
 * A batch chunk's rows and results as they are stored and sent between threads: gzipped JSON lines, each
 * line ended by a newline, so the packs of a chunk's parts, looked up on different threads, concatenate into
 * one (gzip readers read concatenated members as one stream).
 *
 * Results are packed where they were computed (an engine thread), with `charged: false` on every row: which
 * rows the meter charged is decided later, when the chunk commits, and stored beside the pack (a list of row
 * positions), so the thread that commits never parses, rewrites or compresses a payload.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { BatchRow } from './batch-input.js';
import { lookupRows, type BatchLookupService, type BatchRowMeta, type BatchRowResult, type LookupRowsOptions, type PackedResults } from './batch-run.js';

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

export type { BatchRowMeta, PackedResults } from './batch-run.js';

/** Packs `results` (see the module comment). */
export function packResults(results: readonly BatchRowResult[]): PackedResults {
  const meta: BatchRowMeta[] = [];
  let failed = 0;
  for (const r of results) {
    const { payload: _p, cells: _c, ...m } = r;
    meta.push(m);
    if (r.status !== 'ok') failed++;
  }
  return { meta, packed: packLines(results.map((r) => ({ ...r, charged: false }))), failed };
}

/** The packs of a chunk's parts as one, in order. */
export function joinPacked(parts: readonly PackedResults[]): PackedResults {
  return { meta: parts.flatMap((p) => p.meta), packed: Buffer.concat(parts.map((p) => p.packed)), failed: parts.reduce((a, p) => a + p.failed, 0) };
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
