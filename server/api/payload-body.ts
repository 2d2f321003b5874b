/**
 * A property payload serialised (and gzip-compressed) once and finished per request: the meter's `usage`
 * block, and a `meta.not_charged_reason` when the server (not the engine) decided the call was free, are
 * appended to the stored bytes instead of re-serialising and re-compressing a 50-400 KB payload for every
 * repeat lookup.
 *
 * Layout: the payload's fields in the engine's order with `meta` moved last (JSON objects are unordered;
 * spec 2.1 lists meta and usage last), then `usage`. The stored `prefix` ends inside meta; a request adds
 * its suffix `[,"not_charged_reason":"..."]},"usage":{...}}`.
 *
 * Compressed form (RFC 1952 gzip of one member, RFC 1951 deflate): the prefix is deflated once and ended
 * with a sync flush (byte-aligned, not final); the per-request suffix follows as a final *stored* block,
 * written by hand, so a request costs no compressor at all. The trailer's CRC-32 continues the prefix's
 * CRC over the suffix, and ISIZE is the total length. Any gzip reader sees one ordinary stream.
 */
import { crc32, gzipSync } from 'node:zlib';
import type { PayloadBody } from '../../engine/entry/property.js';

export { serialisePayload, type PayloadBody } from '../../engine/entry/property.js';

function suffixOf(body: PayloadBody, usage: Record<string, unknown>, reason?: string): Buffer {
  const extra = reason !== undefined && !body.engineReason ? `,"not_charged_reason":${JSON.stringify(reason)}` : '';
  return Buffer.from(`${extra}},"usage":${JSON.stringify(usage)}}`);
}

/**
 * The finished body, as the parts to send in order (the transport writes them without joining them first:
 * a 70 KB copy per request is measurable): the payload with `meta.not_charged_reason` = `reason` (unless
 * the engine set one, or `reason` is undefined) and `usage`; gzip-compressed when `gzip` is true.
 */
export function finishPayload(body: PayloadBody, usage: Record<string, unknown>, reason: string | undefined, gzip: boolean): Buffer[] {
  const suffix = suffixOf(body, usage, reason);
  if (!gzip) return [body.prefix, suffix];
  return [body.gzPrefix, storedBlocks(suffix), gzipTrailer(crc32(suffix, body.crc), body.prefix.length + suffix.length)];
}

/** `data` as final stored deflate blocks (RFC 1951 3.2.4), at most 65,535 bytes each. */
export function storedBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let off = 0;
  do {
    const len = Math.min(65_535, data.length - off);
    const last = off + len >= data.length;
    const h = Buffer.allocUnsafe(5);
    h[0] = last ? 0x01 : 0x00; // BFINAL, BTYPE=00; the stream is byte-aligned after the sync flush
    h.writeUInt16LE(len, 1);
    h.writeUInt16LE(~len & 0xffff, 3);
    parts.push(h, data.subarray(off, off + len));
    off += len;
  } while (off < data.length);
  return Buffer.concat(parts);
}

function gzipTrailer(crc: number, size: number): Buffer {
  const t = Buffer.allocUnsafe(8);
  t.writeUInt32LE(crc >>> 0, 0);
  t.writeUInt32LE(size >>> 0, 4);
  return t;
}

/** A static body in both forms. */
export interface StaticBody {
  identity: Buffer;
  gzip: Buffer;
}

/** Compresses a static body once. */
export function staticBody(text: string | Buffer): StaticBody {
  const identity = typeof text === 'string' ? Buffer.from(text) : text;
  return { identity, gzip: gzipSync(identity, { level: 6 }) };
}

let lastHeader = '';
let lastAnswer = false;

/**
 * True when an Accept-Encoding header (RFC 9110 12.5.3) accepts gzip: `gzip` (or `x-gzip`, or `*`) listed
 * without `q=0`. The last header seen is remembered (clients repeat theirs).
 */
export function acceptsGzip(header: string): boolean {
  if (!header) return false;
  if (header === lastHeader) return lastAnswer;
  let yes = false;
  let star: boolean | undefined;
  for (const item of header.toLowerCase().split(',')) {
    const [coding, ...params] = item.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') {
      yes = ok;
      star = undefined;
      break;
    }
    if (coding === '*') star = ok;
  }
  if (star !== undefined) yes = star;
  lastHeader = header;
  lastAnswer = yes;
  return yes;
}
