// Fair report slots (server/api/report-slots.ts, issue 47): a key's share, the wait for a free slot, who gets
// a freed slot, and the wait's limit.
import { describe, expect, it } from 'vitest';
import { ReportSlots } from '../../server/api/report-slots.js';

const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code);

describe('report slots', () => {
  it('give a key at most half of them (rounded up), and another key a slot meanwhile', async () => {
    const s = new ReportSlots(2);
    expect(s.perKey).toBe(1);
    await s.acquire('a');
    expect(await code(s.acquire('a'))).toBe('renderer_busy');
    expect(await code(s.acquire('b'))).toBe('ok');
    expect(s.busy).toBe(2);
    expect(new ReportSlots(4).perKey).toBe(2);
    expect(new ReportSlots(1).perKey).toBe(1);
  });

  it('hand a freed slot to the waiting key holding fewest, first come first among equals', async () => {
    const s = new ReportSlots(3, { perKey: 2 });
    await s.acquire('a');
    await s.acquire('a');
    await s.acquire('b');
    const order: string[] = [];
    // All three slots taken: b (holding 1) and c (holding 0) wait; a is at its share.
    const b2 = s.acquire('b').then(() => order.push('b'));
    const c1 = s.acquire('c').then(() => order.push('c'));
    expect(await code(s.acquire('a'))).toBe('renderer_busy');
    expect(await code(s.acquire('c'))).toBe('renderer_busy'); // one waiting request per key
    s.release('a');
    await c1;
    expect(order).toEqual(['c']);
    s.release('a');
    await b2;
    expect(order).toEqual(['c', 'b']);
    expect(s.busy).toBe(3);
  });

  it('refuse a wait that runs past its limit', async () => {
    const s = new ReportSlots(1, { maxWaitMs: 30 });
    await s.acquire('a');
    const t0 = Date.now();
    expect(await code(s.acquire('b'))).toBe('renderer_busy');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    // The refused wait left no trace: the next waiter is served when the slot frees.
    const b = s.acquire('b');
    s.release('a');
    expect(await code(b)).toBe('ok');
  });
});
