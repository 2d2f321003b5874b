// Billing periods in Australia/Melbourne time: calendar and anchored keys, daylight saving, clamping to short
// months, the onboarding window, and the per-period cache against the direct computation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billingPeriod, BillingPeriodCache, inOnboarding, melbourneIso, melbourneMidnight, melbourneOffsetMs, parseIsoDate } from '../../server/metering/billing-period.js';

const H = 3_600_000;

describe('Melbourne time', () => {
  it('is UTC+11 in summer (AEDT) and UTC+10 in winter (AEST)', () => {
    expect(melbourneOffsetMs(Date.parse('2026-01-15T00:00:00Z'))).toBe(11 * H);
    expect(melbourneOffsetMs(Date.parse('2026-07-15T00:00:00Z'))).toBe(10 * H);
  });

  it('switches at 03:00 AEDT on the first Sunday of April and 02:00 AEST on the first Sunday of October', () => {
    // 5 April 2026: 03:00 AEDT = 16:00Z on the 4th becomes 02:00 AEST.
    expect(melbourneOffsetMs(Date.parse('2026-04-04T15:59:59Z'))).toBe(11 * H);
    expect(melbourneOffsetMs(Date.parse('2026-04-04T16:00:00Z'))).toBe(10 * H);
    // 4 October 2026: 02:00 AEST = 16:00Z on the 3rd becomes 03:00 AEDT.
    expect(melbourneOffsetMs(Date.parse('2026-10-03T15:59:59Z'))).toBe(10 * H);
    expect(melbourneOffsetMs(Date.parse('2026-10-03T16:00:00Z'))).toBe(11 * H);
  });

  it('finds local midnight on either side of a change', () => {
    expect(melbourneMidnight(2026, 4, 5).toISOString()).toBe('2026-04-04T13:00:00.000Z'); // still AEDT at midnight
    expect(melbourneMidnight(2026, 4, 6).toISOString()).toBe('2026-04-05T14:00:00.000Z'); // AEST
    expect(melbourneMidnight(2026, 10, 4).toISOString()).toBe('2026-10-03T14:00:00.000Z'); // AEST at midnight
    expect(melbourneMidnight(2026, 10, 5).toISOString()).toBe('2026-10-04T13:00:00.000Z'); // AEDT
  });

  it('writes RFC 3339 with the local offset', () => {
    expect(melbourneIso(new Date('2026-11-30T13:00:00Z'))).toBe('2026-12-01T00:00:00+11:00');
    expect(melbourneIso(new Date('2026-06-30T14:00:00Z'))).toBe('2026-07-01T00:00:00+10:00');
  });
});

describe('calendar periods', () => {
  it('are the Melbourne month: YYYYMM, resetting at local midnight on the 1st', () => {
    const before = billingPeriod(new Date('2026-11-30T12:59:59.999Z'), 'calendar');
    expect(before.key).toBe('202611');
    expect(before.start.toISOString()).toBe('2026-10-31T13:00:00.000Z');
    expect(before.resetsAtText).toBe('2026-12-01T00:00:00+11:00');
    const after = billingPeriod(new Date('2026-11-30T13:00:00.000Z'), 'calendar');
    expect(after.key).toBe('202612');
    expect(after.resetsAtText).toBe('2027-01-01T00:00:00+11:00');
  });

  it('follow Melbourne, not UTC: 1 July 00:30 AEST is already July', () => {
    expect(billingPeriod(new Date('2026-06-30T14:30:00Z'), 'calendar').key).toBe('202607');
    expect(billingPeriod(new Date('2026-06-30T13:59:59Z'), 'calendar').key).toBe('202606');
  });
});

describe('anchored periods', () => {
  it('start on the effective date\'s day of the month: YYYYMMDD', () => {
    const p = billingPeriod(new Date('2026-11-25T01:00:00Z'), 'anchored', '2025-03-17');
    expect(p.key).toBe('20261117');
    expect(p.resetsAtText).toBe('2026-12-17T00:00:00+11:00');
    const q = billingPeriod(new Date('2026-11-10T01:00:00Z'), 'anchored', '2025-03-17');
    expect(q.key).toBe('20261017');
    expect(q.resetsAtText).toBe('2026-11-17T00:00:00+11:00');
  });

  it('clamp an anchor on the 31st to short months (leap years included)', () => {
    expect(billingPeriod(new Date('2028-02-29T02:00:00Z'), 'anchored', '2026-01-31').key).toBe('20280229');
    expect(billingPeriod(new Date('2028-02-28T02:00:00Z'), 'anchored', '2026-01-31').key).toBe('20280131');
    expect(billingPeriod(new Date('2027-02-28T02:00:00Z'), 'anchored', '2026-01-31')).toMatchObject({ key: '20270228', resetsAtText: '2027-03-31T00:00:00+11:00' });
    expect(billingPeriod(new Date('2026-04-30T03:00:00Z'), 'anchored', '2026-01-31')).toMatchObject({ key: '20260430', resetsAtText: '2026-05-31T00:00:00+10:00' });
  });

  it('need a real effective date', () => {
    expect(() => billingPeriod(new Date(), 'anchored', null)).toThrow(/effective date/);
    expect(() => billingPeriod(new Date(), 'anchored', '2026-02-30')).toThrow(/effective date/);
  });

  it('always contain the instant they were computed for, and tile time without gaps', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2020-01-01'), max: Date.parse('2035-01-01') }), fc.integer({ min: 1, max: 31 }), (t, day) => {
        const eff = `2024-01-${String(day).padStart(2, '0')}`;
        for (const [kind, e] of [['calendar', null], ['anchored', eff]] as const) {
          const p = billingPeriod(new Date(t), kind, e);
          expect(p.start.getTime()).toBeLessThanOrEqual(t);
          expect(p.resetsAt.getTime()).toBeGreaterThan(t);
          const next = billingPeriod(p.resetsAt, kind, e);
          expect(next.start.getTime()).toBe(p.resetsAt.getTime());
          expect(next.key).not.toBe(p.key);
          const prev = billingPeriod(new Date(p.start.getTime() - 1), kind, e);
          expect(prev.resetsAt.getTime()).toBe(p.start.getTime());
        }
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});

describe('the period cache', () => {
  it('answers as billingPeriod does for any sequence of instants', () => {
    const cache = new BillingPeriodCache();
    fc.assert(
      fc.property(fc.array(fc.integer({ min: Date.parse('2026-01-01'), max: Date.parse('2027-06-01') }), { minLength: 1, maxLength: 30 }), (times) => {
        for (const t of times) {
          expect(cache.get(new Date(t), 'calendar')).toEqual(billingPeriod(new Date(t), 'calendar'));
          expect(cache.get(new Date(t), 'anchored', '2025-05-09')).toEqual(billingPeriod(new Date(t), 'anchored', '2025-05-09'));
        }
      }),
      { numRuns: 100, seed: 7 },
    );
  });
});

describe('onboarding window', () => {
  it('runs through the end of the given day in Melbourne', () => {
    expect(inOnboarding(new Date('2026-12-01T12:59:59Z'), '2026-12-01')).toBe(true); // 23:59:59 AEDT
    expect(inOnboarding(new Date('2026-12-01T13:00:00Z'), '2026-12-01')).toBe(false);
    expect(inOnboarding(new Date('2026-12-01T13:00:00Z'), null)).toBe(false);
  });

  it('parses only real dates', () => {
    expect(parseIsoDate('2026-02-29')).toBeNull();
    expect(parseIsoDate('2028-02-29')).toEqual({ y: 2028, m: 2, d: 29 });
    expect(parseIsoDate('2026-1-5')).toBeNull();
  });
});
