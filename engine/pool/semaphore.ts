/**
 * A counting semaphore with a first-in, first-out queue: at most `slots` holders at once, the others wait in
 * arrival order. The engine bounds concurrent property lookups with it.
 */
import { invalidArgument } from '../errors.js';

export class Semaphore {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly slots: number) {
    if (!(Number.isInteger(slots) && slots >= 1)) throw invalidArgument('slots', `a semaphore needs at least 1 slot, got ${slots}`);
    this.free = slots;
  }

  /** Holders now. */
  get held(): number {
    return this.slots - this.free;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves once a slot is this caller's; pair with {@link release}. */
  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Gives a slot back: to the longest waiter, or to the pool. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else if (this.free < this.slots) this.free++;
    else throw new Error('Semaphore released more times than acquired');
  }
}
