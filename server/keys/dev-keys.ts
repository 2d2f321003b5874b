/**
 * Development keys for the sample world (DESIGN.md: "first start on the sample world creates and prints
 * development keys"). Secrets are stored only as hashes, so they cannot be printed again: every start on the
 * sample world revokes the previous development keys and issues fresh ones. They are never issued for real
 * data.
 */
import type { ServerStore } from '../store/store.js';
import { createKey, type KeySpec } from './key-admin.js';

/** Label prefix marking development keys. */
export const DEV_KEY_PREFIX = 'development:';

/** The development keys: one per licence shape worth trying. */
export const DEV_KEY_SPECS: Record<string, KeySpec> = {
  full: { components: 'all', geometry: true, quota: 1000, daDailyLimit: 1000, sql: true },
  'no-geometry': { components: 'all', geometry: false, quota: 1000 },
  'scores-only': { components: ['scores'], geometry: false, quota: 1000 },
  'da-starter': { components: 'none', quota: 0, daDailyLimit: 1000 },
  childcare: { components: 'none', quota: 0, childcareStates: ['VIC', 'NSW', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'], childcareAddOn: 'childcare_market_intelligence' },
};

/**
 * Revokes earlier development keys and issues one per {@link DEV_KEY_SPECS}; returns name -> secret. With
 * `revokePrevious: false` (replicas sharing one database: each prints its own, and a replica starting must
 * not revoke the keys another printed) the earlier ones stay.
 */
export async function issueDevelopmentKeys(store: ServerStore, now = new Date(), options: { revokePrevious?: boolean } = {}): Promise<Record<string, { key: string; id: string }>> {
  if (options.revokePrevious !== false) {
    for (const k of await store.listKeys()) if (!k.revoked_at && k.label?.startsWith(DEV_KEY_PREFIX)) await store.revokeKey(k.id, now);
  }
  const out: Record<string, { key: string; id: string }> = {};
  for (const [name, spec] of Object.entries(DEV_KEY_SPECS)) {
    const { key, record } = await createKey(store, { ...spec, label: `${DEV_KEY_PREFIX}${name}` }, now);
    out[name] = { key, id: record.id };
  }
  return out;
}
