// API key secrets: format, hashing, constant-time matching, and the Bearer header.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerToken, generateKey, hashKey, keyIdOf, keyMatches } from '../../server/keys/api-key.js';

describe('API keys', () => {
  it('are random pi_<12 hex>_<43 base64url> strings whose id is readable from the key', () => {
    const a = generateKey();
    const b = generateKey();
    expect(a.key).toMatch(/^pi_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    expect(keyIdOf(a.key)).toBe(a.id);
    expect(a.key.startsWith(`pi_${a.id}_`)).toBe(true);
  });

  it('are stored as their SHA-256 only', () => {
    const g = generateKey();
    expect(g.hash).toBe(createHash('sha256').update(g.key).digest('hex'));
    expect(hashKey(g.key)).toBe(g.hash);
    expect(g.hash).not.toContain(g.key.slice(16));
  });

  it('match only the exact secret', () => {
    const g = generateKey();
    expect(keyMatches(g.key, g.hash)).toBe(true);
    const last = g.key.at(-1) === 'A' ? 'B' : 'A';
    expect(keyMatches(g.key.slice(0, -1) + last, g.hash)).toBe(false);
    expect(keyMatches(`${g.key} `, g.hash)).toBe(false);
    expect(keyMatches(g.key, 'abc')).toBe(false); // a malformed stored hash never matches
  });

  it('refuse text that is not shaped like a key', () => {
    for (const s of ['', 'pi_', 'pi_0123456789ab', 'pi_0123456789AB_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'xx_0123456789ab_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', `pi_0123456789ab_${'A'.repeat(44)}`]) {
      expect(keyIdOf(s), s).toBeNull();
    }
  });
});

describe('the Bearer header (RFC 6750)', () => {
  it('reads the token, whatever the scheme\'s case', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer   abc  ')).toBe('abc');
    expect(bearerToken('BEARER abc')).toBe('abc');
  });

  it('is null when absent, empty, another scheme or more than one token', () => {
    for (const h of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Token abc', 'Bearer a b']) expect(bearerToken(h), String(h)).toBeNull();
  });
});
