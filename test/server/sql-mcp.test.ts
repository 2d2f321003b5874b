// The read-only SQL endpoint (issue 17) over real HTTP, on the sample world's DAs: every SQL rule has a case
// here. The MCP server, which runs the same queries, is tested in mcp.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { importDaFile } from '../../engine/da/da-import.js';
import { daStoreFromDirectory } from '../../engine/da/da-sync.js';
import type { DaStore } from '../../engine/da/da-store.js';
import { SqlRunner } from '../../engine/da/sql/sql-runner.js';
import type { PropertyService } from '../../engine/property/kit/contract.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { createKey } from '../../server/keys/key-admin.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir('propintel-sql-mcp-');
const TIMEOUT_MS = 2500;

let das: DaStore;
let store: SqliteStore;
let sql: SqlRunner;
let server: StartedServer;
let key: string; // DA listing and SQL
let daOnly: string; // DA listing, no SQL

async function call(path: string, k: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}
const query = (q: string, params?: unknown[], k = key) => call('/v1/sql', k, { method: 'POST', body: params === undefined ? { query: q } : { query: q, params } });

beforeAll(async () => {
  const db = join(dir, 'store.sqlite');
  store = SqliteStore.open(db);
  das = await daStoreFromDirectory(defaultDataDir(), join(dir, 'das.sqlite'));
  sql = new SqlRunner({ mirror: join(dir, 'mirror.sqlite'), das: () => das, timeoutMs: TIMEOUT_MS });
  server = await startServer({ service: {} as PropertyService, store, das: () => das, sql, port: 0 });
  key = (await createKey(store, { components: 'none', daDailyLimit: 100_000, sql: true })).key;
  daOnly = (await createKey(store, { components: 'none', daDailyLimit: 100_000 })).key;
}, 60_000);

afterAll(async () => {
  await server?.close(2000);
  sql?.close();
  das?.close();
  await store?.close();
});

describe('POST /v1/sql', () => {
  it('answers a grouped count exactly as SQLite does on the DA store, rows as objects', async () => {
    const r = await query('SELECT state, count(*) AS n FROM das GROUP BY state ORDER BY n DESC, state');
    expect(r.status).toBe(200);
    expect(r.headers.get('ratelimit-limit')).toBe('100000');
    const direct = new Database(join(dir, 'das.sqlite'), { readonly: true });
    const expected = direct.prepare('SELECT state, count(*) AS n FROM das GROUP BY state ORDER BY n DESC, state').all();
    direct.close();
    expect(r.body).toMatchObject({ columns: ['state', 'n'], rows: expected, row_count: expected.length, truncated: false, truncated_by: null, limits: { max_rows: 1000, timeout_s: TIMEOUT_MS / 1000 } });
    expect(expected.length).toBeGreaterThan(1);
  });

  it('takes positional parameters, WITH queries, and the pragma_table_info function; shows only the allowed columns', async () => {
    const one = das.list({}, { limit: 1 })[0];
    const r = await query('WITH x AS (SELECT id, council_reference FROM das WHERE id = ? AND state = ?) SELECT * FROM x', [one.id, one.state]);
    expect(r.body.rows).toEqual([{ id: one.id, council_reference: one.ref }]);
    const cols = await query("SELECT name FROM pragma_table_info('das') ORDER BY cid");
    const names = cols.body.rows.map((x: { name: string }) => x.name);
    expect(names).toContain('council_name');
    for (const hidden of ['description', 'applicant_name', 'summary', 'seq', 'suburb_key']) expect(names).not.toContain(hidden);
    const desc = await query('SELECT description FROM das LIMIT 1');
    expect([desc.status, desc.body.error, desc.body.parameter]).toEqual([422, 'invalid_sql', 'query']);
    expect(desc.body.message).toMatch(/no such column: description/);
  });

  it('reaches the DA table and nothing else: the keys, meter and webhooks are not in the database', async () => {
    const r = await query("SELECT type, name FROM sqlite_master WHERE type = 'table'");
    expect(r.body.rows).toEqual([{ type: 'table', name: 'das' }]);
    const keys = await query('SELECT * FROM api_keys');
    expect([keys.status, keys.body.error]).toEqual([422, 'invalid_sql']);
    expect(keys.body.message).toMatch(/no such table: api_keys/);
  });

  it('refuses before running: empty, two statements, writes, PRAGMA, ATTACH, load_extension', async () => {
    const before = das.size;
    const cases: [string, string][] = [
      ['', 'invalid_sql'],
      ['   ', 'invalid_sql'],
      ['SELECT 1; SELECT 2', 'invalid_sql'],
      ['SELECT 1; DELETE FROM das', 'invalid_sql'],
      ['DELETE FROM das', 'not_a_query'],
      ['UPDATE das SET status = 1', 'not_a_query'],
      ['PRAGMA writable_schema=1', 'not_a_query'],
      ['SELECT * FROM pragma_writable_schema', 'forbidden_sql'],
      ["ATTACH 'x.db' AS x", 'not_a_query'],
      ["SELECT 1 FROM das WHERE 1 = 1 /* */ ; ATTACH 'x.db' AS x", 'invalid_sql'],
      ["WITH a AS (SELECT 1) SELECT load_extension('/tmp/x.so')", 'forbidden_sql'],
      ['WITH a AS (SELECT 1) DELETE FROM das', 'not_a_query'],
      ['SELECT 1 pragma', 'forbidden_sql'],
      // Quoted identifiers name tables too: every quoting of a pragma function outside the allowlist.
      ['SELECT file FROM "pragma_database_list"', 'forbidden_sql'],
      ['SELECT * FROM [pragma_compile_options]', 'forbidden_sql'],
      ['SELECT * FROM `pragma_function_list`', 'forbidden_sql'],
      ['SELECT "load_extension"(\'x\')', 'forbidden_sql'],
    ];
    for (const [q, code] of cases) {
      const r = await query(q);
      expect(r.status, q).toBe(422);
      expect(r.body.error, q).toBe(code);
      expect(r.body.parameter, q).toBe('query');
    }
    // A keyword inside a string literal is just text; a quoted allowed function still works.
    expect((await query("SELECT 'ATTACH; PRAGMA' AS s")).body.rows).toEqual([{ s: 'ATTACH; PRAGMA' }]);
    expect((await query('SELECT count(*) AS n FROM "pragma_table_info"(\'das\')')).body.rows[0].n).toBeGreaterThan(20);
    // Column names: duplicates made unique without clobbering another column; __proto__ is a column like any.
    const named = await query('SELECT 1 AS x, 2 AS x, 3 AS x_2, 4 AS __proto__');
    expect(named.body.columns).toEqual(['x', 'x_2', 'x_2_2', '__proto__']);
    expect(named.body.rows).toEqual([JSON.parse('{"x": 1, "x_2": 2, "x_2_2": 3, "__proto__": 4}')]);
    // Nothing was written: the DA store and its mirror hold what they held, and the mirror holds only das.
    expect(das.size).toBe(before);
    const mirror = new Database(join(dir, 'mirror.sqlite'), { readonly: true });
    expect(mirror.prepare('SELECT count(*) FROM das').pluck().get()).toBe(before);
    expect(mirror.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['das']);
    mirror.close();
  });

  it('refuses a params count that does not match, non-scalar params, and bodies that are not a query', async () => {
    const short = await query('SELECT * FROM das WHERE state = ? AND council_name = ?', ['VIC']);
    expect([short.status, short.body.error, short.body.parameter]).toEqual([422, 'invalid_parameter', 'params']);
    const extra = await query('SELECT 1', [1]);
    expect([extra.status, extra.body.parameter]).toEqual([422, 'params']);
    expect((await query('SELECT ?', [{ a: 1 }])).body.parameter).toBe('params');
    expect((await call('/v1/sql', key, { method: 'POST', body: 'not json' })).body.error).toBe('invalid_body');
    expect((await call('/v1/sql', key, { method: 'POST', body: { sql: 'SELECT 1' } })).body).toMatchObject({ error: 'unknown_parameter', parameter: 'sql' });
    const get = await call('/v1/sql', key);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
    expect((await query('SELECT 1', undefined, daOnly)).status).toBe(403);
  });

  it('stops memory and CPU bombs: randomblob, printf, a never-ending recursive CTE, a fourfold cartesian product', async () => {
    const blob = await query('SELECT length(randomblob(1e9)) AS n');
    expect([blob.status, blob.body.error]).toEqual([422, 'query_failed']);
    expect(blob.body.message).toMatch(/randomblob/);
    expect((await query('SELECT length(randomblob(16)) AS n')).body.rows).toEqual([{ n: 16 }]);
    expect((await query("SELECT printf('%.*c', 100000000, 'x')")).body.error).toBe('query_failed');
    const t0 = Date.now();
    const endless = await query('WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r');
    expect([endless.status, endless.body.error, endless.body.limit_s]).toEqual([422, 'query_timeout', TIMEOUT_MS / 1000]);
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 3000);
    const cartesian = await query('SELECT count(*) FROM das a, das b, das c, das d');
    expect(cartesian.body.error).toBe('query_timeout');
    // The runner is whole again afterwards.
    expect((await query('SELECT count(*) AS n FROM das')).body.rows[0].n).toBe(das.size);
  }, 30_000);

  it('keeps a key to one query running and one waiting: another key answers at once, a third is 429, waiting counts against the limit', async () => {
    const slow = 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r';
    // Every SQL process started first (one query from as many keys at once): the timings below measure queries.
    const warmKeys = await Promise.all(Array.from({ length: sql.processes }, async () => (await createKey(store, { components: 'none', daDailyLimit: 100, sql: true })).key));
    for (const r of await Promise.all(warmKeys.map((k) => query('SELECT 1 AS one', [], k)))) expect(r.status).toBe(200);
    const t0 = Date.now();
    const running = [query(slow), query(slow)];
    await new Promise((r) => setTimeout(r, 300));
    const stats = await call('/v1/stats', key);
    expect(stats.status).toBe(200);
    const third = await query('SELECT 1 AS one');
    expect([third.status, third.body.error, third.headers.get('retry-after')]).toEqual([429, 'too_many_queries', '1']);
    // Another key finds a process free: this key holds one of the three, whatever it sends.
    const other = (await createKey(store, { components: 'none', daDailyLimit: 100, sql: true })).key;
    const t1 = Date.now();
    expect((await query('SELECT 2 AS two', [], other)).body.rows).toEqual([{ two: 2 }]);
    expect(Date.now() - t1).toBeLessThan(1000);
    // The first ran to the limit; the second waited for this key's process and reached the same limit, from
    // its own arrival, without running late.
    const [a, b] = await Promise.all(running);
    expect([a.body.error, b.body.error]).toEqual(['query_timeout', 'query_timeout']);
    expect(b.body.message).toMatch(/waited .* for a free SQL process/);
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 1500);
  }, 30_000);

  it('cuts at 1,000 rows and says so; sees an import at once', async () => {
    const many = await query('WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r LIMIT 5000) SELECT i FROM r');
    expect(many.body).toMatchObject({ row_count: 1000, truncated: true, truncated_by: 'rows' });
    const wide = await query("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r LIMIT 900) SELECT i, hex(zeroblob(4000)) AS pad FROM r");
    expect(wide.body).toMatchObject({ truncated: true, truncated_by: 'bytes' });
    expect(wide.body.row_count).toBeLessThan(900);
    mkdirSync(join(dir, 'feed'), { recursive: true });
    const f = join(dir, 'feed', 'new.jsonl');
    writeFileSync(f, JSON.stringify({ council: 'Test Council', council_reference: 'SQL-NEW-1', state: 'VIC', address: '1 Query St', suburb: 'Selectville', description: 'Construction of a dwelling', status: 'Received', lodged: '2026-11-24', lat: -37.8, lng: 145 }));
    await importDaFile(das, f);
    expect((await query('SELECT address FROM das WHERE council_reference = ?', ['SQL-NEW-1'])).body.rows).toEqual([{ address: '1 Query St' }]);
  });
});
