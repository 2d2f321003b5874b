/**
 * The playground's demo key (spec 5.2: "the interactive playground uses a built-in demo key and needs no
 * sign-up"). It is the one key ever placed in a page, so it is public by design: it reaches only the DA
 * listing (no property components, no geometry, no quota) and allows 10 requests a minute per client
 * address (server/metering/request-limits.ts). Because it is public, its secret is kept in the store's
 * settings in clear, unlike every other key; replicas sharing a store share one demo key.
 */
import type { ServerStore } from '../store/store.js';
import { PLAYGROUND_LABEL } from '../metering/request-limits.js';
import { keyIdOf, keyMatches } from './api-key.js';
import { createKey } from './key-admin.js';

const SETTING = 'playground_key';

async function live(store: ServerStore, secret: string | undefined): Promise<boolean> {
  const id = secret ? keyIdOf(secret) : null;
  const rec = id ? await store.keyById(id) : undefined;
  return !!rec && !rec.revoked_at && rec.label === PLAYGROUND_LABEL && keyMatches(secret!, rec.hash);
}

/** The demo key's secret, creating the key on first use (or again after it was revoked). */
export async function playgroundKey(store: ServerStore, now = new Date()): Promise<string> {
  const current = await store.getSetting(SETTING);
  if (current !== undefined && (await live(store, current))) return current;
  const { key, record } = await createKey(store, { components: 'none', label: PLAYGROUND_LABEL, quota: 0, reservedLabel: true }, now);
  // Another process may have stored one first; the first writer's key wins and this one is revoked.
  const stored = current === undefined ? await store.initSetting(SETTING, key) : (await store.replaceSetting(SETTING, current, key)) ? key : ((await store.getSetting(SETTING)) ?? key);
  if (stored !== key) await store.revokeKey(record.id, now);
  return stored;
}
