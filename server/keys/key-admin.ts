/**
 * Making keys: what `propintel keys create` and the development keys of `propintel serve` share. A key's
 * settings are validated here, every problem named at once.
 */
import { isStateCode, type StateCode } from '../../engine/entry/data.js';
import { PROPERTY_BLOCKS, type PropertyBlock } from '../../engine/entry/property.js';
import { parseIsoDate, type PeriodKind } from '../metering/billing-period.js';
import type { ApiKeyRecord, ServerStore } from '../store/store.js';
import { generateKey } from './api-key.js';

/** The one licence the spec describes: 1,000 unique addresses per calendar month. */
export const DEFAULT_QUOTA = 1000;

/** What a new key is allowed. */
export interface KeySpec {
  label?: string | null;
  /** `all`, `none` (a DA-listing-only key), or the blocks it covers. */
  components?: 'all' | 'none' | string[];
  /** The geometry licence (default false). */
  geometry?: boolean;
  /** Unique addresses per period (default {@link DEFAULT_QUOTA}). */
  quota?: number;
  /** Default `calendar`. */
  period?: PeriodKind;
  /** YYYY-MM-DD; required for anchored keys. */
  effectiveDate?: string | null;
  /** YYYY-MM-DD, inclusive. */
  onboardingUntil?: string | null;
  /** DA listing requests per day; null for no limit. */
  daDailyLimit?: number | null;
  /** Childcare entitlement: states (none means no entitlement), expiry and add-on. */
  childcareStates?: string[];
  childcareExpires?: string | null;
  childcareAddOn?: string | null;
  /** Childcare requests a day (default 1,000), apart from the DA listing's limit. */
  childcareDailyLimit?: number | null;
  /** The read-only SQL endpoint (default false); needs the DA listing (`daDailyLimit`). */
  sql?: boolean;
  /** Allows a label starting `playground:` (the server's own demo key; `keys create` never sets this). */
  reservedLabel?: boolean;
}

/** A key spec that does not validate; `problems` lists every problem. */
export class KeySpecError extends Error {
  override readonly name = 'KeySpecError';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** Validates a spec into a stored record (without id and hash). */
export function keyRecordOf(spec: KeySpec, now: Date): Omit<ApiKeyRecord, 'id' | 'hash'> {
  const problems: string[] = [];
  let components: PropertyBlock[] = [...PROPERTY_BLOCKS];
  if (spec.components === 'none') components = [];
  else if (spec.components !== undefined && spec.components !== 'all') {
    const unknown = spec.components.filter((c) => !(PROPERTY_BLOCKS as readonly string[]).includes(c));
    if (unknown.length) problems.push(`unknown component(s) ${unknown.join(', ')}; components are all, none or a list of ${PROPERTY_BLOCKS.join(', ')}`);
    if (!spec.components.length) problems.push('components must name at least one block (or be none, for a key with only the DA listing)');
    components = PROPERTY_BLOCKS.filter((b) => spec.components!.includes(b));
  }
  if (!spec.reservedLabel && spec.label?.startsWith('playground:')) problems.push('labels starting "playground:" are reserved for the playground\'s demo key');
  const quota = spec.quota ?? DEFAULT_QUOTA;
  if (!Number.isInteger(quota) || quota < 0) problems.push(`quota must be a whole number of at least 0, got ${quota}`);
  const period = spec.period ?? 'calendar';
  if (period !== 'calendar' && period !== 'anchored') problems.push(`period must be calendar or anchored, got ${String(period)}`);
  const date = (name: string, v: string | null | undefined) => {
    if (v === undefined || v === null) return null;
    if (!parseIsoDate(v)) problems.push(`${name} must be a date as YYYY-MM-DD, got ${JSON.stringify(v)}`);
    return v;
  };
  const effective = date('effective date', spec.effectiveDate);
  if (period === 'anchored' && !spec.effectiveDate) problems.push('an anchored key needs an effective date (--effective-date YYYY-MM-DD)');
  if (period === 'calendar' && spec.effectiveDate) problems.push('an effective date applies to anchored keys only (--period anchored)');
  const onboarding = date('onboarding-until', spec.onboardingUntil);
  const daDaily = spec.daDailyLimit ?? null;
  if (daDaily !== null && (!Number.isInteger(daDaily) || daDaily < 0)) problems.push(`the DA daily limit must be a whole number of at least 0, got ${daDaily}`);
  let childcare: ApiKeyRecord['childcare'] = null;
  if (spec.childcareStates?.length) {
    const bad = spec.childcareStates.filter((s) => !isStateCode(s));
    if (bad.length) problems.push(`unknown childcare state(s) ${bad.join(', ')}`);
    const daily = spec.childcareDailyLimit ?? null;
    if (daily !== null && (!Number.isInteger(daily) || daily < 0)) problems.push(`the childcare daily limit must be a whole number of at least 0, got ${daily}`);
    childcare = { status: 'active', expires: date('childcare expiry', spec.childcareExpires), states: spec.childcareStates.filter(isStateCode) as StateCode[], add_on: spec.childcareAddOn ?? null, ...(daily !== null ? { daily_limit: daily } : {}) };
  } else if (spec.childcareExpires || spec.childcareAddOn || spec.childcareDailyLimit != null) problems.push('a childcare expiry, add-on or daily limit needs childcare states');
  if (spec.sql && spec.daDailyLimit == null) problems.push('the SQL endpoint comes with the DA listing: give --da-daily-limit N as well');
  if (problems.length) throw new KeySpecError(problems);
  return {
    label: spec.label ?? null,
    components,
    geometry: !!spec.geometry,
    quota,
    period,
    effective_date: effective,
    onboarding_until: onboarding,
    da_daily_limit: daDaily,
    childcare,
    sql: !!spec.sql,
    created_at: now.toISOString(),
    revoked_at: null,
  };
}

/** Creates a key; the returned `key` is the secret, shown once and never stored. */
export async function createKey(store: ServerStore, spec: KeySpec, now = new Date()): Promise<{ key: string; record: ApiKeyRecord }> {
  const base = keyRecordOf(spec, now);
  const g = generateKey();
  const record: ApiKeyRecord = { id: g.id, hash: g.hash, ...base };
  await store.insertKey(record);
  return { key: g.key, record };
}

/** A key as listings show it: everything but the hash. */
export function publicKeyView(r: ApiKeyRecord): Omit<ApiKeyRecord, 'hash'> & { status: 'live' | 'revoked' } {
  const { hash: _hash, ...rest } = r;
  return { ...rest, status: r.revoked_at ? 'revoked' : 'live' };
}
