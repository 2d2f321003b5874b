/**
 * Decoded raster blocks shared by the engine threads of a process (engine/raster/shared-blocks.ts says why).
 *
 * - In each thread, {@link ThreadBlocks}: the blocks this thread can read, by key, as SharedArrayBuffers. A
 *   block it decodes is copied into one and sent to the owner; the keys it reads are reported now and then,
 *   so the owner knows which blocks are in use.
 * - In the owner, {@link BlockHub}: one least-recently-used bound over every thread's blocks (the engine's
 *   `rasterBlockCacheBytes`, as one thread had before), the first copy of a block kept and sent to every other
 *   thread (a second copy, decoded at the same time elsewhere, is answered with the first, so all threads hold
 *   the same bytes), and a block pushed out of the bound dropped by every thread.
 *
 * The owner only files and forwards references; the bytes are shared memory, counted once however many
 * threads read them.
 */
import { LruCache } from '../cache/lru-cache.js';
import { sharedCopy, type BlockShare } from '../raster/shared-blocks.js';

/** What a thread tells the owner about blocks. */
export type BlockNews = { type: 'block'; key: string; sab: SharedArrayBuffer } | { type: 'touch'; keys: string[] };

/** What the owner tells a thread about blocks. */
export type BlockOrders = { type: 'blocks'; entries: [string, SharedArrayBuffer][] } | { type: 'drop'; keys: string[] };

/** How often a thread reports the blocks it read, ms. */
const TOUCH_EVERY_MS = 1_000;

/** A thread's side (see the module comment). */
export class ThreadBlocks implements BlockShare {
  private readonly map = new Map<string, SharedArrayBuffer>();
  private touched = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly send: (m: BlockNews) => void) {
    this.timer = setInterval(() => this.flush(), TOUCH_EVERY_MS);
    this.timer.unref?.();
  }

  get(key: string): SharedArrayBuffer | undefined {
    const b = this.map.get(key);
    if (b) this.touched.add(key);
    return b;
  }

  put(key: string, data: ArrayBuffer): void {
    const sab = sharedCopy(data);
    this.map.set(key, sab);
    this.send({ type: 'block', key, sab });
  }

  /** Follows the owner's orders. */
  receive(m: BlockOrders): void {
    if (m.type === 'blocks') for (const [k, sab] of m.entries) this.map.set(k, sab);
    else for (const k of m.keys) this.map.delete(k);
  }

  /** Blocks held. */
  get size(): number {
    return this.map.size;
  }

  private flush(): void {
    if (!this.touched.size) return;
    const keys = [...this.touched];
    this.touched = new Set();
    this.send({ type: 'touch', keys });
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** The owner's side (see the module comment). */
export class BlockHub {
  private readonly lru: LruCache<string, SharedArrayBuffer>;
  private dropped: string[] = [];

  /**
   * `maxBytes` of blocks across the threads; `tell(order, except)` sends an order to every thread but
   * `except` (or every thread, when undefined).
   */
  constructor(maxBytes: number, private readonly tell: (order: BlockOrders, except?: number) => void, private readonly tellOne: (slot: number, order: BlockOrders) => void) {
    this.lru = new LruCache({ maxSize: maxBytes, sizeOf: (b) => b.byteLength, onEvict: (_b, key) => this.dropped.push(key) });
  }

  /** Blocks held, and their bytes. */
  get stats(): { blocks: number; bytes: number } {
    return { blocks: this.lru.size, bytes: this.lru.bytes };
  }

  /** News from the thread in `slot`. */
  heard(slot: number, m: BlockNews): void {
    if (m.type === 'touch') {
      for (const k of m.keys) this.lru.get(k);
      return;
    }
    const first = this.lru.get(m.key);
    if (first) {
      // Decoded twice at once: the second thread reads the first copy instead of keeping its own.
      this.tellOne(slot, { type: 'blocks', entries: [[m.key, first]] });
      return;
    }
    if (!this.lru.set(m.key, m.sab)) return;
    this.tell({ type: 'blocks', entries: [[m.key, m.sab]] }, slot);
    if (this.dropped.length) {
      const keys = this.dropped;
      this.dropped = [];
      this.tell({ type: 'drop', keys });
    }
  }

  /** Every block held: what a thread just started is given. */
  entries(): [string, SharedArrayBuffer][] {
    return [...this.lru.entries()];
  }
}
