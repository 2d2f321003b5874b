/**
 * The read-only SQL endpoint and the MCP server (issue 17).
 *
 * `sql`: on the DA suite's store of 1,000,000 synthetic DAs (built once into var/bench/, see das.ts):
 * - the SQL mirror's first build (every record copied into the file that holds only `das`) and a sync with
 *   nothing new;
 * - a grouped count (state x category) and a filtered 1,000-row page with parameters, through the runner
 *   (text gate, a child process, IPC, row cap) beside the same statement run in this process on the same
 *   mirror file with better-sqlite3: the cost of the isolation. p50 of 9 runs after one warm-up.
 *
 * `mcp`: a tool call's round trip (get_stats, and search_das for 20 records) over Streamable HTTP at /mcp
 * and over stdio (`propintel mcp`), beside GET /v1/stats over HTTP; p50 of 50 calls after 5 warm-ups. The
 * server is uWebSockets.js on the sample world's DAs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { DaStore, daStoreFromDirectory, SqlRunner } from '../../engine/entry/das.js';
import type { PropertyService } from '../../engine/entry/property.js';
import { PACKAGE_ROOT } from '../../engine/entry/runtime.js';
import { startServer } from '../../server/http-server.js';
import { createKey } from '../../server/keys/key-admin.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import { percentile, timeRuns } from '../lib/measure.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';
import { ensureFixture } from './das.js';

const p50 = (xs: number[]) => percentile(xs, 50);

export const sqlSuite: BenchSuite = {
  name: 'sql',
  description: 'read-only SQL over 1,000,000 DAs: the mirror build, and queries through the isolated runner vs in process',
  async run() {
    const rows: BenchRow[] = [];
    const { path } = await ensureFixture();
    const dir = mkdtempSync(join(tmpdir(), 'propintel-bench-sql-'));
    const das = DaStore.open(path);
    const runner = new SqlRunner({ mirror: join(dir, 'mirror.sqlite'), das: () => das });
    try {
      let t0 = performance.now();
      const copied = runner.sync();
      const buildMs = performance.now() - t0;
      rows.push({ benchmark: 'mirror: first build (records copied into the das-only file)', size: `${copied} DAs`, msPerOp: buildMs, itemsPerSec: copied / (buildMs / 1000) });
      t0 = performance.now();
      runner.sync();
      rows.push({ benchmark: 'mirror: sync with nothing new', size: `${copied} DAs`, msPerOp: performance.now() - t0 });
      const direct = new Database(join(dir, 'mirror.sqlite'), { readonly: true });
      // The same reading set-up as the query process (sql-child.ts), so the difference is the isolation alone.
      direct.pragma('mmap_size = 1073741824');
      direct.pragma('cache_size = -65536');
      const queries: [string, string, unknown[]][] = [
        ['grouped count, state x category', 'SELECT state, trade_category, count(*) AS n FROM das GROUP BY state, trade_category', []],
        ['1,000 rows, filtered, with parameters', 'SELECT id, council_name, address, lodgement_date, status FROM das WHERE state = ? AND lodgement_date >= ? ORDER BY lodgement_date DESC LIMIT 1000', ['NSW', '2025-01-01']],
      ];
      for (const [label, sql, params] of queries) {
        const isolated = await timeRuns(9, () => runner.run(sql, params));
        const stmt = direct.prepare(sql);
        const inProcess = await timeRuns(9, () => stmt.all(...params));
        const r = await runner.run(sql, params);
        rows.push({
          benchmark: `runner: ${label}`,
          size: `${copied} DAs`,
          msPerOp: p50(isolated),
          reference: 'same statement in process (better-sqlite3)',
          refMsPerOp: p50(inProcess),
          ratio: p50(inProcess) / p50(isolated),
          note: `${r.rows.length} rows; p50 of 9; the isolation's cost is the difference (gate, IPC, a process per query slot)`,
        });
      }
      direct.close();
    } finally {
      runner.close();
      das.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

export const mcpSuite: BenchSuite = {
  name: 'mcp',
  description: 'MCP tool-call round trips over Streamable HTTP and stdio, beside the plain HTTP endpoint',
  async run() {
    const rows: BenchRow[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'propintel-bench-mcp-'));
    await ensureSampleWorld(defaultDataDir());
    const store = SqliteStore.open(join(dir, 'store.sqlite'));
    const dasFile = join(dir, 'das.sqlite');
    const das = await daStoreFromDirectory(defaultDataDir(), dasFile);
    const server = await startServer({ service: {} as PropertyService, store, das: () => das, port: 0 });
    const key = (await createKey(store, { components: 'none', daDailyLimit: 1_000_000 })).key;
    const clients: [string, Client][] = [];
    try {
      const http = new Client({ name: 'bench', version: '1' });
      await http.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      clients.push(['Streamable HTTP', http]);
      const stdio = new Client({ name: 'bench', version: '1' });
      await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [join(PACKAGE_ROOT, 'bin', 'propintel.js'), 'mcp', '--db', dasFile], cwd: PACKAGE_ROOT, stderr: 'ignore' }));
      clients.push(['stdio', stdio]);
      const get = () => fetch(`${server.url}/v1/stats`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.text());
      for (let i = 0; i < 4; i++) await get();
      const plain = p50(await timeRuns(50, get));
      for (const [tool, args] of [['get_stats', {}], ['search_das', { state: 'NSW', per_page: 20 }]] as const) {
        for (const [name, client] of clients) {
          for (let i = 0; i < 4; i++) await client.callTool({ name: tool, arguments: args });
          const t = p50(await timeRuns(50, () => client.callTool({ name: tool, arguments: args })));
          rows.push({
            benchmark: `${tool} over ${name}`,
            size: `${das.size} DAs`,
            msPerOp: t,
            itemsPerSec: 1000 / t,
            reference: tool === 'get_stats' && name === 'Streamable HTTP' ? 'GET /v1/stats (same key, same server)' : undefined,
            refMsPerOp: tool === 'get_stats' && name === 'Streamable HTTP' ? plain : undefined,
            ratio: tool === 'get_stats' && name === 'Streamable HTTP' ? plain / t : undefined,
            note: name === 'stdio' ? 'p50 of 50; a long-lived `propintel mcp` process' : 'p50 of 50; stateless: a fresh MCP server and transport per request',
          });
        }
      }
    } finally {
      for (const [, c] of clients) await c.close().catch(() => {});
      await server.close(1000);
      das.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
