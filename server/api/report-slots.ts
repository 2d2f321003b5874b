/**
 * Fair report slots (issue 47): the renderer takes `total` reports at once, and no key more than `perKey` of
 * them (half, rounded up: one of two), so one key's slow renders never hold every slot while another key's
 * report waits. A request that cannot start now (every slot taken, or its key at its share) waits, at most
 * `total` per key (past that 429 `renderer_busy` at once: do not fan out); a freed slot goes to the waiting
 * request whose key holds fewest and is under its share, first come first among equals; a wait past
 * `maxWaitMs` is refused the same way. A slot stays free rather than go to a key past its share: that is what
 * keeps one for the next key.
 */
import { ApiError } from '../http/api-error.js';
import { REPORT_RETRY_AFTER_S } from './api-types.js';

interface Waiter {
  key: string;
  grant: () => void;
}

export class ReportSlots {
  readonly perKey: number;
  private readonly maxWaitMs: number;
  private inFlight = 0;
  private readonly held = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly total: number,
    options: { perKey?: number; maxWaitMs?: number } = {},
  ) {
    this.maxWaitMs = options.maxWaitMs ?? 10_000;
    this.perKey = Math.max(1, Math.min(total, options.perKey ?? Math.ceil(total / 2)));
  }

  /** Renders in flight now (all keys). */
  get busy(): number {
    return this.inFlight;
  }

  private refuse(why: string): ApiError {
    return new ApiError('renderer_busy', `${why}; retry after ${REPORT_RETRY_AFTER_S} s and do not fan out report requests`, { retry_after_s: REPORT_RETRY_AFTER_S, concurrency: this.total, per_key: this.perKey }, { 'Retry-After': String(REPORT_RETRY_AFTER_S) });
  }

  /** A slot for `key`, now or once one frees up; an ApiError (429 `renderer_busy`) when it cannot have one. */
  acquire(key: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new ApiError('client_closed', 'the client closed the connection before its report started'));
    const mine = this.held.get(key) ?? 0;
    if (mine < this.perKey && this.inFlight < this.total) {
      this.take(key);
      return Promise.resolve();
    }
    const queued = this.waiting.filter((w) => w.key === key).length;
    if (queued >= this.total) return Promise.reject(this.refuse(`this key has ${mine} report${mine === 1 ? '' : 's'} rendering (its share is ${this.perKey} of ${this.total} at once) and ${queued} waiting`));
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        const i = this.waiting.indexOf(w);
        if (i >= 0) this.waiting.splice(i, 1);
        clearTimeout(timer);
        reject(new ApiError('client_closed', 'the client closed the connection while its report waited'));
      };
      const w: Waiter = {
        key,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', leave);
          this.take(key);
          resolve();
        },
      };
      signal?.addEventListener('abort', leave, { once: true });
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', leave);
        const i = this.waiting.indexOf(w);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(this.refuse(`no render slot came free for this key within ${this.maxWaitMs / 1000} s (${this.total} at once, ${this.perKey} per key)`));
      }, this.maxWaitMs);
      timer.unref?.();
      this.waiting.push(w);
    });
  }

  /** Gives `key`'s slot back, and free slots to the waiting requests of the keys holding fewest. */
  release(key: string): void {
    const mine = (this.held.get(key) ?? 1) - 1;
    if (mine > 0) this.held.set(key, mine);
    else this.held.delete(key);
    this.inFlight--;
    while (this.inFlight < this.total) {
      let best = -1;
      for (let i = 0; i < this.waiting.length; i++) {
        const h = this.held.get(this.waiting[i].key) ?? 0;
        if (h < this.perKey && (best < 0 || h < (this.held.get(this.waiting[best].key) ?? 0))) best = i;
      }
      if (best < 0) return;
      const [w] = this.waiting.splice(best, 1);
      w.grant();
    }
  }

  private take(key: string): void {
    this.inFlight++;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
  }
}
