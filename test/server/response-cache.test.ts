// The response cache: expiry from the payload's as_at, the byte bound, and recently used entries kept.
import { describe, expect, it } from 'vitest';
import { serialisePayload } from '../../server/api/payload-body.js';
import { payloadExpiry, ResponseCache, type CachedResponse } from '../../server/api/response-cache.js';

const DAY = 86_400_000;

function entry(size: number, expiresAt = Infinity): CachedResponse {
  return { body: serialisePayload({ data: 'x'.repeat(size), meta: { a: 1 } }), addressKey: 'A', label: null, sandbox: false, chargeable: true, expiresAt };
}

describe('the response cache', () => {
  it('expires an entry when its earliest part would: layers after 7 days, scores after 31', () => {
    const now = Date.parse('2026-11-25T00:00:00Z');
    const layersAt = '2026-11-20T00:00:00.000Z';
    const scoresAt = '2026-10-30T00:00:00.000Z';
    expect(payloadExpiry({ meta: { as_at: { layer_features: layersAt, scores: scoresAt } } }, now, 7 * DAY, 31 * DAY)).toBe(Date.parse('2026-11-27T00:00:00Z'));
    expect(payloadExpiry({ meta: { as_at: { layer_features: layersAt, scores: '2026-10-22T00:00:00.000Z' } } }, now, 7 * DAY, 31 * DAY)).toBe(Date.parse('2026-11-22T00:00:00Z'));
    expect(payloadExpiry({ meta: {} }, now, 7 * DAY, 31 * DAY)).toBe(now + 7 * DAY);
    const c = new ResponseCache();
    c.set('k', entry(10, now + 1000));
    expect(c.get('k', now + 999)?.addressKey).toBe('A');
    expect(c.get('k', now + 1000)).toBeUndefined();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
  });

  it('holds at most its byte bound, dropping the least recently used first', () => {
    const one = entry(4000).body.bytes;
    const c = new ResponseCache(one * 4 + 10);
    for (const k of ['a', 'b', 'c', 'd']) c.set(k, entry(4000));
    for (let i = 0; i < 10; i++) c.get('a', 0); // a is hot
    c.set('e', entry(4000));
    expect(c.size).toBe(4);
    expect(c.bytes).toBeLessThanOrEqual(one * 4 + 10);
    expect(c.get('a', 0)?.addressKey).toBe('A');
    expect(c.get('b', 0)).toBeUndefined();
    expect(c.get('e', 0)?.addressKey).toBe('A');
    // Replacing an entry does not count its bytes twice.
    c.set('e', entry(4000));
    expect(c.bytes).toBe(one * 4);
  });

  it('does not hold an entry larger than a quarter of its bound', () => {
    const c = new ResponseCache(1000);
    c.set('big', entry(5000));
    expect(c.size).toBe(0);
  });
});
