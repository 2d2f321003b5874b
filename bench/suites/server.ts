/**
 * The HTTP server under load on loopback (issue 9): wrk (Debian's package, installed when missing and root)
 * at 64 connections against
 * - /api/v1/property for a cached sandbox address, with gzip (as curl --compressed, browsers and fetch ask)
 *   and without,
 * - /api/v1/property/sample (keyless, static),
 * each on uWebSockets.js and on node:http serving the same Api object, in separate processes, rounds
 * alternating between the two; the median requests/s and p99 of the rounds are reported and the ratio
 * (uWS / node:http requests/s) printed. And the cold full payload under load: after one lookup per sandbox
 * address (so every state's indexes are built, as in a running server), 64 concurrent clients making first
 * lookups of distinct addresses (every block, every score, no surfaces): requests/s and p50/p99.
 *
 * Targets (benchmark, not test): cached property lookup at least 1.5x node:http's requests/s; p99 under
 * 20 ms at 64 connections on 2 cores. On two cores wrk and the server share the machine; the server's
 * piscina workers sit idle on the cached path.
 */
import { getDefaultMaxTime } from '../lib/measure.js';
import { firstLookups, median, startServerProcess, stop, wrk, wrkAvailable, type Ready, type WrkResult } from '../lib/load.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

const CONNECTIONS = 64;

/** 64 concurrent clients, each taking the next address: first lookups of the full payload. */
function coldLoad(ready: Ready) {
  return firstLookups([ready], ready.addresses, CONNECTIONS);
}

export const serverSuite: BenchSuite = {
  name: 'server',
  description: 'HTTP at 64 connections (wrk): uWebSockets.js vs node:http on the same handler; cold full payloads under load',
  async run() {
    const quick = getDefaultMaxTime() < 1;
    const seconds = quick ? 2 : 5;
    const rounds = quick ? 1 : 3;
    const missing = wrkAvailable();
    if (missing) return [{ benchmark: 'server (skipped)', size: '-', msPerOp: NaN, note: missing }];
    const uws = await startServerProcess('uws', quick ? 64 : 192);
    const node = await startServerProcess('node');
    const rows: BenchRow[] = [];
    try {
      const address = encodeURIComponent(uws.ready.sandbox[0]);
      const scenarios: { name: string; path: string; headers: Record<string, string>; keyed: boolean }[] = [
        { name: 'cached property lookup, gzip', path: `/api/v1/property?address=${address}`, headers: { 'accept-encoding': 'gzip' }, keyed: true },
        { name: 'cached property lookup, identity', path: `/api/v1/property?address=${address}`, headers: {}, keyed: true },
        { name: '/api/v1/property/sample, gzip', path: '/api/v1/property/sample', headers: { 'accept-encoding': 'gzip' }, keyed: false },
      ];
      // Warm both: the lookup computed and cached, the code paths compiled.
      for (const s of [uws, node]) {
        for (const sc of scenarios) {
          const h = { ...sc.headers, ...(sc.keyed ? { authorization: `Bearer ${s.ready.key}` } : {}) };
          const res = await fetch(`${s.ready.url}${sc.path}`, { headers: h });
          if (res.status !== 200) throw new Error(`warm-up ${sc.path} on ${s.ready.url}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
          wrk(`${s.ready.url}${sc.path}`, 1, h);
        }
      }
      for (const sc of scenarios) {
        const results: Record<'uws' | 'node', WrkResult[]> = { uws: [], node: [] };
        for (let r = 0; r < rounds; r++) {
          for (const [name, s] of [['uws', uws], ['node', node]] as const) {
            const h = { ...sc.headers, ...(sc.keyed ? { authorization: `Bearer ${s.ready.key}` } : {}) };
            results[name].push(wrk(`${s.ready.url}${sc.path}`, seconds, h));
          }
        }
        const u = { rps: median(results.uws.map((x) => x.rps)), p99: median(results.uws.map((x) => x.p99)), p50: median(results.uws.map((x) => x.p50)) };
        const n = { rps: median(results.node.map((x) => x.rps)), p99: median(results.node.map((x) => x.p99)) };
        const errors = [...results.uws, ...results.node].reduce((a, x) => a + x.errors, 0);
        rows.push({
          benchmark: `${sc.name} (uWS)`,
          size: `${CONNECTIONS} conns, ${rounds}x${seconds}s`,
          msPerOp: 1000 / u.rps,
          itemsPerSec: u.rps,
          reference: 'node:http, same handler',
          refMsPerOp: 1000 / n.rps,
          ratio: u.rps / n.rps,
          note: `p50 ${u.p50.toFixed(2)} ms, p99 ${u.p99.toFixed(2)} ms (node:http ${Math.round(n.rps)} req/s, p99 ${n.p99.toFixed(2)} ms)${errors ? `; ${errors} errors` : ''}${sc.keyed ? '; target >= 1.5x, p99 < 20 ms' : ''}`,
        });
      }
      await stop(node);
      // A running server has its indexes built: one lookup per sandbox address (every state) first.
      await coldLoad({ ...uws.ready, addresses: uws.ready.sandbox });
      const cold = await coldLoad(uws.ready);
      rows.push({
        benchmark: 'cold full payload under load (uWS)',
        size: `${cold.n} first lookups, ${CONNECTIONS} clients`,
        msPerOp: 1000 / cold.rps,
        itemsPerSec: cold.rps,
        note: `p50 ${cold.p50.toFixed(0)} ms, p99 ${cold.p99.toFixed(0)} ms; every block and score, no surfaces; distinct non-sandbox addresses over eight states${cold.failed ? `; ${cold.failed} not 200` : ''}`,
      });
    } finally {
      if (node.child.exitCode === null) await stop(node);
      await stop(uws);
    }
    return rows;
  },
};
