/**
 * The priority queue of the fill: a binary min-heap of (elevation, cell) pairs over typed arrays. No
 * per-cell objects, so a 16-million-cell DEM does not touch the GC.
 */

/** A min-heap keyed by elevation, holding flat cell indices. Ties pop in no guaranteed order. */
export class CellHeap {
  private keys: Float64Array;
  private cells: Int32Array;
  /** Number of entries. */
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.cells = new Int32Array(Math.max(16, capacity));
  }

  /** Adds `cell` with priority `key`. */
  push(key: number, cell: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const cells = this.cells;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = keys[p];
      if (pk <= key) break;
      keys[i] = pk;
      cells[i] = cells[p];
      i = p;
    }
    keys[i] = key;
    cells[i] = cell;
  }

  /** The smallest key (undefined behaviour when empty). */
  peekKey(): number {
    return this.keys[0];
  }

  /** Removes and returns the cell with the smallest key. */
  pop(): number {
    const keys = this.keys;
    const cells = this.cells;
    const top = cells[0];
    const n = --this.size;
    if (n > 0) {
      const key = keys[n];
      const cell = cells[n];
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && keys[c + 1] < keys[c]) c++;
        if (keys[c] >= key) break;
        keys[i] = keys[c];
        cells[i] = cells[c];
        i = c;
      }
      keys[i] = key;
      cells[i] = cell;
    }
    return top;
  }

  private grow(): void {
    const k = new Float64Array(this.keys.length * 2);
    k.set(this.keys);
    const c = new Int32Array(this.cells.length * 2);
    c.set(this.cells);
    this.keys = k;
    this.cells = c;
  }
}
