/**
 * API key secrets (DESIGN.md): random, shown once, stored only as a SHA-256 hash and compared in constant time.
 *
 * Format: `pi_<id>_<secret>`: `id` is 12 hex characters naming the key in listings, logs and the meter (not
 * secret); `secret` is 32 random bytes in base64url. The server finds the row by id and compares the
 * SHA-256 of the whole presented key with the stored hash using `crypto.timingSafeEqual`, so neither a wrong
 * secret nor a near-miss is answered faster.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Key prefix: marks the string as a propintel key (and lets secret scanners find leaked ones). */
export const KEY_PREFIX = 'pi_';

const KEY_PATTERN = /^pi_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** A freshly generated key. */
export interface GeneratedKey {
  /** The public key id. */
  id: string;
  /** The whole secret to hand to the client, once. */
  key: string;
  /** SHA-256 of `key`, hex: what the store keeps. */
  hash: string;
}

/** SHA-256 of a presented key, hex. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random key. */
export function generateKey(): GeneratedKey {
  const id = randomBytes(6).toString('hex');
  const key = `${KEY_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
  return { id, key, hash: hashKey(key) };
}

/** The key id inside a presented key, or null when the text is not shaped like a key. */
export function keyIdOf(presented: string): string | null {
  const m = KEY_PATTERN.exec(presented);
  return m ? m[1] : null;
}

/** True when `presented` hashes to `storedHash` (hex), compared in constant time. */
export function keyMatches(presented: string, storedHash: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = Buffer.from(storedHash, 'hex');
  return b.length === a.length && timingSafeEqual(a, b);
}

/**
 * The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 6750 section 2.1), or
 * null when the header is absent or uses another scheme.
 */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}
