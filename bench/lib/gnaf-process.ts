/**
 * The G-NAF part of the import benchmark, in a process of its own so its peak memory is its own.
 *
 *   node dist/bench/lib/gnaf-process.js memory DIR STATE QUERIES   read the tables, build the in-memory index, resolve
 *   node dist/bench/lib/gnaf-process.js write DIR STATE FILE       read the tables, write the on-disk index to FILE
 *   node dist/bench/lib/gnaf-process.js open FILE QUERIES          open the on-disk index and resolve
 *
 * Each prints one JSON line of times (ms), counts and memory (maxRSS, heap; MB).
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { openAddressIndexFile, writeAddressIndexFile, AddressIndex, addressRecordsFromRows, formatAddress, type AddressRecord, readGnafAddresses } from '../../engine/entry/data.js';
import type { StateCode } from '../../engine/entry/data.js';

const memory = () => ({ maxRssMb: process.resourceUsage().maxRSS / 1024, heapMb: process.memoryUsage().heapUsed / 1e6 });

/** Resolves `n` queries (each a record's formatted address) and returns p50/p95 and how many matched it. */
function resolveAll(index: AddressIndex, pick: (i: number) => AddressRecord, n: number) {
  const times: number[] = [];
  let matched = 0;
  for (let i = 0; i < n; i++) {
    const r = pick(i);
    const t = performance.now();
    const res = index.resolve(formatAddress(r));
    times.push(performance.now() - t);
    if (res.match?.id === r.id) matched++;
  }
  times.sort((a, b) => a - b);
  return { resolveP50Ms: times[Math.floor(n / 2)], resolveP95Ms: times[Math.floor(n * 0.95)], matched, queries: n };
}

const [mode, ...args] = process.argv.slice(2);
let out: Record<string, unknown>;
if (mode === 'memory') {
  const [dir, state, queries] = args;
  const t0 = performance.now();
  const { rows, report } = await readGnafAddresses(dir, state as StateCode);
  const readMs = performance.now() - t0;
  const t1 = performance.now();
  const records = addressRecordsFromRows(rows, 'gnaf');
  const index = AddressIndex.build(records);
  const buildMs = performance.now() - t1;
  out = { rows: rows.length, missingGeocode: report.missingGeocode, readMs, buildMs, ...resolveAll(index, (i) => records[(i * 7919) % records.length], Number(queries)), ...memory() };
} else if (mode === 'write') {
  const [dir, state, file] = args;
  const t0 = performance.now();
  const { rows } = await readGnafAddresses(dir, state as StateCode);
  const written = writeAddressIndexFile(file, addressRecordsFromRows(rows, 'gnaf'));
  out = { written, writeMs: performance.now() - t0, fileMb: statSync(file).size / 1e6, ...memory() };
} else if (mode === 'open') {
  const [file, queries] = args;
  const t0 = performance.now();
  const index = openAddressIndexFile(file);
  const openMs = performance.now() - t0;
  const n = Number(queries);
  // The queried addresses, read straight from the file (not through the index).
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT * FROM addr WHERE i % ? = 0 LIMIT ?').all(Math.max(1, Math.floor(index.size / n)), n) as AddressRecord[];
  db.close();
  out = { openMs, size: index.size, ...resolveAll(index, (i) => rows[i % rows.length], n), ...memory() };
} else {
  throw new Error(`unknown mode ${mode}: memory, write or open`);
}
process.stdout.write(`${JSON.stringify(out)}\n`);
