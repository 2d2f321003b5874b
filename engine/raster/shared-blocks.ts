/**
 * Decoded raster blocks shared by every thread of a process. Decoding a GeoTIFF block (DEFLATE and a
 * floating-point predictor, in JavaScript) is the costliest step of a raster read, and a lookup reads a dozen
 * rasters; threads that each decoded and kept their own blocks paid it once per thread and held the bytes
 * once per thread. Here a block's bytes are copied once into a SharedArrayBuffer, which every thread reads
 * without copying.
 *
 * This module is the reader's side (geotiff-reader.ts asks {@link blockShare} before decoding and offers what
 * it decoded). A thread that has no share (the default) keeps its own block cache as before; an engine thread
 * installs one (engine/threads/thread-blocks.ts) whose blocks its owner bounds and spreads to the others.
 */

/** Where a thread finds blocks decoded by any thread of the process. */
export interface BlockShare {
  /** The bytes of a decoded block, or undefined when no thread has offered them (yet). */
  get(key: string): SharedArrayBuffer | undefined;
  /** Offers a block this thread decoded (its bytes are copied; `data` stays the caller's). */
  put(key: string, data: ArrayBuffer): void;
}

let share: BlockShare | null = null;

/** Installs this thread's share of decoded blocks (null: none, each read uses the thread's own cache). */
export function setBlockShare(s: BlockShare | null): void {
  share = s;
}

/** This thread's share of decoded blocks, or null. */
export function blockShare(): BlockShare | null {
  return share;
}

/** A copy of `data` in a new SharedArrayBuffer. */
export function sharedCopy(data: ArrayBuffer): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(data.byteLength);
  new Uint8Array(sab).set(new Uint8Array(data));
  return sab;
}
