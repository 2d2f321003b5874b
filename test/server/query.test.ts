// Query strings of the property endpoints: decoding, and the canonical form the response cache keys on.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/http/api-error.js';
import { decodeQuery, parsePropertyQuery } from '../../server/api/query.js';

describe('property query strings', () => {
  it('decode form encoding (+ is a space) and percent escapes', () => {
    const p = parsePropertyQuery('address=91+Cumberland%20Grove%2C+Northcote&components=das,scores.noise&include_geometry=true', 'full');
    expect(p.subject).toEqual({ address: '91 Cumberland Grove, Northcote' });
    expect(p.options).toEqual({ variant: 'full', components: ['das', 'scores.noise'], include_geometry: true });
  });

  it('have one canonical form whatever the order or the spelling of booleans and numbers', () => {
    const a = parsePropertyQuery('lat=-37.8&lng=145&include_geometry=1&school_radius_m=800', 'full');
    const b = parsePropertyQuery('school_radius_m=0800&include_geometry=TRUE&lng=145.0&lat=-37.80', 'full');
    expect(b.canonical).toBe(a.canonical);
    expect(parsePropertyQuery('lat=-37.8&lng=145&include_geometry=0', 'full').canonical).not.toBe(a.canonical);
  });

  it('refuse a repeated name, naming it', () => {
    const err = (() => {
      try {
        decodeQuery('a=1&b=2&a=3');
      } catch (e) {
        return e as ApiError;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect(err!.status).toBe(422);
    expect(err!.body()).toEqual({ error: 'duplicate_parameter', message: 'a was given more than once; give it once', parameter: 'a' });
  });

  it('cut an absurdly long unknown name in the message', () => {
    try {
      parsePropertyQuery(`${'x'.repeat(500)}=1`, 'full');
      expect.unreachable();
    } catch (e) {
      expect((e as ApiError).body().parameter).toBe(`${'x'.repeat(60)}...`);
    }
  });
});
