/**
 * Childcare reports (issue 19) on the sample world: a 5 km circle around the NSW tile's centre (the densest
 * DAs of the world), rendered as PDF and as HTML, p50 of 15 after one warm-up each: the whole report
 * (site analysis, map layers, drawing, rendering) in this thread, and the render alone through the worker
 * pool as the server runs it. Then reports per second through the pool at the server's default concurrency
 * limit (2 in flight), and the renderer's memory: the peak heap and RSS rise over the start while rendering.
 *
 * Targets (benchmark, not test): PDF p50 < 300 ms, HTML p50 < 100 ms.
 */
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { siteAnalysis, type SiteRequest } from '../../engine/entry/childcare.js';
import { createEngine } from '../../engine/index.js';
import { DEFAULT_REPORT_CONCURRENCY } from '../../server/api/api.js';
import { percentile, timeRuns } from '../lib/measure.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

export const reportsSuite: BenchSuite = {
  name: 'reports',
  description: 'childcare PDF and HTML reports of a 5 km circle on the sample world: in thread, through the pool, throughput at the concurrency limit, memory',
  async run() {
    const dir = defaultDataDir();
    await ensureSampleWorld(dir, (line) => process.stdout.write(`  ${line}\n`));
    const engine = await createEngine({ datasets: dir, threads: 2 });
    const rows: BenchRow[] = [];
    try {
      const centre = engine.das().list({ state: 'NSW', category: 'childcare' }, { limit: 1000 }).filter((r) => r.lat !== null);
      const lat = centre.reduce((s, r) => s + r.lat!, 0) / centre.length, lng = centre.reduce((s, r) => s + r.lng!, 0) / centre.length;
      const req: SiteRequest = { state: 'NSW', catchment: { kind: 'circle', lat, lng, radius_km: 5 }, suburb: null };
      const data = siteAnalysis(engine.das(), engine, req);
      const total = (data.headline as { total: number }).total;
      const size = `5 km circle, ${total} childcare DAs`;
      const heap0 = process.memoryUsage().heapUsed, rss0 = process.memoryUsage().rss;
      let heapPeak = heap0, rssPeak = rss0;
      const sample = () => {
        const m = process.memoryUsage();
        heapPeak = Math.max(heapPeak, m.heapUsed);
        rssPeak = Math.max(rssPeak, m.rss);
      };
      for (const format of ['pdf', 'html'] as const) {
        let bytes = 0;
        const whole = await timeRuns(15, async () => {
          const f = await engine.childcare.report(req, format, { inThread: true });
          bytes = f.body.length;
          sample();
          return f;
        });
        rows.push({ benchmark: `${format.toUpperCase()} report, whole, in thread`, size, msPerOp: percentile(whole, 50), note: `p50 of 15 (max ${Math.round(Math.max(...whole))} ms), ${(bytes / 1024).toFixed(0)} KB; analysis + map layers + drawing + render; target p50 < ${format === 'pdf' ? 300 : 100} ms` });
        const pooled = await timeRuns(15, () => engine.childcare.report(req, format, { data }));
        rows.push({ benchmark: `${format.toUpperCase()} report, render on the pool`, size, msPerOp: percentile(pooled, 50), note: 'p50 of 15; the analysis given, as the server does: map layers and drawing here, the render in a worker' });
      }
      // Throughput at the limit: reports kept in flight DEFAULT_REPORT_CONCURRENCY at a time.
      for (const format of ['pdf', 'html'] as const) {
        const n = 24;
        let next = 0;
        const t0 = performance.now();
        await Promise.all(Array.from({ length: DEFAULT_REPORT_CONCURRENCY }, async () => {
          while (next < n) {
            next++;
            await engine.childcare.report(req, format, { data });
            sample();
          }
        }));
        const ms = performance.now() - t0;
        rows.push({ benchmark: `${format.toUpperCase()} reports at the concurrency limit (${DEFAULT_REPORT_CONCURRENCY} in flight)`, size, msPerOp: ms / n, itemsPerSec: n / (ms / 1000), note: `${n} reports through the pool (2 threads)` });
      }
      rows.push({ benchmark: 'renderer memory (main thread, while rendering)', size, msPerOp: 0, note: `heap at most ${((heapPeak - heap0) / 1e6).toFixed(1)} MB and RSS at most ${((rssPeak - rss0) / 1e6).toFixed(1)} MB above the start (RSS includes the worker threads' heaps)` });
    } finally {
      await engine.close();
    }
    return rows;
  },
};
