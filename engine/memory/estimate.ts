/**
 * An estimate of the memory a JavaScript value holds, for the memory report (/metrics) and for caches
 * bounded by bytes. V8 exposes no per-object sizes, so this walks the value: an ArrayBuffer or
 * SharedArrayBuffer counts its byteLength once however many views share it; a string counts one byte per
 * Latin-1 character (two otherwise) plus a header; objects, arrays, Maps and Sets count a header and a slot
 * per entry. It is an estimate of the order of magnitude (within tens of percent on typed-array-heavy
 * structures, which hold most of the engine's memory), not an exact count.
 */

const HEADER = 16;
const SLOT = 8;

/** Options of {@link estimateBytes}. */
export interface EstimateOptions {
  /** Values already counted elsewhere (shared buffers, shared sub-structures): skipped. */
  seen?: WeakSet<object>;
  /** Stop after this many objects (the rest is not counted; `truncated` says so). Default 20 million. */
  maxObjects?: number;
}

/** A walk over a value that can be run in slices (see {@link estimateAsync}). */
class Walk {
  bytes = 0;
  truncated = false;
  private objects = 0;
  private readonly stack: unknown[];
  private readonly seen: WeakSet<object>;
  private readonly max: number;

  constructor(value: unknown, options: EstimateOptions) {
    this.stack = [value];
    this.seen = options.seen ?? new WeakSet<object>();
    this.max = options.maxObjects ?? 20_000_000;
  }

  /** Walks at most `budget` objects; true when the walk is over. */
  step(budget: number): boolean {
    const { stack, seen } = this;
    let left = budget;
    while (stack.length) {
      if (left-- <= 0) return false;
      const v = stack.pop();
      switch (typeof v) {
        case 'string':
          // eslint-disable-next-line no-control-regex
          this.bytes += HEADER + (/[^\u0000-\u00ff]/.test(v) ? 2 * v.length : v.length);
          continue;
        case 'object':
          break;
        default:
          continue; // numbers and booleans sit in a slot already counted; functions are code, not data
      }
      if (v === null) continue;
      const o = v as object;
      if (seen.has(o)) continue;
      seen.add(o);
      if (++this.objects > this.max) {
        this.truncated = true;
        stack.length = 0;
        return true;
      }
      if (o instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && o instanceof SharedArrayBuffer)) {
        this.bytes += (o as ArrayBuffer).byteLength;
        continue;
      }
      if (ArrayBuffer.isView(o)) {
        this.bytes += HEADER * 4;
        stack.push(o.buffer);
        continue;
      }
      if (Array.isArray(o)) {
        this.bytes += HEADER + SLOT * o.length;
        for (let i = 0; i < o.length; i++) {
          const x = o[i];
          if (typeof x === 'object' || typeof x === 'string') stack.push(x);
        }
        continue;
      }
      if (o instanceof Map) {
        this.bytes += HEADER + 3 * SLOT * o.size;
        for (const [k, x] of o) stack.push(k, x);
        continue;
      }
      if (o instanceof Set) {
        this.bytes += HEADER + 2 * SLOT * o.size;
        for (const x of o) stack.push(x);
        continue;
      }
      if (o instanceof Promise || o instanceof WeakMap || o instanceof WeakSet) {
        this.bytes += HEADER;
        continue;
      }
      const keys = Object.keys(o);
      this.bytes += HEADER + SLOT * keys.length;
      for (const k of keys) {
        const x = (o as Record<string, unknown>)[k];
        if (typeof x === 'object' || typeof x === 'string') stack.push(x);
      }
    }
    return true;
  }
}

/** Estimated bytes of `value` and whether the walk stopped early. */
export function estimate(value: unknown, options: EstimateOptions = {}): { bytes: number; truncated: boolean } {
  const w = new Walk(value, options);
  w.step(Infinity);
  return { bytes: w.bytes, truncated: w.truncated };
}

/**
 * {@link estimate} in slices of `sliceObjects` objects, yielding to the event loop between them: a server
 * walking a few million objects keeps answering requests meanwhile.
 */
export async function estimateAsync(value: unknown, options: EstimateOptions & { sliceObjects?: number } = {}): Promise<{ bytes: number; truncated: boolean }> {
  const w = new Walk(value, options);
  while (!w.step(options.sliceObjects ?? 20_000)) await new Promise((r) => setImmediate(r));
  return { bytes: w.bytes, truncated: w.truncated };
}

/** Estimated bytes of `value` (see {@link estimate}). */
export function estimateBytes(value: unknown, options: EstimateOptions = {}): number {
  return estimate(value, options).bytes;
}
