/**
 * The `batch.completed` webhook: one POST of the finished job's status document to the job's `callback_url`,
 * signed per Standard Webhooks with the secret the job was created with (server/webhooks/signature.ts), to
 * public addresses only (the guarded DNS lookup the DA webhooks use, so a host cannot rebind to a private
 * address; the same POST as the DA webhooks' deliveries, postSigned). A 2xx within 15 s is success; otherwise it is tried twice more, after 5 s and 60 s, by the
 * process that finished the job (not kept across restarts: the job's status is always there to poll).
 */
import { postSigned } from '../webhooks/webhook-dispatcher.js';

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

/** Sends the callback, retrying as the module comment says; resolves with the outcome (never rejects). */
export async function sendBatchCallback(c: BatchCallback): Promise<{ ok: boolean; error?: string }> {
  const waits = c.retriesMs ?? CALLBACK_RETRIES_MS;
  let last = '';
  for (let i = 0; i <= waits.length; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, waits[i - 1]).unref());
    const r = await postSigned({ url: c.url, secret: c.secret, id: c.id, body: c.body, at: (c.clock ?? (() => new Date()))(), allowPrivate: c.allowPrivate, timeoutMs: c.timeoutMs ?? 15_000 });
    if ('status' in r && r.status >= 200 && r.status < 300) return { ok: true };
    last = 'error' in r ? r.error : `status ${r.status}`;
  }
  return { ok: false, error: last };
}
