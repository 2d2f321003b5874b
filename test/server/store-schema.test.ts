// One schema, two dialects: every table family is described once (server/store/tables.ts, engine/da/da-tables.ts)
// and rendered for SQLite and PostgreSQL. These tests read each database's live catalogue back and compare it
// with the description, for new databases and for databases an older propintel wrote (SQLite stores with the
// `window` column and no `sql` flag; a PostgreSQL database at schema 1 with `win`), whose rows must survive.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createStatements, createTableSql, expectedColumns, tablesFor, type TableDef } from '../../engine/tables/table-schema.js';
import { DA_TABLES } from '../../engine/da/da-tables.js';
import { CONTENT_COLUMNS } from '../../engine/da/da-schema.js';
import { DaStore } from '../../engine/da/da-store.js';
import { PgStore } from '../../server/store/pg/pg-store.js';
import { PG_SCHEMA_VERSION, PG_TABLES } from '../../server/store/pg/pg-schema.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import { BATCH_TABLES, KEY_TABLES, WEBHOOK_TABLES } from '../../server/store/tables.js';
import { usePostgres } from '../helpers/postgres.js';
import { needs } from '../helpers/skip.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir('store-schema-');
const postgres = usePostgres();
const closing: { close(): unknown }[] = [];
afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
});

const ALL: readonly TableDef[] = [...KEY_TABLES, ...WEBHOOK_TABLES, ...BATCH_TABLES, ...DA_TABLES];

/** A SQLite table's columns as its catalogue reports them. */
function sqliteColumns(db: Database.Database, table: string) {
  const rows = db.prepare('SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?) ORDER BY cid').all(table) as { name: string; type: string; nn: number; pk: number }[];
  // SQLite reports an INTEGER PRIMARY KEY (the rowid) as nullable; it never is.
  return rows.map((r) => ({ name: r.name, type: r.type, notNull: r.nn === 1 || r.pk > 0 }));
}

const byName = <T extends { name: string }>(xs: T[]) => [...xs].sort((a, b) => a.name.localeCompare(b.name));

async function pgColumns(client: pg.Client, table: string) {
  const { rows } = await client.query<{ column_name: string; data_type: string; is_nullable: string }>(
    'SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
    [table],
  );
  return rows.map((r) => ({ name: r.column_name, type: r.data_type, notNull: r.is_nullable === 'NO' }));
}

describe('table descriptions render for both dialects', () => {
  const t: TableDef = {
    name: 'demo',
    columns: [
      { name: 'seq', type: 'serial' },
      { name: 'who', type: 'text', nocase: true },
      { name: 'flag', type: 'boolean', default: false },
      { name: 'doc', type: 'json', nullable: true },
      { name: 'n', type: 'bigint', only: 'postgres' },
    ],
    indexes: [{ name: 'demo_who', columns: ['who'], unique: true, where: "doc IS NOT NULL" }],
  };

  it('writes the DDL of each dialect from one description (hand-worked)', () => {
    expect(createStatements([t], 'sqlite')).toEqual([
      'CREATE TABLE IF NOT EXISTS demo (\n  seq INTEGER PRIMARY KEY AUTOINCREMENT,\n  who TEXT NOT NULL COLLATE NOCASE,\n  flag INTEGER NOT NULL DEFAULT 0,\n  doc TEXT\n)',
      'CREATE UNIQUE INDEX IF NOT EXISTS demo_who ON demo (who) WHERE doc IS NOT NULL',
    ]);
    expect(createStatements([t], 'postgres', false)).toEqual([
      'CREATE TABLE demo (\n  seq bigserial PRIMARY KEY,\n  who text NOT NULL,\n  flag boolean NOT NULL DEFAULT false,\n  doc jsonb,\n  n bigint NOT NULL\n)',
      // Without case in PostgreSQL is an index on lower().
      'CREATE UNIQUE INDEX demo_who ON demo (lower(who)) WHERE doc IS NOT NULL',
    ]);
  });

  it('keeps the DA table in step with the columns the store writes', () => {
    const das = DA_TABLES.find((x) => x.name === 'das')!;
    expect(das.columns.map((c) => c.name)).toEqual(['id', ...CONTENT_COLUMNS, 'seq']);
  });

  it('gives every table family to both dialects, leaving out only what is marked as one dialect\'s', () => {
    const shared = ALL.filter((x) => !x.only).map((x) => x.name).sort();
    expect(tablesFor(ALL, 'sqlite').map((x) => x.name).filter((n) => shared.includes(n)).sort()).toEqual(shared);
    expect(tablesFor(PG_TABLES, 'postgres').map((x) => x.name).sort()).toEqual(shared);
    // The families the issue names are all among them.
    for (const name of ['api_keys', 'usage_counts', 'usage_addresses', 'request_counts', 'settings', 'webhooks', 'webhook_deliveries', 'webhook_attempts', 'batch_jobs', 'batch_chunks', 'das', 'da_events', 'das_sources']) {
      expect(shared).toContain(name);
    }
  });
});

describe('SQLite: the live schema is the description', () => {
  it('in a new store file (server tables, webhooks and DA tables in one file)', () => {
    const path = join(dir, 'new.sqlite');
    const store = SqliteStore.open(path);
    store.webhooks();
    store.batches();
    const das = DaStore.open(path);
    const db = new Database(path, { readonly: true });
    try {
      for (const t of tablesFor(ALL, 'sqlite')) expect(byName(sqliteColumns(db, t.name)), t.name).toEqual(byName(expectedColumns(t, 'sqlite')));
      for (const t of tablesFor(ALL, 'sqlite')) {
        for (const i of t.indexes ?? []) {
          expect(db.prepare('SELECT name FROM pragma_index_info(?)').pluck().all(i.name), i.name).toEqual([...i.columns]);
        }
      }
    } finally {
      db.close();
      das.close();
      store.close();
    }
  });

  it('in a store an older propintel wrote: the renamed column keeps its rows, the added one its default, a changed index is rebuilt', () => {
    const path = join(dir, 'old.sqlite');
    const old = new Database(path);
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO meta (key, value) VALUES ('schema_version', '1');
      CREATE TABLE api_keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL, label TEXT, components TEXT NOT NULL, geometry INTEGER NOT NULL, quota INTEGER NOT NULL,
        period TEXT NOT NULL, effective_date TEXT, onboarding_until TEXT, da_daily_limit INTEGER, childcare TEXT, created_at TEXT NOT NULL, revoked_at TEXT);
      INSERT INTO api_keys (id, hash, label, components, geometry, quota, period, created_at) VALUES ('k1', 'h', 'old key', '["flood"]', 1, 10, 'monthly', '2026-01-01T00:00:00Z');
      CREATE TABLE request_counts (bucket TEXT NOT NULL, window TEXT NOT NULL, count INTEGER NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (bucket, window)) WITHOUT ROWID;
      INSERT INTO request_counts VALUES ('k1', '2099-01-01', 4, 4102444800000);
      CREATE TABLE webhook_deliveries (id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, event_id TEXT NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL,
        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL, created_at INTEGER NOT NULL, last_status INTEGER, last_error TEXT);
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);`);
    old.close();

    const store = SqliteStore.open(path);
    store.webhooks();
    store.batches();
    try {
      const key = store.keyById('k1')!;
      expect(key.label).toBe('old key');
      expect(key.sql).toBe(false);
      // The count made under the old column name is still counted: the limit of 5 allows one more, then refuses.
      expect(store.countRequest('k1', '2099-01-01', 5, new Date(4102444800000))).toMatchObject({ allowed: true, used: 5 });
      expect(store.countRequest('k1', '2099-01-01', 5, new Date(4102444800000))).toMatchObject({ allowed: false });
    } finally {
      store.close();
    }
    const db = new Database(path, { readonly: true });
    try {
      for (const t of tablesFor([...KEY_TABLES, ...WEBHOOK_TABLES], 'sqlite')) {
        expect(byName(sqliteColumns(db, t.name)).map((c) => [c.name, c.type]), t.name).toEqual(byName(expectedColumns(t, 'sqlite')).map((c) => [c.name, c.type]));
      }
      expect(db.prepare('SELECT name FROM pragma_index_info(?)').pluck().all('webhook_deliveries_due')).toEqual(['next_attempt_at']);
      expect(db.prepare("SELECT partial FROM pragma_index_list('webhook_deliveries') WHERE name = 'webhook_deliveries_due'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('PostgreSQL: the live schema is the description', () => {
  it('in a new database', async (ctx) => {
    needs(ctx, postgres.missing);
    const url = await postgres.pg!.fresh();
    const store = await PgStore.open(url, { max: 2 });
    closing.push(store);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const t of tablesFor(PG_TABLES, 'postgres')) expect(byName(await pgColumns(client, t.name)), t.name).toEqual(byName(expectedColumns(t, 'postgres')));
      const indexes = (await client.query<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()')).rows.map((r) => r.indexname);
      for (const t of tablesFor(PG_TABLES, 'postgres')) for (const i of t.indexes ?? []) expect(indexes, i.name).toContain(i.name);
      const version = (await client.query<{ value: string }>("SELECT value FROM propintel_meta WHERE key = 'schema_version'")).rows[0].value;
      expect(Number(version)).toBe(PG_SCHEMA_VERSION);
    } finally {
      await client.end();
    }
  });

  it('in a database at schema 1: `win` becomes `time_window` with its counts, and the store works on it', async (ctx) => {
    needs(ctx, postgres.missing);
    const url = await postgres.pg!.fresh();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(readFileSync(new URL('../fixtures/store/pg-schema-v1.sql', import.meta.url), 'utf8'));
      await client.query("CREATE TABLE propintel_meta (key text PRIMARY KEY, value text NOT NULL); INSERT INTO propintel_meta VALUES ('schema_version', '1')");
      await client.query("INSERT INTO request_counts (bucket, win, count, expires_at) VALUES ('k1', '2099-01-01', 4, 4102444800000)");
      const store = await PgStore.open(url, { max: 2 });
      closing.push(store);
      expect(await store.countRequest('k1', '2099-01-01', 5, new Date(4102444800000))).toMatchObject({ allowed: true, used: 5 });
      expect(await store.countRequest('k1', '2099-01-01', 5, new Date(4102444800000))).toMatchObject({ allowed: false });
      for (const t of tablesFor(PG_TABLES, 'postgres')) expect(byName(await pgColumns(client, t.name)), t.name).toEqual(byName(expectedColumns(t, 'postgres')));
      expect((await client.query<{ value: string }>("SELECT value FROM propintel_meta WHERE key = 'schema_version'")).rows[0].value).toBe(String(PG_SCHEMA_VERSION));
    } finally {
      await client.end();
    }
  });
});

// The one renderer is what both stores run: a description changed here reaches both (checked by rendering
// the SQLite CREATE of one table and finding it, verbatim up to IF NOT EXISTS, in a new store's catalogue).
describe('the renderer is the source of the SQLite catalogue', () => {
  it('stores the rendered CREATE TABLE of every server table', () => {
    const path = join(dir, 'render.sqlite');
    SqliteStore.open(path).close();
    const db = new Database(path, { readonly: true });
    try {
      for (const t of tablesFor(KEY_TABLES, 'sqlite')) {
        const stored = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(t.name) as string;
        expect(stored, t.name).toBe(createTableSql(t, 'sqlite', false));
      }
    } finally {
      db.close();
    }
  });
});
