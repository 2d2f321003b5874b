/**
 * `propintel keys`: make, list, top up and revoke API keys in the server's store. The store is the one the
 * running server reads on every request, so a change takes effect at once.
 */
import { KeySpecError, createKey, publicKeyView, type KeySpec } from '../../server/keys/key-admin.js';
import { defaultStorePath, openServerStore } from '../../server/stack.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command } from '../command.js';
import { numberFlag, parseFlags } from '../args.js';

const USAGE = [
  'propintel keys create [--components all|none|LIST] [--geometry] [--quota N] [--period calendar|anchored]',
  '                      [--effective-date YYYY-MM-DD] [--onboarding-until YYYY-MM-DD] [--label TEXT]',
  '                      [--da-daily-limit N] [--childcare-states LIST] [--childcare-expires YYYY-MM-DD]',
  '                      [--childcare-add-on NAME] [--childcare-daily-limit N] [--sql] [--db FILE|URL]',
  'propintel keys list [--db FILE|URL]',
  'propintel keys revoke ID [--db FILE|URL]',
  'propintel keys set-quota ID N [--db FILE|URL]',
  '',
  'create prints a JSON object whose `key` field is the secret: it is shown once and stored only as a hash.',
  '',
  '  --components all|none|LIST blocks the key covers (default all): das, poi, planning, hazards, environment,',
  '                            transport, utilities, administrative, public_housing, scores; none for a key',
  '                            with only the DA listing (with --da-daily-limit)',
  '  --geometry                the geometry licence (geometry, surfaces, parcel boundary)',
  '  --quota N                 unique addresses per billing period (default 1000)',
  '  --period KIND             calendar (YYYYMM, default) or anchored to --effective-date (YYYYMMDD)',
  '  --onboarding-until DATE   nothing is metered through the end of that day (Australia/Melbourne)',
  '  --da-daily-limit N        the DA listing (/v1/das and friends) with N requests a day (Australia/Melbourne);',
  '                            without it the key has no DA listing (Starter plan: 1000)',
  '  --childcare-daily-limit N childcare requests a day (default 1000), counted apart from --da-daily-limit',
  '  --sql                     the read-only SQL endpoint (POST /v1/sql, MCP sql_query) too; needs --da-daily-limit',
  `  --db FILE|URL             the store (default $PROPINTEL_DB or ${defaultStorePath()}), or postgres://...`,
].join('\n');

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));

export const keysCommand: Command = {
  name: 'keys',
  summary: 'create, list, top up and revoke API keys',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      {
        db: { type: 'string' },
        components: { type: 'string' },
        geometry: { type: 'boolean' },
        quota: { type: 'string' },
        period: { type: 'string' },
        'effective-date': { type: 'string' },
        'onboarding-until': { type: 'string' },
        label: { type: 'string' },
        'da-daily-limit': { type: 'string' },
        'childcare-states': { type: 'string' },
        'childcare-expires': { type: 'string' },
        'childcare-add-on': { type: 'string' },
        'childcare-daily-limit': { type: 'string' },
        sql: { type: 'boolean' },
      },
      true,
    );
    const [action, ...rest] = positionals;
    if (!action) throw new UsageError('name an action: create, list, revoke or set-quota');
    const createOnly = ['components', 'geometry', 'quota', 'period', 'effective-date', 'onboarding-until', 'label', 'da-daily-limit', 'childcare-states', 'childcare-expires', 'childcare-add-on', 'childcare-daily-limit', 'sql'] as const;
    if (action !== 'create') {
      const misplaced = createOnly.filter((f) => values[f] !== undefined);
      if (misplaced.length) throw new UsageError(`--${misplaced[0]} applies to keys create only`);
    }
    const store = await openServerStore(values.db ?? defaultStorePath());
    try {
      switch (action) {
        case 'create': {
          if (rest.length) throw new UsageError(`keys create takes no positional arguments, got ${rest.join(' ')}`);
          const spec: KeySpec = {
            label: values.label ?? null,
            components: values.components === undefined || values.components === 'all' ? 'all' : values.components === 'none' ? 'none' : list(values.components),
            geometry: !!values.geometry,
            quota: values.quota === undefined ? undefined : numberFlag('quota', values.quota, 0, { min: 0, integer: true }),
            period: values.period as KeySpec['period'],
            effectiveDate: values['effective-date'] ?? null,
            onboardingUntil: values['onboarding-until'] ?? null,
            daDailyLimit: values['da-daily-limit'] === undefined ? null : numberFlag('da-daily-limit', values['da-daily-limit'], 0, { min: 0, integer: true }),
            childcareStates: list(values['childcare-states']),
            childcareExpires: values['childcare-expires'] ?? null,
            childcareAddOn: values['childcare-add-on'] ?? null,
            childcareDailyLimit: values['childcare-daily-limit'] === undefined ? null : numberFlag('childcare-daily-limit', values['childcare-daily-limit'], 0, { min: 0, integer: true }),
            sql: !!values.sql,
          };
          let made;
          try {
            made = await createKey(store, spec);
          } catch (err) {
            if (err instanceof KeySpecError) throw new UsageError(err.message);
            throw err;
          }
          io.stdout(`${JSON.stringify({ key: made.key, ...publicKeyView(made.record) }, null, 2)}\n`);
          return EXIT_OK;
        }
        case 'list':
          if (rest.length) throw new UsageError(`keys list takes no positional arguments, got ${rest.join(' ')}`);
          io.stdout(`${JSON.stringify((await store.listKeys()).map(publicKeyView), null, 2)}\n`);
          return EXIT_OK;
        case 'revoke': {
          if (rest.length !== 1) throw new UsageError('keys revoke takes one key id');
          const id = rest[0];
          if (!(await store.revokeKey(id, new Date()))) {
            io.stderr(`propintel keys: no live key with id ${JSON.stringify(id)}\n`);
            return EXIT_FAILURE;
          }
          io.stdout(`${JSON.stringify({ id, status: 'revoked' })}\n`);
          return EXIT_OK;
        }
        case 'set-quota': {
          if (rest.length !== 2) throw new UsageError('keys set-quota takes a key id and a quota');
          const quota = numberFlag('quota', rest[1], 0, { min: 0, integer: true });
          if (!(await store.setQuota(rest[0], quota))) {
            io.stderr(`propintel keys: no live key with id ${JSON.stringify(rest[0])}\n`);
            return EXIT_FAILURE;
          }
          io.stdout(`${JSON.stringify({ id: rest[0], quota })}\n`);
          return EXIT_OK;
        }
        default:
          throw new UsageError(`unknown action ${JSON.stringify(action)}; use create, list, revoke or set-quota`);
      }
    } finally {
      await store.close();
    }
  },
};
