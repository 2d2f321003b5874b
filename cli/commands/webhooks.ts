/** `propintel webhooks run`: the webhook delivery worker alone, beside servers started with --no-webhooks. */
import { resolve } from 'node:path';
import { DaStore } from '../../engine/entry/das.js';
import { defaultStorePath } from '../../server/stack.js';
import { isPostgresUrl } from '../../server/store/pg/pg-connect.js';
import { PgStore } from '../../server/store/pg/pg-store.js';
import { SqliteStore } from '../../server/store/sqlite/sqlite-store.js';
import type { ServerStore } from '../../server/store/store.js';
import type { DaEventSource } from '../../server/store/sqlite/sqlite-webhook-store.js';
import { WebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.js';
import { numberFlag, parseFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

export const webhooksCommand: Command = {
  name: 'webhooks',
  summary: 'run the webhook delivery worker on its own',
  usage: [
    'propintel webhooks run [--db FILE|URL] [--timeout-s S] [--allow-private-webhooks]',
    '',
    'Delivers webhooks for the subscriptions in the store: new DA events (from `propintel das import`, or',
    'the server\'s own data) fanned out to matching subscriptions, signed per Standard Webhooks, retried over',
    'about three days. `propintel serve` runs the same worker unless started with --no-webhooks; several',
    'workers on one store never deliver an event twice to one subscription (claims are transactional), so',
    'this can run beside servers or instead of their workers. Runs until interrupted.',
    '',
    `  --db FILE|URL             the store (default $PROPINTEL_DB or ${defaultStorePath()}), or postgres://...`,
    '  --timeout-s S             an attempt without an answer by then has failed (default 15, at most 60)',
    '  --allow-private-webhooks  allow http and private addresses (tests and local development only)',
  ].join('\n'),
  async run(args, io) {
    const shutdown = io.shutdown; // signals caught from the start, as serve does
    const { values, positionals } = parseFlags(args, { db: { type: 'string' }, 'timeout-s': { type: 'string' }, 'allow-private-webhooks': { type: 'boolean' } }, true);
    const timeoutS = numberFlag('timeout-s', values['timeout-s'], 15, { min: 0.1, max: 60 });
    if (positionals[0] !== 'run' || positionals.length > 1) throw new UsageError(positionals.length ? `unknown subcommand ${JSON.stringify(positionals.join(' '))}` : 'say what to do: run');
    const dbArg = values.db ?? defaultStorePath();
    let store: ServerStore;
    let events: DaEventSource;
    let das: DaStore | undefined;
    let where: string;
    if (isPostgresUrl(dbArg)) {
      // Replicas' dispatchers and this one share the outbox: each delivery is claimed by one of them.
      const pg = await PgStore.open(dbArg, { max: 4 });
      store = pg;
      events = pg.das;
      where = `PostgreSQL at ${pg.where}`;
    } else {
      where = resolve(dbArg);
      store = SqliteStore.open(where);
      das = DaStore.open(where);
      events = das;
    }
    const dispatcher = new WebhookDispatcher({ store: store.webhooks(), das: () => events, allowPrivate: !!values['allow-private-webhooks'], timeoutMs: timeoutS * 1000, log: (line) => io.stderr(`${line}\n`) });
    dispatcher.start();
    io.stdout(`propintel webhooks: delivering from ${where}\n`);
    const signal = await shutdown;
    io.stderr(`propintel webhooks: ${signal}, finishing ${dispatcher.sending} delivery(ies) in flight\n`);
    await dispatcher.stop();
    das?.close();
    await store.close();
    return EXIT_OK;
  },
};
