// Fair report slots (server/api/report-slots.ts, issue 47): a key's share, the wait for a slot, who gets a
// freed slot, and the limits of waiting.
import { describe, expect, it } from 'vitest';
import { ReportSlots } from '../../server/api/report-slots.js';

const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code);
const settled = async <T>(p: Promise<T>) => Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20))]);

describe('report slots', () => {
  it('give a key at most half of them (rounded up): its next waits, and another key takes the free slot', async () => {
    const s = new ReportSlots(2);
    expect([s.perKey, new ReportSlots(4).perKey, new ReportSlots(1).perKey]).toEqual([1, 2, 1]);
    await s.acquire('a');
    const a2 = s.acquire('a');
    expect(await settled(a2)).toBe(false); // waiting: a holds its share
    expect(await code(s.acquire('b'))).toBe('ok'); // the slot a may not take is b's
    expect(s.busy).toBe(2);
    s.release('a');
    expect(await code(a2)).toBe('ok'); // a's turn once it is back under its share
  });

  it('hand a freed slot to the waiting key holding fewest, first come first among equals', async () => {
    const s = new ReportSlots(3, { perKey: 2 });
    await s.acquire('a');
    await s.acquire('a');
    await s.acquire('b');
    const order: string[] = [];
    const a3 = s.acquire('a').then(() => order.push('a'));
    const b2 = s.acquire('b').then(() => order.push('b'));
    const c1 = s.acquire('c').then(() => order.push('c'));
    s.release('b'); // b holds 0 now, c 0, a 2 (at its share): b waited before c
    await b2;
    s.release('a'); // a holds 1, c 0: c
    await c1;
    expect(order).toEqual(['b', 'c']);
    s.release('b');
    await a3;
    expect(order).toEqual(['b', 'c', 'a']);
  });

  it('refuse a key with as many waiting as there are slots, and a wait past its limit', async () => {
    const s = new ReportSlots(1, { maxWaitMs: 40 });
    await s.acquire('a');
    const waiting = s.acquire('a');
    expect(await code(s.acquire('a'))).toBe('renderer_busy');
    const t0 = Date.now();
    expect(await code(waiting)).toBe('renderer_busy');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(20);
    // The refused wait left no trace: the next waiter is served when the slot frees.
    const b = s.acquire('b');
    s.release('a');
    expect(await code(b)).toBe('ok');
  });

  it('gives up the place of a waiting request whose client left, and never renders for it', async () => {
    const s = new ReportSlots(1);
    await s.acquire('a');
    const gone = new AbortController();
    const left = s.acquire('b', gone.signal);
    const next = s.acquire('c');
    gone.abort();
    expect(await code(left)).toBe('client_closed');
    s.release('a');
    expect(await code(next)).toBe('ok');
    expect(s.busy).toBe(1);
    expect(await code(s.acquire('d', AbortSignal.abort()))).toBe('client_closed');
  });
});

