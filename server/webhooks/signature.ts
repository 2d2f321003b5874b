/**
 * Standard Webhooks signing (standard-webhooks/standard-webhooks, spec v1.0.0): each delivery carries
 * `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the bytes of
 * the subscription's secret (`whsec_` + base64 of 32 random bytes, one per subscription). Receivers verify
 * it with any Standard Webhooks library (the tests use the `standardwebhooks` npm package) and reject
 * timestamps more than five minutes off, which stops replays.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret. */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The `webhook-signature` header value of `body` sent as message `id` at `timestamp` (Unix seconds). */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(secret: string, id: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature(secret, id, timestamp, body) };
}
