/**
 * `propintel das`: the DA listing on the command line. `list`, `nearby`, `get`, `categories`, `councils` and
 * `stats` print the same JSON documents as the HTTP endpoints (engine/da/da-listing.ts), on a dataset
 * directory or on the store `serve` uses; `import` loads a file of records into that store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { importDaFile, type DaImportReport, DaStore, UPSERT_KEY, daStoreFromDirectory, daTablesOfDirectory } from '../../engine/entry/das.js';
import { DA_LIST_PARAMETERS, DA_NEARBY_PARAMETERS, daCategoriesDocument, daCouncilsDocument, daDetailDocument, daListDocument, daNearbyDocument, daStatsDocument } from '../../server/api/da-query.js';
import { defaultStorePath } from '../../server/stack.js';
import { DaReplica, loadDaTables } from '../../server/store/pg/da-replica.js';
import { isPostgresUrl } from '../../server/store/pg/pg-connect.js';
import { PgStore } from '../../server/store/pg/pg-store.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type CommandIO } from '../command.js';
import { parseFlags, type FlagSpec } from '../args.js';

const QUERY_ACTIONS = ['list', 'nearby', 'get', 'categories', 'councils', 'stats'] as const;

const USAGE = [
  'propintel das list [FILTERS] [--page N] [--per-page N] [--cursor C] [--data DIR | --db FILE]',
  'propintel das nearby --lat Y --lng X [--radius-km R] [--category C] [--since DATE] [--status-group G] [--page N] [--per-page N]',
  'propintel das get ID',
  'propintel das categories [--state S] | councils [--state S] | stats',
  'propintel das import FILE [--db FILE] [--data DIR] [--format csv|jsonl] [--source NAME] [--skip-invalid] [--json]',
  '',
  'The queries print the JSON of GET /v1/das, /v1/das/nearby, /v1/das/{id}, /v1/categories, /v1/councils and',
  '/v1/stats. Filters of list (each once, all combined):',
  '  --state S              VIC, NSW, QLD, WA, SA, TAS, ACT or NT',
  '  --council NAME         exact council name (case ignored)',
  '  --category C           one of the 21 categories: a slug (swimming_pool) or its name ("Swimming Pool / Spa")',
  '  --suburb NAME          exact suburb (case ignored)     --postcode NNNN',
  '  --since DATE           lodged on or after YYYY-MM-DD    --until DATE   lodged on or before',
  '  --status-group G       pending, advertised, approved, rejected or other',
  '  --is-residential B     true or false',
  '  --page N, --per-page N (default 20, at most 100); --cursor C continues from meta.pages.next',
  '',
  'Where the records come from:',
  `  --data DIR    a dataset directory's DA records, in memory (default: the sample world in ${defaultDataDir()})`,
  `  --db FILE     the store serve uses (SQLite; $PROPINTEL_DB or ${defaultStorePath()} for import); with --data`,
  '                as well, that dataset\'s records are loaded into it first, as serve does',
  '  --db URL      postgres://...: the records replicas share. import writes there (every replica lists the',
  '                records at once); the queries read a temporary local copy',
  '',
  'import reads JSON lines or CSV: our fields, the listing\'s names (an export re-imports), or PlanningAlerts\'',
  'export (authority, council_reference, address, description, date_received, date_scraped, info_url, optional',
  `lat/lng). Rows upsert on ${UPSERT_KEY} and are classified (a row without a description is a`,
  'record too, classified other). Any bad row stops the import and',
  'nothing changes (every bad row is listed with its line and reason); --skip-invalid imports the good rows.',
  '  --format F        csv or jsonl (default from the extension)',
  '  --source NAME     data_source of rows that name none (default the file name)',
  '  --json            print the whole report as JSON (every row\'s id and outcome)',
].join('\n');

const FLAGS = {
  data: { type: 'string' },
  db: { type: 'string' },
  state: { type: 'string' },
  council: { type: 'string' },
  category: { type: 'string' },
  suburb: { type: 'string' },
  postcode: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'status-group': { type: 'string' },
  'is-residential': { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  cursor: { type: 'string' },
  lat: { type: 'string' },
  lng: { type: 'string' },
  'radius-km': { type: 'string' },
  format: { type: 'string' },
  source: { type: 'string' },
  'skip-invalid': { type: 'boolean' },
  json: { type: 'boolean' },
} satisfies Record<string, FlagSpec>;

const IMPORT_FLAGS = ['format', 'source', 'skip-invalid', 'json'];

/** The query parameters an action takes, as flag names. */
function allowedFlags(action: string): string[] {
  const params: readonly string[] = action === 'list' ? DA_LIST_PARAMETERS : action === 'nearby' ? DA_NEARBY_PARAMETERS : action === 'categories' || action === 'councils' ? ['state'] : [];
  return params.map((p) => p.replace(/_/g, '-'));
}

async function openStore(values: Record<string, unknown>, io: CommandIO): Promise<DaStore> {
  const db = values.db as string | undefined;
  const data = values.data as string | undefined;
  if (isPostgresUrl(db)) {
    if (data) throw new UsageError('--data applies to a SQLite store; with a PostgreSQL --db, load a dataset\'s DAs with `das import --db URL --data DIR FILE` or by starting a replica on it');
    return readPostgres(db);
  }
  if (db && !data) return DaStore.open(resolve(db));
  const dir = resolve(data ?? defaultDataDir());
  if (!data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
  return daStoreFromDirectory(dir, db ? resolve(db) : ':memory:');
}

/**
 * The records of a shared PostgreSQL database, for the query actions: copied into a temporary local store
 * (as a replica keeps its copy, server/store/pg/da-replica.ts) and answered from it. The copy is deleted
 * when the store closes.
 */
async function readPostgres(url: string): Promise<DaStore> {
  const pg = await PgStore.open(url, { max: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'propintel-das-'));
  try {
    const replica = DaReplica.open(pg.das, join(dir, 'das.sqlite'));
    await replica.catchUp();
    const local = replica.local;
    const close = local.close.bind(local);
    local.close = () => {
      close();
      rmSync(dir, { recursive: true, force: true });
    };
    return local;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    await pg.close();
  }
}

/** `das import --db postgres://...`: into the shared records (and, with --data, the dataset's DA files first). */
async function importToPostgres(url: string, file: string, values: Record<string, unknown>, format: string | undefined, io: CommandIO): Promise<number> {
  const pg = await PgStore.open(url, { max: 2 });
  try {
    if (values.data) await loadDaTables(pg.das, await daTablesOfDirectory(resolve(values.data as string)));
    const report = await importDaFile(pg.das, resolve(file), { format: format as 'csv' | 'jsonl' | undefined, source: values.source as string | undefined, skipInvalid: !!values['skip-invalid'] });
    if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    else printImport(report, io);
    if (!values.json) io.stderr(`  store: PostgreSQL at ${pg.where} (every replica lists the records at once)\n`);
    return report.applied ? EXIT_OK : EXIT_FAILURE;
  } finally {
    await pg.close();
  }
}

function printImport(r: DaImportReport, io: CommandIO): void {
  const lines = [`propintel das import: ${r.rows} row(s) from ${r.file} (${r.format})`];
  if (r.applied) lines.push(`  added ${r.added}, changed ${r.changed}, refreshed ${r.refreshed} (seen again, content unchanged), unchanged ${r.unchanged}, rejected ${r.rejected.length}`);
  else lines.push(`  nothing imported: ${r.rejected.length} row(s) cannot be read (fix them, or pass --skip-invalid to import the others)`);
  for (const x of r.rejected) lines.push(`  rejected row ${x.row}${x.line !== undefined ? ` (line ${x.line})` : ''}: ${x.reason}`);
  const changed = r.outcomes.filter((o) => o.outcome === 'changed');
  if (changed.length) lines.push(`  changed: ${changed.slice(0, 50).map((o) => `row ${o.row} -> id ${o.id}`).join(', ')}${changed.length > 50 ? `, and ${changed.length - 50} more (--json lists all)` : ''}`);
  const added = r.outcomes.filter((o) => o.outcome === 'added');
  if (added.length) lines.push(`  added ids: ${added.length > 20 ? `${added.slice(0, 20).map((o) => o.id).join(', ')}, ... (--json lists all)` : added.map((o) => o.id).join(', ')}`);
  io.stdout(`${lines.join('\n')}\n`);
}

export const dasCommand: Command = {
  name: 'das',
  summary: 'list, search and import development applications (the DA listing)',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseFlags(args, FLAGS, true);
    const values = parsed.values as Record<string, string | boolean | undefined>;
    const positionals = parsed.positionals;
    const [action, ...rest] = positionals;
    if (!action) throw new UsageError(`name an action: ${[...QUERY_ACTIONS, 'import'].join(', ')}`);
    const given = Object.keys(values).filter((k) => values[k] !== undefined && k !== 'help');
    if (action === 'import') {
      if (rest.length !== 1) throw new UsageError('das import takes one file');
      const stray = given.filter((f) => !['db', 'data', ...IMPORT_FLAGS].includes(f));
      if (stray.length) throw new UsageError(`--${stray[0]} does not apply to das import`);
      const format = values.format as string | undefined;
      if (format !== undefined && format !== 'csv' && format !== 'jsonl') throw new UsageError(`--format must be csv or jsonl, got ${JSON.stringify(format)}`);
      const dbArg = (values.db as string | undefined) ?? defaultStorePath();
      if (isPostgresUrl(dbArg)) return importToPostgres(dbArg, rest[0], values, format, io);
      const db = resolve(dbArg);
      const store = values.data ? await daStoreFromDirectory(resolve(values.data as string), db) : DaStore.open(db);
      try {
        const report = await importDaFile(store, resolve(rest[0]), { format: format as 'csv' | 'jsonl' | undefined, source: values.source as string | undefined, skipInvalid: !!values['skip-invalid'] });
        if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
        else printImport(report, io);
        if (!values.json) io.stderr(`  store: ${db}\n`);
        return report.applied ? EXIT_OK : EXIT_FAILURE;
      } finally {
        store.close();
      }
    }
    if (!(QUERY_ACTIONS as readonly string[]).includes(action)) throw new UsageError(`unknown action ${JSON.stringify(action)}; use ${[...QUERY_ACTIONS, 'import'].join(', ')}`);
    const allowed = allowedFlags(action);
    const stray = given.filter((f) => !['db', 'data', ...allowed].includes(f));
    if (stray.length) throw new UsageError(`--${stray[0]} does not apply to das ${action}${allowed.length ? ` (it takes ${allowed.map((a) => `--${a}`).join(', ')})` : ''}`);
    if (action === 'get' ? rest.length !== 1 : rest.length) throw new UsageError(action === 'get' ? 'das get takes one id' : `das ${action} takes no positional arguments, got ${rest.join(' ')}`);
    const params = new Map<string, string>();
    for (const f of allowed) {
      const v: unknown = values[f];
      if (typeof v === 'string') params.set(f.replace(/-/g, '_'), v);
    }
    const store = await openStore(values, io);
    try {
      const doc =
        action === 'list' ? daListDocument(store, params) : action === 'nearby' ? daNearbyDocument(store, params) : action === 'get' ? daDetailDocument(store, rest[0]) : action === 'categories' ? daCategoriesDocument(store, params) : action === 'councils' ? daCouncilsDocument(store, params) : daStatsDocument(store);
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
      return EXIT_OK;
    } finally {
      store.close();
    }
  },
};
