/**
 * The messages between an engine and its engine threads (engine-threads.ts, engine-thread.ts). A call is
 * `{ call, id, method, args }` and is answered once by `{ result, id, ok, value | error }`; `{ cancel, id }`
 * asks the thread to stop a call (its AbortSignal fires; the answer still comes, usually `ABORTED`); `close`
 * has it close its engine and end; `blocks`, `drop`, `block` and `touch` share decoded raster blocks
 * (thread-blocks.ts). A thread
 * says `ready` once its engine is open, or `failed` when it could not open it.
 *
 * Errors cross as {@link SerializedError} (a custom Error subclass does not survive `postMessage`); `plain`
 * marks a throw that was not an EngineError (a bug), so the caller rethrows a plain Error as the engine
 * would have in its own thread.
 */
import type { SerializedError } from '../errors.js';
import type { BlockNews, BlockOrders } from './thread-blocks.js';

/** What the engine sends a thread. */
export type ToThread = { type: 'call'; id: number; method: string; args: unknown[] } | { type: 'cancel'; id: number } | { type: 'close' } | BlockOrders;

/** What a thread sends its engine. */
export type FromThread =
  | { type: 'ready'; tid: number | null }
  | { type: 'failed'; error: SerializedError }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: SerializedError; plain: boolean }
  | BlockNews;

/**
 * The distinct ArrayBuffers reachable from `value` that may be moved rather than copied: those a view covers
 * whole. A view into a larger buffer (Node's pooled small Buffers among them) is copied with the message,
 * never transferred: moving the pool would detach every other Buffer cut from it.
 */
export function movableBuffers(value: unknown, out = new Set<ArrayBuffer>(), depth = 0): Set<ArrayBuffer> {
  if (value === null || typeof value !== 'object' || depth > 10) return out;
  if (ArrayBuffer.isView(value)) {
    const b = value.buffer;
    if (b instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === b.byteLength && b.byteLength > 0) out.add(b);
    return out;
  }
  if (value instanceof ArrayBuffer) return out;
  if (Array.isArray(value)) {
    for (const v of value) movableBuffers(v, out, depth + 1);
    return out;
  }
  for (const v of Object.values(value)) movableBuffers(v, out, depth + 1);
  return out;
}
