/**
 * `npm run bench [-- SUITE ...] [--quick]`: runs the benchmark suites on the built output, prints one table
 * and writes bench/results/latest.json. Suites are listed in SUITES; name some to run only those.
 */
import { fileURLToPath } from 'node:url';
import { setDefaultMaxTime } from './lib/measure.js';
import { formatTable, machineInfo, writeResults, type BenchRow, type BenchSuite } from './lib/report.js';
import { sampleWorldSuite } from './suites/sample-world.js';
import { spatialIndexSuite } from './suites/spatial-index.js';
import { workerTransferSuite } from './suites/worker-transfer.js';
import { noiseSuite } from './suites/noise.js';
import { walkabilitySuite } from './suites/walkability.js';
import { scoresSuite } from './suites/scores.js';
import { handSuite } from './suites/hand.js';
import { contoursSuite } from './suites/contours.js';
import { webhooksSuite } from './suites/webhooks.js';
import { mcpSuite, sqlSuite } from './suites/sql-mcp.js';
import { childcareSuite } from './suites/childcare.js';
import { reportsSuite } from './suites/reports.js';
import { tilesSuite } from './suites/tiles.js';
import { propertySuite } from './suites/property.js';
import { serverSuite } from './suites/server.js';
import { dasSuite } from './suites/das.js';
import { replicasSuite } from './suites/replicas.js';
import { importSuite } from './suites/import.js';
import { scaleSuite } from './suites/scale.js';
import { statesSuite } from './suites/states.js';
import { batchSuite } from './suites/batch.js';
import { coresSuite } from './suites/cores.js';

/** Every suite, in run order. */
export const SUITES: BenchSuite[] = [spatialIndexSuite, workerTransferSuite, sampleWorldSuite, contoursSuite, noiseSuite, handSuite, walkabilitySuite, scoresSuite, propertySuite, serverSuite, coresSuite, batchSuite, replicasSuite, dasSuite, webhooksSuite, sqlSuite, mcpSuite, childcareSuite, reportsSuite, tilesSuite, importSuite, scaleSuite, statesSuite];

async function main(argv: string[]): Promise<number> {
  const quick = argv.includes('--quick');
  const names = argv.filter((a) => !a.startsWith('--'));
  if (argv.includes('--help')) {
    process.stdout.write(`npm run bench -- [SUITE ...] [--quick]\n\nSuites:\n${SUITES.map((s) => `  ${s.name.padEnd(18)} ${s.description}`).join('\n')}\n`);
    return 0;
  }
  const unknown = names.filter((n) => !SUITES.some((s) => s.name === n));
  if (unknown.length) {
    process.stderr.write(`unknown suite(s): ${unknown.join(', ')}; available: ${SUITES.map((s) => s.name).join(', ')}\n`);
    return 2;
  }
  if (quick) setDefaultMaxTime(0.25);
  const chosen = names.length ? SUITES.filter((s) => names.includes(s.name)) : SUITES;
  const m = machineInfo();
  process.stdout.write(`propintel benchmarks on ${m.cpu} (${m.cores} cores), node ${m.node}\n`);
  const results: Record<string, BenchRow[]> = {};
  const all: BenchRow[] = [];
  const failed: string[] = [];
  for (const suite of chosen) {
    process.stdout.write(`running ${suite.name}: ${suite.description} ...\n`);
    let rows: BenchRow[];
    try {
      rows = await suite.run();
      results[suite.name] = rows;
    } catch (err) {
      // One failing suite must not cost the table of the others; it shows as a failed row and the exit code.
      failed.push(suite.name);
      process.stderr.write(`suite ${suite.name} failed: ${(err as Error)?.stack ?? String(err)}\n`);
      rows = [{ benchmark: 'FAILED', size: '', msPerOp: Number.NaN, note: String((err as Error)?.message ?? err).slice(0, 160) }];
    }
    all.push(...rows.map((r) => ({ ...r, benchmark: `${suite.name}: ${r.benchmark}` })));
  }
  process.stdout.write(`\n${formatTable(all)}\n`);
  const file = fileURLToPath(new URL('../../bench/results/latest.json', import.meta.url));
  writeResults(file, results);
  process.stdout.write(`\nresults written to ${file}\n`);
  if (failed.length) process.stderr.write(`failed suites (last good results kept): ${failed.join(', ')}\n`);
  return failed.length ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
