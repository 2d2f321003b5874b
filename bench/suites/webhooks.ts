/**
 * Webhooks (issue 16): 10,000 new DAs imported into a store with 100 subscriptions, each watching one of 100
 * councils (so every event matches exactly one subscription: 10,000 deliveries), delivered to a local HTTP
 * receiver that answers 204 at once.
 *
 * Rows:
 * - the import (parse, classify, upsert, events into the outbox) with no subscriptions and no worker, beside
 *   the same import with the 100 subscriptions and the delivery worker running in the same process on the same
 *   file; target: at most 1.5x;
 * - fan-out: the outbox's events turned into deliveries (events per second);
 * - delivery: deliveries per second from the import's commit until the receiver has every one, and the
 *   p50 / p95 time from the commit to each delivery's arrival.
 *
 * Each import is into a fresh store file (WAL, as the server runs it). The worker runs with its defaults (4
 * in flight per subscription, 64 in all).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticDaRows } from '../../datasets/da-feed.js';
import { importDaFile, DaStore } from '../../engine/entry/das.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import { WebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.js';
import type { WebhookStore } from '../../server/store/sqlite/sqlite-webhook-store.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

const DAS = Number(process.env.PROPINTEL_BENCH_WEBHOOK_DAS ?? 10_000);
const SUBSCRIPTIONS = 100;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One subscription per council (`state\u0000council`), each to its own path of the receiver at `url`. */
function subscribeEach(hooks: WebhookStore, councils: readonly string[], url: string): void {
  councils.forEach((c, i) => {
    const [state, council] = c.split('\u0000');
    hooks.insertSubscription({ id: `wh_bench${i}`, key_id: 'bench', url: `${url}/${i}`, events: ['da.created'], filters: { state, council }, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', status: 'active', disabled_reason: null, created_at: new Date().toISOString(), after_event: 0 });
  });
}

export const webhooksSuite: BenchSuite = {
  name: 'webhooks',
  description: `importing ${DAS.toLocaleString('en-AU')} new DAs with ${SUBSCRIPTIONS} subscriptions: outbox cost, fan-out, delivery rate and latency to a local receiver`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'propintel-bench-webhooks-'));
    const rows: BenchRow[] = [];
    // The feed: DAS records over exactly SUBSCRIPTIONS councils, written as `das import` reads it.
    const records = [...syntheticDaRows({ count: DAS, councils: SUBSCRIPTIONS, seed: 16 })];
    const councils = [...new Set(records.map((r) => `${r.state}\u0000${r.council}`))];
    const feed = join(dir, 'feed.jsonl');
    writeFileSync(feed, records.map((r) => JSON.stringify(r)).join('\n'));

    // The receiver: counts arrivals and their times.
    const arrivals: number[] = [];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrivals.push(performance.now());
        res.writeHead(204).end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    try {
      // Warm-up (JIT, page cache): one untimed import into a throwaway store.
      const warm = DaStore.open(join(dir, 'warm.sqlite'));
      await importDaFile(warm, feed);
      warm.close();
      // 1. Without subscriptions or a worker.
      const plain = DaStore.open(join(dir, 'plain.sqlite'));
      let t0 = performance.now();
      const r0 = await importDaFile(plain, feed);
      const plainMs = performance.now() - t0;
      plain.close();
      if (r0.added !== DAS) throw new Error(`expected ${DAS} new records, the import added ${r0.added}`);

      // 2. With the subscriptions and the worker running.
      const db = join(dir, 'hooked.sqlite');
      const store = SqliteStore.open(db);
      const das = DaStore.open(db);
      const hooks = store.webhooks();
      subscribeEach(hooks, councils, url);
      const dispatcher = new WebhookDispatcher({ store: hooks, das: () => das, allowPrivate: true, pollMs: 50 });
      dispatcher.start();
      t0 = performance.now();
      const r1 = await importDaFile(das, feed);
      const committed = performance.now();
      const hookedMs = committed - t0;
      rows.push({
        benchmark: 'import with 100 subscriptions and the worker running',
        size: `${DAS} DAs`,
        msPerOp: hookedMs,
        itemsPerSec: DAS / (hookedMs / 1000),
        reference: 'the same import, no subscriptions, no worker',
        refMsPerOp: plainMs,
        ratio: plainMs / hookedMs,
        note: `${r1.added} added; outbox events written in the import's transaction either way; target: at most 1.5x slower (ratio >= 0.67)`,
      });
      // Wait for every delivery (or give up after two minutes).
      const deadline = performance.now() + 120_000;
      while (arrivals.length < DAS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const doneAt = performance.now();
      await dispatcher.stop();
      const deliveredMs = doneAt - committed;
      const latencies = arrivals.map((a) => a - committed).sort((a, b) => a - b);
      rows.push({
        benchmark: 'deliveries from commit to the last arrival',
        size: `${arrivals.length} of ${DAS}`,
        msPerOp: deliveredMs,
        itemsPerSec: arrivals.length / (deliveredMs / 1000),
        note: `p50 ${Math.round(percentile(latencies, 50))} ms, p95 ${Math.round(percentile(latencies, 95))} ms from the import's commit to arrival; ${SUBSCRIPTIONS} endpoints on one local receiver, signed, 204 answers`,
      });
      das.close();
      await store.close();

      // 3. Fan-out alone: the same events into deliveries, on a copy with no worker sending.
      const db2 = join(dir, 'fanout.sqlite');
      const store2 = SqliteStore.open(db2);
      const das2 = DaStore.open(db2);
      const hooks2 = store2.webhooks();
      subscribeEach(hooks2, councils, url);
      await importDaFile(das2, feed);
      const fan = new WebhookDispatcher({ store: hooks2, das: () => das2, allowPrivate: true });
      t0 = performance.now();
      const queued = fan.fanOut();
      const fanMs = performance.now() - t0;
      rows.push({
        benchmark: 'fan-out: outbox events to deliveries',
        size: `${DAS} events x ${SUBSCRIPTIONS} subs`,
        msPerOp: fanMs,
        itemsPerSec: DAS / (fanMs / 1000),
        note: `${queued} deliveries queued (events per second; each event tested against every subscription's filters)`,
      });
      await fan.stop(0);
      das2.close();
      await store2.close();
    } finally {
      receiver.closeAllConnections();
      receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
