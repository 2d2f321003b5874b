// Finishing a stored payload per request: the spliced JSON equals the object it stands for, and the
// hand-assembled gzip stream (deflated prefix + stored block + continued CRC) decompresses to the same bytes.
import fc from 'fast-check';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, finishPayload as finishParts, serialisePayload, staticBody, storedBlocks } from '../../server/api/payload-body.js';

/** The parts joined, as a transport sends them. */
const finishPayload = (...args: Parameters<typeof finishParts>) => Buffer.concat(finishParts(...args));

const payload = {
  query: { address: '1 Main St', lat: -37.8, lng: 145 },
  resolved: { address: '1 Main Street, Somewhere VIC 3000' },
  meta: { coverage_status: {}, api: { major_version: 'v1' } },
  completeness: 'partial',
  degraded_components: ['planning.overlay'],
};
const usage = { unique_addresses_this_period: 3, period_quota: 10, charged: true };

describe('finishing a payload', () => {
  it('appends meta fields and usage, moving meta and usage last', () => {
    const body = serialisePayload(payload, { documentation: { version: '1.0.0', hash: 'abc' } });
    const text = finishPayload(body, usage, 'repeat lookup', false).toString();
    const doc = JSON.parse(text);
    expect(doc).toEqual({ ...payload, meta: { ...payload.meta, documentation: { version: '1.0.0', hash: 'abc' }, not_charged_reason: 'repeat lookup' }, usage });
    expect(Object.keys(doc)).toEqual(['query', 'resolved', 'completeness', 'degraded_components', 'meta', 'usage']);
    expect(JSON.parse(finishPayload(body, usage, undefined, false).toString()).meta.not_charged_reason).toBeUndefined();
  });

  it('keeps the engine\'s own not_charged_reason rather than adding a second', () => {
    const body = serialisePayload({ ...payload, meta: { ...payload.meta, not_charged_reason: 'core components failed: planning.overlay' } });
    const text = finishPayload(body, usage, 'repeat lookup', false).toString();
    expect(text.match(/not_charged_reason/g)).toHaveLength(1);
    expect(JSON.parse(text).meta.not_charged_reason).toBe('core components failed: planning.overlay');
  });

  it('gzips to exactly the identity bytes, for any payload and usage', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()), fc.option(fc.string(), { nil: undefined }), (extra, u, reason) => {
        const p = { ...extra, meta: { x: 1 } };
        const body = serialisePayload(p);
        const plain = finishPayload(body, u, reason, false);
        const gz = finishPayload(body, u, reason, true);
        expect(gunzipSync(gz).equals(plain)).toBe(true);
        const expected = { ...Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'meta' && k !== 'usage')), meta: reason === undefined ? { x: 1 } : { x: 1, not_charged_reason: reason }, usage: u };
        // Compared as JSON (JSON has no -0).
        expect(JSON.parse(plain.toString())).toEqual(JSON.parse(JSON.stringify(expected)));
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  it('compresses a large payload well and splits a suffix over 65,535 bytes into several stored blocks', () => {
    const big = { rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, source: 'sample_vicmap_planning', state: 'VIC' })), meta: { a: 1 } };
    const body = serialisePayload(big);
    const huge = { note: 'x'.repeat(150_000) };
    const gz = finishPayload(body, huge, undefined, true);
    expect(gunzipSync(gz).equals(finishPayload(body, huge, undefined, false))).toBe(true);
    expect(body.gzPrefix.length).toBeLessThan(body.prefix.length / 5);
    const data = Buffer.alloc(140_000, 7);
    expect(inflateRawSync(storedBlocks(data)).equals(data)).toBe(true);
    expect(inflateRawSync(storedBlocks(Buffer.alloc(0))).length).toBe(0);
  });

  it('compresses static bodies once', () => {
    const s = staticBody('{"a":1}');
    expect(gunzipSync(s.gzip).toString()).toBe('{"a":1}');
  });
});

describe('Accept-Encoding', () => {
  it('accepts gzip when listed without q=0, or through *', () => {
    const yes = ['gzip', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.8', 'x-gzip', '*', 'br, *;q=0.1', 'GZIP'];
    const no = ['', 'br', 'identity', 'gzip;q=0', 'gzip;q=0.0, *', '*;q=0', 'deflate, *;q=0'];
    for (const h of yes) expect(acceptsGzip(h), h).toBe(true);
    for (const h of no) expect(acceptsGzip(h), h).toBe(false);
  });
});
