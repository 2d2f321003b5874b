/**
 * The G-NAF part of the import benchmark, in a process of its own so its peak memory is its own: reads a
 * state's Standard tables (gnaf-reader.ts), builds the address index, resolves `queries` addresses, and
 * prints one JSON line { rows, readMs, buildMs, resolveP50Ms, resolveP95Ms, matched, maxRssMb, heapMb }.
 *
 *   node dist/bench/lib/gnaf-process.js DIR STATE QUERIES
 */
import { AddressIndex } from '../../engine/address/address-index.js';
import { addressRecordsFromRows } from '../../engine/address/address-record.js';
import { readGnafAddresses } from '../../engine/address/gnaf-reader.js';
import type { StateCode } from '../../engine/catalogue/states.js';

const [dir, state, queriesArg] = process.argv.slice(2);
const t0 = performance.now();
const { rows, report } = await readGnafAddresses(dir, state as StateCode);
const readMs = performance.now() - t0;
const t1 = performance.now();
const records = addressRecordsFromRows(rows, 'gnaf');
const index = AddressIndex.build(records);
const buildMs = performance.now() - t1;
const n = Number(queriesArg);
const times: number[] = [];
let matched = 0;
for (let i = 0; i < n; i++) {
  const r = records[Math.floor((i * 7919) % records.length)];
  const q = `${r.unit ? `${r.unit}/` : ''}${r.number} ${r.street}, ${r.suburb} ${r.state} ${r.postcode}`;
  const t = performance.now();
  const res = index.resolve(q);
  times.push(performance.now() - t);
  if (res.match?.id === r.id) matched++;
}
times.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({
  rows: rows.length, missingGeocode: report.missingGeocode, readMs, buildMs, resolveP50Ms: times[Math.floor(n / 2)], resolveP95Ms: times[Math.floor(n * 0.95)], matched, queries: n,
  maxRssMb: process.resourceUsage().maxRSS / 1024, heapMb: process.memoryUsage().heapUsed / 1e6,
})}\n`);
