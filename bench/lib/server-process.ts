/**
 * A server in its own process for the server benchmarks: the engine on the sample world, a store (in memory,
 * or a shared PostgreSQL database for the replicas benchmark) with one unmetered-in-practice key (or the one
 * given), and the chosen transport on a free port. Prints one JSON line when ready
 * ({ url, key, sandbox, addresses }) and shuts down gracefully on SIGTERM.
 *
 *   node dist/bench/lib/server-process.js --transport uws|node [--threads N] [--compute here|threads] [--tile-cache none] [--addresses N]
 *     [--db postgres://... --replica-dir DIR --key SECRET] [--data DIR [--layer-file FILE [--window-cache-mb N]]] [--warm]
 *
 * With --data the engine opens that dataset instead of the sample world (by window with --layer-file); with
 * --warm it runs engine.warm() (models, the address index, HAND tiles) before it is ready. The ready line
 * also carries `openMs` (process start to the stack open, before any warming) and `warmMs`. With
 * --batch spatial|input it works batch jobs (a BatchRunner looking up each chunk in that order).
 */
import { parseArgs } from 'node:util';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { STATES } from '../../engine/entry/data.js';
import { startServer } from '../../server/http-server.js';
import { createKey } from '../../server/keys/key-admin.js';
import { openStack } from '../../server/stack.js';
import { BatchRunner } from '../../server/batch/batch-runner.js';

const { values } = parseArgs({
  options: {
    transport: { type: 'string', default: 'uws' },
    threads: { type: 'string' },
    compute: { type: 'string' },
    'tile-cache': { type: 'string' },
    addresses: { type: 'string', default: '0' },
    db: { type: 'string', default: ':memory:' },
    'replica-dir': { type: 'string' },
    key: { type: 'string' },
    data: { type: 'string' },
    'layer-file': { type: 'string' },
    'window-cache-mb': { type: 'string' },
    warm: { type: 'boolean' },
    batch: { type: 'string' },
  },
});
const dir = values.data ?? defaultDataDir();
if (!values.data) await ensureSampleWorld(dir);
const stack = await openStack({ datasets: dir, db: values.db!, replicaDir: values['replica-dir'], threads: values.threads ? Number(values.threads) : undefined, compute: values.compute === 'threads' ? 'threads' : 'here', ...(values['tile-cache'] === 'none' ? { tileCache: false as const } : {}), persistentCache: false, layerFile: values['layer-file'], ...(values['window-cache-mb'] ? { windowCacheMb: Number(values['window-cache-mb']) } : {}) });
// performance.now() counts from the process's start: the open includes loading the modules.
const openMs = performance.now();
let warmMs = 0;
if (values.warm) {
  await stack.engine.warm();
  warmMs = performance.now() - openMs;
}
// A key made by the caller (replicas share one, on their shared database), or a fresh one.
const key = values.key ?? (await createKey(stack.store, { components: 'all', geometry: true, quota: 10_000_000 })).key;
const runner = values.batch ? new BatchRunner({ store: stack.store, service: stack.engine, order: values.batch === 'input' ? 'input' : 'spatial', idleMs: 100 }) : undefined;
const server = await startServer({ ...stack.serverOptions, service: stack.engine, store: stack.store, port: 0, transport: values.transport === 'node' ? 'node' : 'uws', batch: { runner } });
runner?.start();
const sandbox = (await stack.engine.sandbox()).map((s) => s.address);
// Distinct street addresses, not sandbox ones, spread over the states: first lookups for the cold rows.
const want = Number(values.addresses);
const addresses: string[] = [];
const index = want > 0 ? stack.engine.addresses() : null;
for (let i = 1500; index && addresses.length < want; i += 37) {
  for (const s of STATES) {
    const r = index.byId(`${s}${String(i).padStart(7, '0')}`);
    if (r && r.unit === null && !sandbox.includes(r.text) && addresses.length < want) addresses.push(r.text);
  }
}
process.stdout.write(`${JSON.stringify({ url: server.url, key, sandbox, addresses, openMs, warmMs })}\n`);
process.once('SIGTERM', async () => {
  await server.close(10_000);
  await runner?.stop();
  await stack.close();
  process.exit(0);
});
