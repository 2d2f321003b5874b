/**
 * The DA store alone in a fresh process, for the DA benchmark: opens the store file, answers one of each
 * listing request, and prints one JSON line { openMs, rssMb, hwmMb } (RSS from /proc). The benchmark's own
 * process holds its harness and the fixture build; this is what a process serving the listing holds.
 *
 *   node dist/bench/lib/da-store-process.js STORE.sqlite
 */
import { readFileSync } from 'node:fs';
import { DaStore } from '../../engine/entry/das.js';
import { daCategoriesDocument, daCouncilsDocument, daListDocument, daNearbyDocument, daStatsDocument } from '../../server/api/da-query.js';

const path = process.argv[2];
const t0 = performance.now();
const store = DaStore.open(path);
store.nearbyHits(151.2093, -33.8688, 100);
const openMs = performance.now() - t0;
const p = (o: Record<string, string>) => new Map(Object.entries(o));
let bytes = 0;
for (const doc of [
  daListDocument(store, p({ per_page: '100' })),
  daListDocument(store, p({ state: 'NSW', per_page: '100', page: '500' })),
  daListDocument(store, p({ since: '2024-01-01', per_page: '100' })),
  daListDocument(store, p({ state: 'VIC', category: 'new_dwelling', since: '2023-01-01', per_page: '100' })),
  daNearbyDocument(store, p({ lat: '-33.8688', lng: '151.2093', radius_km: '5', per_page: '100' })),
  daNearbyDocument(store, p({ lat: '-37.8136', lng: '144.9631', radius_km: '50' })),
  daCategoriesDocument(store),
  daCouncilsDocument(store),
  daStatsDocument(store),
]) bytes += JSON.stringify(doc).length;
const status = readFileSync('/proc/self/status', 'utf8');
const mb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
store.close();
process.stdout.write(`${JSON.stringify({ openMs, rssMb: mb('VmRSS'), hwmMb: mb('VmHWM'), bytes })}\n`);
