/**
 * The PostgreSQL store's schema. Its tables are rendered from the description the SQLite store renders too
 * (tables.ts, and the engine's DA_TABLES), so the two dialects cannot drift apart. Each replica brings the
 * database to it at start, holding a session advisory lock, so when several start at once one migrates and
 * the others wait and then find nothing to do: missing tables and indexes are created and columns renamed
 * or added since are brought in (postgresReconcile). `propintel_meta.schema_version` records the version; a
 * database written by a newer propintel is refused rather than guessed at.
 *
 * The DA tables hold the records and the webhook outbox (`da_events`); the summary
 * tables and radius index the listing reads are kept by each replica's local copy (da-replica.ts), not here.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { postgresReconcile, type TableDef } from '../../../engine/entry/data.js';
import { DA_DERIVATION_VERSION, DA_TABLES } from '../../../engine/entry/das.js';
import { EngineError } from '../../../engine/index.js';
import { BATCH_TABLES, KEY_TABLES, WEBHOOK_TABLES } from '../tables.js';

/** The advisory lock key of migrations (any fixed number: 'prop' in ASCII). */
const MIGRATION_LOCK = 0x70726f70;

/**
 * The schema versions: 1 wrote the tables by hand; 2 renders them from their one description (tables.ts and
 * the engine's DA_TABLES), which renamed `request_counts.win` to `time_window`; 3 added the batch jobs and
 * their chunks (BATCH_TABLES).
 */
export const PG_SCHEMA_VERSION = 3;

/** Every table the PostgreSQL store keeps, from the one description both dialects render. */
export const PG_TABLES: readonly TableDef[] = [...KEY_TABLES, ...WEBHOOK_TABLES, ...BATCH_TABLES, ...DA_TABLES];

/** What is not a table: the meter's charge as one server-side function. */
const FUNCTIONS = `
  -- The meter's charge in one round trip. The count row is locked (FOR UPDATE) before the address is looked
  -- for, so concurrent charges of one key and period, from any replica, run one after the other: the quota
  -- is never passed and no address is counted twice.
  CREATE OR REPLACE FUNCTION propintel_charge(p_key text, p_period text, p_address text, p_quota integer, p_at text)
  RETURNS TABLE (outcome text, used integer) LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    INSERT INTO usage_counts AS c (key_id, period_key, used) VALUES (p_key, p_period, 0) ON CONFLICT DO NOTHING;
    SELECT c.used INTO n FROM usage_counts c WHERE c.key_id = p_key AND c.period_key = p_period FOR UPDATE;
    IF EXISTS (SELECT 1 FROM usage_addresses a WHERE a.key_id = p_key AND a.period_key = p_period AND a.address_key = p_address) THEN
      RETURN QUERY SELECT 'repeat'::text, n;
      RETURN;
    END IF;
    IF n >= p_quota THEN
      RETURN QUERY SELECT 'quota_exceeded'::text, n;
      RETURN;
    END IF;
    INSERT INTO usage_addresses (key_id, period_key, address_key, charged_at) VALUES (p_key, p_period, p_address, p_at);
    UPDATE usage_counts c SET used = n + 1 WHERE c.key_id = p_key AND c.period_key = p_period;
    RETURN QUERY SELECT 'charged'::text, n + 1;
  END $$;
`;

/**
 * Brings the database to {@link PG_SCHEMA_VERSION} in one transaction, under the migration lock. Returns
 * the version found before and after. Also records, once, the database's instance id
 * (replicas' local copies check it, so a copy of another database is never mistaken for this one's).
 */
export async function migrate(pool: pg.Pool): Promise<{ from: number; to: number; instance: string }> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS propintel_meta (key text PRIMARY KEY, value text NOT NULL)');
      const v = await client.query<{ value: string }>("SELECT value FROM propintel_meta WHERE key = 'schema_version'");
      const from = v.rows.length ? Number(v.rows[0].value) : 0;
      if (from > PG_SCHEMA_VERSION) throw new EngineError('UNSUPPORTED', `the PostgreSQL database has propintel schema version ${from}; this propintel reads ${PG_SCHEMA_VERSION} (upgrade propintel)`, { schema_version: from });
      if (from < PG_SCHEMA_VERSION) {
        await client.query('BEGIN');
        try {
          await postgresReconcile(client, PG_TABLES);
          await client.query(FUNCTIONS);
          await client.query(`INSERT INTO propintel_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(PG_SCHEMA_VERSION)]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`PostgreSQL migration from schema ${from} to ${PG_SCHEMA_VERSION} failed: ${(err as Error).message}`);
        }
      }
      // A new database holds records derived by this code's rules (pg-da-log.ts re-derives older ones).
      await client.query(`INSERT INTO propintel_meta (key, value) VALUES ('instance', $1), ('da_seq', '0'), ('da_derivation_version', $2) ON CONFLICT DO NOTHING`, [randomUUID(), String(DA_DERIVATION_VERSION)]);
      const inst = await client.query<{ value: string }>("SELECT value FROM propintel_meta WHERE key = 'instance'");
      return { from, to: PG_SCHEMA_VERSION, instance: inst.rows[0].value };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    }
  } finally {
    client.release();
  }
}
