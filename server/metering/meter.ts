/**
 * Metering a lookup (spec 2.9 and 8): one unique address per key per billing period. The rules, in order:
 * 1. a sandbox address is never metered;
 * 2. nothing is metered inside the key's onboarding window;
 * 3. a response whose core components failed is not charged (the engine says why);
 * 4. otherwise the store charges atomically: a repeat in the period is free, a new address is counted while
 *    the quota allows and refused (429 `quota_exceeded`) when it does not.
 * The `usage` block reports the count after the call whatever happened.
 */
import { ApiError } from '../http/api-error.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import type { ApiKeyRecord, ChargeOutcome, UsageMeter } from '../store/store.js';
import { inOnboarding, type BillingPeriod } from './billing-period.js';

/** What the meter decided for one lookup. */
export interface MeterResult {
  /** The `usage` block. */
  usage: Record<string, unknown>;
  /** Why the call was not charged, or undefined when it was. */
  notChargedReason?: string;
}

/** The lookup as the meter sees it. */
export interface MeteredLookup {
  addressKey: string;
  /** The address as resolved, for messages (null for a bare coordinate). */
  label: string | null;
  sandbox: boolean;
  chargeable: boolean;
  notChargedReason?: string;
}

/** Builds the `usage` block (with the `*_month*` compatibility aliases of spec 9). */
export function usageBlock(key: ApiKeyRecord, period: BillingPeriod, used: number, charged: boolean): Record<string, unknown> {
  return {
    unique_addresses_this_period: used,
    period_quota: key.quota,
    billing_period_key: period.key,
    period_kind: key.period,
    resets_at: period.resetsAtText,
    charged,
    // Legacy names (spec 9: retained for compatibility).
    unique_addresses_this_month: used,
    monthly_quota: key.quota,
    billing_month: period.key,
  };
}

/**
 * Meters one lookup for `key` at `now` (synchronously on a synchronous store); throws 429 `quota_exceeded`
 * when a new address does not fit.
 */
export function meterLookup(meter: UsageMeter, key: ApiKeyRecord, period: BillingPeriod, lookup: MeteredLookup, now: Date): MaybePromise<MeterResult> {
  let reason: string | undefined;
  if (lookup.sandbox) reason = 'sandbox address: never metered';
  else if (inOnboarding(now, key.onboarding_until)) reason = `onboarding window: nothing is metered through ${key.onboarding_until} (Australia/Melbourne)`;
  else if (!lookup.chargeable) reason = lookup.notChargedReason ?? 'core components failed';
  if (reason !== undefined) {
    const why = reason;
    return chain(meter.used(key.id, period.key), (used) => ({ usage: usageBlock(key, period, used, false), notChargedReason: why }));
  }
  return chain(meter.charge(key.id, period.key, lookup.addressKey, key.quota, now), (c) => outcomeOf(c, key, period, lookup, now));
}

function outcomeOf(c: ChargeOutcome, key: ApiKeyRecord, period: BillingPeriod, lookup: MeteredLookup, now: Date): MeterResult {
  if (c.outcome === 'quota_exceeded') throw quotaExceeded(key, period, c.used, lookup.label, now);
  if (c.outcome === 'repeat') {
    return { usage: usageBlock(key, period, c.used, false), notChargedReason: `repeat lookup: this address was already counted in billing period ${period.key}` };
  }
  return { usage: usageBlock(key, period, c.used, true) };
}

/** The 429 `quota_exceeded` for a new address (`label`, or "this point") when the key has used its quota. */
export function quotaExceeded(key: ApiKeyRecord, period: BillingPeriod, used: number, label: string | null, now: Date): ApiError {
  const retryS = Math.max(1, Math.ceil((period.resetsAt.getTime() - now.getTime()) / 1000));
  return new ApiError(
    'quota_exceeded',
    `this key has used its quota of ${key.quota} unique addresses in billing period ${period.key}; ${label ?? 'this point'} would be a new one`,
    {
      used,
      quota: key.quota,
      resets_at: period.resetsAtText,
      billing_period_key: period.key,
      top_up:
        'Addresses already looked up this period stay free to repeat. For new addresses before resets_at, ask the operator for a top-up: a higher quota on this key or an additional key. Sandbox addresses (GET /api/v1/property/sandbox) are never metered.',
    },
    { 'Retry-After': String(retryS) },
  );
}
