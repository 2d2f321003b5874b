/**
 * The PostgreSQL store's schema, as numbered migrations. Each replica runs them at start, holding a session
 * advisory lock, so when several start at once one migrates and the others wait and then find nothing to do.
 * `propintel_meta.schema_version` records the last applied; a database written by a newer propintel is
 * refused rather than guessed at.
 *
 * The tables follow the SQLite store's (server/store/sqlite-store.ts, webhook-store.ts, engine/da/da-schema.ts)
 * with PostgreSQL types. The DA tables hold the records and the webhook outbox (`da_events`); the summary
 * tables and radius index the listing reads are kept by each replica's local copy (da-replica.ts), not here.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { DA_DERIVATION_VERSION } from '../../../engine/entry/das.js';
import { EngineError } from '../../../engine/index.js';

/** The advisory lock key of migrations (any fixed number: 'prop' in ASCII). */
const MIGRATION_LOCK = 0x70726f70;

/** Migrations in order; index + 1 is the version each brings the database to. */
const MIGRATIONS: string[] = [
  // 1: keys, meter, limits, settings, webhooks, DA records and their event outbox.
  `
  CREATE TABLE api_keys (
    id text PRIMARY KEY, hash text NOT NULL, label text, components jsonb NOT NULL, geometry boolean NOT NULL, quota integer NOT NULL,
    period text NOT NULL, effective_date text, onboarding_until text, da_daily_limit integer, childcare jsonb, sql boolean NOT NULL DEFAULT false,
    created_at text NOT NULL, revoked_at text
  );
  CREATE TABLE usage_counts (key_id text NOT NULL, period_key text NOT NULL, used integer NOT NULL, PRIMARY KEY (key_id, period_key));
  CREATE TABLE usage_addresses (key_id text NOT NULL, period_key text NOT NULL, address_key text NOT NULL, charged_at text NOT NULL,
    PRIMARY KEY (key_id, period_key, address_key));
  CREATE TABLE request_counts (bucket text NOT NULL, win text NOT NULL, count integer NOT NULL, expires_at bigint NOT NULL, PRIMARY KEY (bucket, win));
  CREATE INDEX request_counts_expiry ON request_counts (expires_at);
  CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL);

  -- The meter's charge in one round trip. The count row is locked (FOR UPDATE) before the address is looked
  -- for, so concurrent charges of one key and period, from any replica, run one after the other: the quota
  -- is never passed and no address is counted twice.
  CREATE FUNCTION propintel_charge(p_key text, p_period text, p_address text, p_quota integer, p_at text)
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

  CREATE TABLE webhooks (
    id text PRIMARY KEY, key_id text NOT NULL, url text NOT NULL, events text NOT NULL, filters text NOT NULL, secret text NOT NULL,
    status text NOT NULL DEFAULT 'active', disabled_reason text, created_at text NOT NULL, after_event bigint NOT NULL
  );
  CREATE INDEX webhooks_key ON webhooks (key_id, created_at);
  CREATE TABLE webhook_deliveries (
    n bigserial UNIQUE, id text PRIMARY KEY, webhook_id text NOT NULL, event_id text NOT NULL, type text NOT NULL, body text NOT NULL,
    state text NOT NULL, attempts integer NOT NULL DEFAULT 0, next_attempt_at bigint NOT NULL, created_at bigint NOT NULL,
    last_status integer, last_error text
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (webhook_id, created_at);
  CREATE TABLE webhook_attempts (
    delivery_id text NOT NULL, attempt integer NOT NULL, at bigint NOT NULL, status integer, error text, duration_ms double precision NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
  );
  CREATE TABLE webhook_meta (key text PRIMARY KEY, value text NOT NULL);

  CREATE TABLE das (
    id bigint PRIMARY KEY,
    council_name text NOT NULL, council_reference text NOT NULL, state text NOT NULL, address text NOT NULL, address_suburb text NOT NULL,
    suburb_key text NOT NULL, address_postcode text, description text NOT NULL, trade_category text NOT NULL, categories text NOT NULL,
    sub_category text, application_type text NOT NULL, is_residential integer NOT NULL, lodgement_date text NOT NULL, status text NOT NULL,
    status_group text NOT NULL, decision_date text, decision_status text, on_notice_from text, on_notice_to text,
    cost_of_development double precision, cost_band text, value_band text NOT NULL, number_of_dwellings integer, lot_count integer,
    storeys integer, land_use text, building_type text, applicant_name text, latitude double precision, longitude double precision,
    info_url text NOT NULL, info_url_type text NOT NULL, data_source text NOT NULL, date_fetched text NOT NULL, observed_at text,
    seq bigint NOT NULL
  );
  -- Council names match without case, as in the SQLite store (COLLATE NOCASE there).
  CREATE UNIQUE INDEX das_identity ON das (state, lower(council_name), council_reference);
  CREATE INDEX das_seq ON das (seq);
  CREATE TABLE da_events (seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, type text NOT NULL, da_id bigint NOT NULL, created_at text NOT NULL, data text NOT NULL);
  CREATE INDEX da_events_created ON da_events (created_at);
  CREATE TABLE das_sources (source text PRIMARY KEY, fingerprint text NOT NULL, records integer NOT NULL, imported_at text NOT NULL);
  `,
];

/** The schema version this code reads and writes. */
export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the database to {@link PG_SCHEMA_VERSION}, one migration per transaction, under the migration lock.
 * Returns the version found before and whether anything ran. Also records, once, the database's instance id
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
      for (let i = from; i < PG_SCHEMA_VERSION; i++) {
        await client.query('BEGIN');
        try {
          await client.query(MIGRATIONS[i]);
          await client.query(`INSERT INTO propintel_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(i + 1)]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`PostgreSQL migration ${i + 1} failed: ${(err as Error).message}`);
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
