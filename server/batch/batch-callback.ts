/**
 * The `batch.completed` webhook: one POST of the finished job's status document to the job's `callback_url`,
 * signed per Standard Webhooks with the secret the job was created with (server/webhooks/signature.ts), to
 * public addresses only (the guarded DNS lookup the DA webhooks use, so a host cannot rebind to a private
 * address). A 2xx within 15 s is success; otherwise it is tried twice more, after 5 s and 60 s, by the
 * process that finished the job (not kept across restarts: the job's status is always there to poll).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { VERSION } from '../../engine/index.js';
import { guardedLookup, isPublicAddress } from '../webhooks/address-policy.js';
import { webhookHeaders } from '../webhooks/signature.js';

/** Waits between attempts, ms. */
export const CALLBACK_RETRIES_MS: readonly number[] = [5_000, 60_000];

/** One callback to send. */
export interface BatchCallback {
  url: string;
  secret: string;
  /** The message id (`webhook-id`), the same on every attempt. */
  id: string;
  body: string;
  allowPrivate: boolean;
  clock?: () => Date;
  /** Waits between attempts (default {@link CALLBACK_RETRIES_MS}). */
  retriesMs?: readonly number[];
  timeoutMs?: number;
}

/** One attempt: the status answered, or why there was none. */
function attempt(c: BatchCallback): Promise<{ status?: number; error?: string }> {
  const url = new URL(c.url);
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!c.allowPrivate && isIP(host) && !isPublicAddress(host)) return Promise.resolve({ error: `${host} is not a public address: refused` });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(c.body)),
    'user-agent': `propintel-webhooks/${VERSION}`,
    ...webhookHeaders(c.secret, c.id, c.body, (c.clock ?? (() => new Date()))()),
  };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: { status?: number; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = (https ? httpsRequest : httpRequest)(url, { method: 'POST', headers, lookup: guardedLookup(c.allowPrivate) as never }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => settle({ status: res.statusCode ?? 0 }));
      res.on('close', () => settle({ status: res.statusCode ?? 0 }));
    });
    const timer = setTimeout(() => {
      settle({ error: `no answer within ${(c.timeoutMs ?? 15_000) / 1000} s` });
      req.destroy();
    }, c.timeoutMs ?? 15_000);
    req.on('error', (err: NodeJS.ErrnoException) => settle({ error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(c.body);
  });
}

/** Sends the callback, retrying as the module comment says; resolves with the outcome (never rejects). */
export async function sendBatchCallback(c: BatchCallback): Promise<{ ok: boolean; error?: string }> {
  const waits = c.retriesMs ?? CALLBACK_RETRIES_MS;
  let last = '';
  for (let i = 0; i <= waits.length; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, waits[i - 1]).unref());
    const r = await attempt(c).catch((err: Error) => ({ error: err.message }) as { status?: number; error?: string });
    if (r.status !== undefined && r.status >= 200 && r.status < 300) return { ok: true };
    last = r.error ?? `status ${r.status}`;
  }
  return { ok: false, error: last };
}
