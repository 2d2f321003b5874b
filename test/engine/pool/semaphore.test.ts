// The semaphore behind the engine's bound on concurrent lookups: never more holders than slots, waiters
// served in arrival order, every acquire eventually served.
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../../engine/pool/semaphore.js';

describe('Semaphore', () => {
  it('holds at most its slots and serves waiters first in, first out', async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    let inside = 0;
    let most = 0;
    const job = async (i: number, ms: number) => {
      await s.acquire();
      order.push(i);
      inside++;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, ms));
      inside--;
      s.release();
    };
    await Promise.all([job(0, 30), job(1, 5), job(2, 5), job(3, 5), job(4, 1)]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect([s.held, s.queued]).toEqual([0, 0]);
    expect(() => s.release()).toThrow(/released more times than acquired/);
    expect(() => new Semaphore(0)).toThrow(/at least 1 slot/);
  });
});
