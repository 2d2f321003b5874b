import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { loadCatalogue } from '../../engine/entry/data.js';
import { defaultLayerFile } from '../../engine/entry/runtime.js';
import { startServer } from '../../server/http-server.js';
import { issueDevelopmentKeys } from '../../server/keys/dev-keys.js';
import { describePostgres, isPostgresUrl } from '../../server/store/pg/pg-connect.js';
import { WebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.js';
import type { BatchLimits } from '../../server/batch/batch-jobs.js';
import { BatchRunner } from '../../server/batch/batch-runner.js';
import { SqlRunner } from '../../engine/entry/das.js';
import { JsonLinesLog, SILENT_LOG } from '../../server/request-log.js';
import { defaultStorePath, openStack } from '../../server/stack.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';
import { numberFlag, parseFlags } from '../args.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the HTTP server',
  usage: [
    'propintel serve [--data DIR] [--port N] [--host ADDRESS] [--db FILE|URL] [options]',
    '',
    'Starts the HTTP server (GET /api/v1/property and friends; reference at /api/v1/docs) and runs until',
    'interrupted (Ctrl-C or SIGTERM), then stops listening, finishes the requests in flight and closes.',
    '',
    `  --data DIR         dataset directory (default: the sample world in ${defaultDataDir()}, generated when absent)`,
    '  --port N           TCP port (default 8080, or $PORT; 0 picks a free port)',
    '  --host ADDRESS     interface to bind (default 127.0.0.1)',
    `  --db FILE|URL      keys, usage meter, DA records, webhooks and caches: a SQLite file (default $PROPINTEL_DB`,
    `                     or ${defaultStorePath()}), or postgres://... for several replicas sharing one database`,
    '  --replica-dir DIR  with PostgreSQL: this replica\'s local copy of the DA records and its caches, kept across',
    '                     restarts (default a temporary directory, deleted on exit)',
    '  --db-pool N        with PostgreSQL: connections this replica opens (default 16)',
    '  --threads N        threads that compute: every lookup, batch part, tile and report runs on one of them,',
    '                     never on the thread answering HTTP (default: one per core)',
    '  --compute here     compute on the thread answering HTTP instead, with only the heavy steps on the',
    '                     --threads worker pool (the layout before engine threads, kept for comparison)',
    '  --layer-file FILE  read the layers per window from FILE, the one copy every thread reads through the page',
    '                     cache (default: a file under the OS temporary directory named for the dataset); FILE is',
    '                     written from the dataset on the first start (minutes for a million parcels) and reused after',
    '  --window-cache-mb N  megabytes of windows kept in memory, shared out among the threads (default 64)',
    '  --model-budget-mb N  megabytes the per-state models (noise network, walkability, bushfire layers; with',
    '                     --layer-file also the state\'s whole layers) may hold across states; past it the least',
    '                     recently used state\'s are dropped and rebuilt on demand (default 512, shared out among',
    '                     the engine threads; with --compute here and no --layer-file none: kept once built);',
    '                     /metrics shows what is held',
    '  --no-dev-keys      do not issue development keys (they are only ever issued for the synthetic sample world)',
    '  --quiet            no request log (errors are still logged)',
    '  --transport NAME   uws (default) or node (node:http, for comparison)',
    '  --trust-proxy      behind a reverse proxy on this machine: the client address is its X-Real-IP',
    '                     (the playground\'s per-client limit); see deploy/nginx/propintel.conf',
    '  --no-warm          do not build models and HAND tiles in the background at start (first lookups build them)',
    '  --no-webhooks      do not deliver webhooks from this process (run `propintel webhooks run` for that instead)',
    '  --no-batch         do not work batch jobs in this process (another replica on the shared database does)',
    '  --batch-lease-ms N how long a batch chunk stays this process\'s without renewal (default 60000); a chunk',
    '                     held by a process that died is taken over after it',
    '  --batch-chunk-rows N  rows of a new batch job per chunk (default 1000): looked up together in spatial order,',
    '                     committed together, and redone together after a crash',
    '  --batch-jobs N     batch jobs each key may have queued or running at once (default 4; past it 429)',
    '  --batch-storage-mb N  megabytes each key\'s kept batch jobs may hold in the store, compressed (default 4096;',
    '                     past it an upload is 413 and a running job stops)',
    '  --batch-retention-days N  days a finished batch job and its results are kept (default 7)',
    '  --report-concurrency N  childcare reports rendered at once (default 2); past that, 429 with Retry-After',
    '  --allow-private-webhooks  let subscriptions use http and private, loopback or link-local addresses',
    '                     (tests and local development only: it lifts the SSRF protection)',
    '',
    'On the sample world each start revokes the previous development keys and prints fresh ones; real',
    'deployments make keys with `propintel keys create`.',
  ].join('\n'),
  async run(args, io) {
    // SIGINT and SIGTERM are caught from the start: a signal that comes while the server is starting (it may
    // already answer requests) still stops it gracefully, never by the signal's default.
    const shutdown = io.shutdown;
    const { values } = parseFlags(args, {
      data: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      'replica-dir': { type: 'string' },
      'db-pool': { type: 'string' },
      threads: { type: 'string' },
      compute: { type: 'string' },
      'layer-file': { type: 'string' },
      'window-cache-mb': { type: 'string' },
      'model-budget-mb': { type: 'string' },
      'no-dev-keys': { type: 'boolean' },
      quiet: { type: 'boolean' },
      transport: { type: 'string' },
      'trust-proxy': { type: 'boolean' },
      'no-warm': { type: 'boolean' },
      'no-webhooks': { type: 'boolean' },
      'no-batch': { type: 'boolean' },
      'batch-lease-ms': { type: 'string' },
      'batch-chunk-rows': { type: 'string' },
      'batch-jobs': { type: 'string' },
      'batch-storage-mb': { type: 'string' },
      'batch-retention-days': { type: 'string' },
      'allow-private-webhooks': { type: 'boolean' },
      'report-concurrency': { type: 'string' },
    });
    const reportConcurrency = values['report-concurrency'] === undefined ? undefined : numberFlag('report-concurrency', values['report-concurrency'], 2, { min: 1, max: 64, integer: true });
    const port = numberFlag('port', values.port ?? process.env.PORT, 8080, { min: 0, max: 65535, integer: true });
    const threads = values.threads === undefined ? undefined : numberFlag('threads', values.threads, 0, { min: 1, max: 256, integer: true });
    const compute = values.compute ?? 'threads';
    if (compute !== 'here' && compute !== 'threads') throw new UsageError(`--compute must be here or threads, got ${JSON.stringify(compute)}`);
    const transport = values.transport ?? 'uws';
    if (transport !== 'uws' && transport !== 'node') throw new UsageError(`--transport must be uws or node, got ${JSON.stringify(transport)}`);
    const dir = resolve(values.data ?? defaultDataDir());
    if (!values.data) await ensureSampleWorld(dir, (line) => io.stdout(`${line}\n`));
    const catalogue = await loadCatalogue(dir);
    const dbArg = values.db ?? defaultStorePath();
    const shared = isPostgresUrl(dbArg);
    const db = shared ? dbArg : resolve(dbArg);
    const poolSize = values['db-pool'] === undefined ? undefined : numberFlag('db-pool', values['db-pool'], 16, { min: 2, max: 1000, integer: true });
    const windowCacheMb = values['window-cache-mb'] === undefined ? undefined : numberFlag('window-cache-mb', values['window-cache-mb'], 64, { min: 16, max: 65536, integer: true });
    if (windowCacheMb !== undefined && !values['layer-file'] && compute === 'here') throw new UsageError('--window-cache-mb needs --layer-file (or engine threads, which read by window)');
    const modelBudgetMb = values['model-budget-mb'] === undefined ? undefined : numberFlag('model-budget-mb', values['model-budget-mb'], 0, { min: 1, max: 1_048_576, integer: true });
    if (values['layer-file'] !== undefined && values['layer-file'].trim() === '') throw new UsageError('--layer-file needs a file path');
    const layerFile = values['layer-file'] ? resolve(values['layer-file']) : undefined;
    if (layerFile && !values.quiet) io.stdout(`Opening the layers by window from ${layerFile} (written from the dataset if absent or stale)\n`);
    if (compute === 'threads' && !layerFile && !values.quiet) io.stdout(`Engine threads: ${threads ?? availableParallelism()}, each holding its share of the states, reading the others from ${defaultLayerFile(dir)} (written from the dataset if absent or stale)\n`);
    const stack = await openStack({ datasets: dir, db, threads, compute, replicaDir: values['replica-dir'] ? resolve(values['replica-dir']) : undefined, poolSize, layerFile, windowCacheMb, modelBudgetMb });
    const log = new JsonLinesLog((t) => io.stdout(t));
    const allowPrivate = !!values['allow-private-webhooks'];
    // Webhook deliveries run in this process unless another one (`propintel webhooks run`) does them.
    const dispatcher = values['no-webhooks'] ? undefined : new WebhookDispatcher({ store: stack.store.webhooks(), das: stack.events, allowPrivate, log: (line) => io.stderr(`${line}\n`) });
    // Batch jobs are worked here (and by every other replica on a shared database) unless --no-batch.
    const batchLeaseMs = numberFlag('batch-lease-ms', values['batch-lease-ms'], 60_000, { min: 100, max: 3_600_000, integer: true });
    const batchLimits: Partial<BatchLimits> = {
      jobs: values['batch-jobs'] === undefined ? undefined : numberFlag('batch-jobs', values['batch-jobs'], 4, { min: 1, max: 10_000, integer: true }),
      storedBytes: values['batch-storage-mb'] === undefined ? undefined : numberFlag('batch-storage-mb', values['batch-storage-mb'], 4096, { min: 1, max: 1_048_576, integer: true }) * 1024 * 1024,
      retentionMs: values['batch-retention-days'] === undefined ? undefined : numberFlag('batch-retention-days', values['batch-retention-days'], 7, { min: 0.01, max: 3650 }) * 86_400_000,
    };
    const batchRunner = values['no-batch'] ? undefined : new BatchRunner({ store: stack.store, service: stack.engine, leaseMs: batchLeaseMs, allowPrivate, limits: batchLimits, log: (line) => io.stderr(`${line}\n`) });
    // The SQL endpoint's mirror of the DA table sits beside the store, so restarts sync it incrementally.
    const sql = new SqlRunner({ mirror: stack.sqlMirror, das: () => stack.engine.das() });
    let server;
    try {
      server = await startServer({
        service: stack.engine,
        store: stack.store,
        port,
        host: values.host,
        transport,
        trustProxy: !!values['trust-proxy'],
        log: values.quiet ? { ...SILENT_LOG, error: (e) => log.error(e) } : log,
        ...stack.serverOptions,
        webhooks: { dispatcher, allowPrivate, ...stack.serverOptions.webhooks },
        batch: { runner: batchRunner, limits: batchLimits, chunkRows: numberFlag('batch-chunk-rows', values['batch-chunk-rows'], 1000, { min: 1, max: 100_000, integer: true }) },
        sql,
        reportConcurrency,
      });
    } catch (err) {
      await stack.close();
      throw err;
    }
    dispatcher?.start();
    batchRunner?.start();
    const lines = [`propintel listening on ${server.url} (${server.api.transport}) with ${catalogue.name} (${catalogue.sources.length} sources in ${dir})`, `  store: ${shared ? describePostgres(db) : db}`, `  reference: ${server.url}/api/v1/docs`, `  map: ${server.url}/map`];
    if (catalogue.synthetic && !values['no-dev-keys']) {
      const keys = await issueDevelopmentKeys(stack.store, new Date(), { revokePrevious: !shared });
      const sandbox = await stack.engine.sandbox();
      const a = sandbox[0]?.address ?? '91 Cumberland Grove, Northcote VIC 3070';
      const p = sandbox.find((s) => s.state === 'NSW') ?? sandbox[0];
      lines.push(
        '',
        shared
          ? 'Development keys (sample world only; each replica on the shared database prints its own set):'
          : 'Development keys (sample world only; fresh on every start, the previous ones are revoked):',
        `  full licence with geometry:  ${keys.full.key}`,
        `  all components, no geometry: ${keys['no-geometry'].key}`,
        `  scores only:                 ${keys['scores-only'].key}`,
        `  DA listing only (Starter, 1,000 requests a Melbourne day): ${keys['da-starter'].key}`,
        `  childcare market intelligence (every state):               ${keys.childcare.key}`,
        '  (the full key also has the DA listing, webhooks, read-only SQL and MCP)',
        '',
        `The DA listing playground (no key needed): ${server.url}/playground`,
        '',
        'Try:',
        `  curl -s '${server.url}/api/v1/property/sample' | head -c 600`,
        `  curl -s -H 'Authorization: Bearer ${keys.full.key}' '${server.url}/api/v1/property?address=${encodeURIComponent(a)}'`,
        `  curl -s -H 'Authorization: Bearer ${keys.full.key}' '${server.url}/api/v1/property?lat=${p?.lat ?? -33.81}&lng=${p?.lng ?? 151.01}&include_surfaces=1&surfaces=contours,heat'`,
        `  curl -s -H 'Authorization: Bearer ${keys['da-starter'].key}' '${server.url}/v1/das?state=${p?.state ?? 'NSW'}&category=new_dwelling&per_page=5'`,
        `  curl -s -H 'Authorization: Bearer ${keys['da-starter'].key}' '${server.url}/v1/das/nearby?lat=${p?.lat ?? -33.81}&lng=${p?.lng ?? 151.01}&radius_km=2'`,
        `  curl -s -H 'Authorization: Bearer ${keys.full.key}' -H 'Content-Type: application/json' '${server.url}/v1/sql' -d '{"query": "SELECT state, count(*) AS n FROM das GROUP BY state"}'`,
        `  curl -s -H 'Authorization: Bearer ${keys.childcare.key}' '${server.url}/api/v1/childcare/analysis?state=${p?.state ?? 'NSW'}&feature_limit=5'`,
        `  curl -s -H 'Authorization: Bearer ${keys.childcare.key}' '${server.url}/api/v1/childcare/report?state=${p?.state ?? 'NSW'}&lat=${p?.lat ?? -33.81}&lng=${p?.lng ?? 151.01}&radius_km=2&format=pdf' -o report.pdf`,
      );
    }
    io.stdout(`${lines.join('\n')}\n`);
    // Warm up in the background: build every model and the HAND tiles ahead of traffic, with a line per step.
    let closing = false;
    const warmed = values['no-warm']
      ? Promise.resolve()
      : (async () => {
        server.api.warming = 'starting';
        const t0 = performance.now();
        try {
          await stack.engine.warm((line) => {
            server.api.warming = line;
            if (!values.quiet) io.stdout(`warming: ${line}\n`);
          });
          if (!values.quiet) io.stdout(`warm in ${Math.round(performance.now() - t0)} ms\n`);
        } catch (err) {
          // Nothing is lost: whatever was not built is built on first use.
          if (!closing) io.stderr(`propintel: warming stopped (${(err as Error).message}); models and tiles are built on first use\n`);
        } finally {
          server.api.warming = null;
        }
      })();
    const signal = await shutdown;
    io.stderr(`propintel: ${signal}, finishing ${server.api.inFlight} request(s) in flight and shutting down\n`);
    await server.close();
    await batchRunner?.stop(); // a chunk in hand is handed back for the next start or another replica
    await dispatcher?.stop();
    sql.close();
    closing = true;
    await stack.close(); // a warm-up still running stops here (its workers are gone)
    await warmed.catch(() => {});
    log.flush();
    return EXIT_OK;
  },
};
