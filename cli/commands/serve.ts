import { resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { loadCatalogue } from '../../engine/catalogue/load-catalogue.js';
import { startServer } from '../../server/http-server.js';
import { EXIT_OK, type Command } from '../command.js';
import { numberFlag, parseFlags } from '../args.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the HTTP server',
  usage: [
    'propintel serve [--data DIR] [--port N] [--host ADDRESS]',
    '',
    'Starts the HTTP server and runs until interrupted (Ctrl-C or SIGTERM).',
    '',
    `  --data DIR      dataset directory (default: the sample world in ${defaultDataDir()}, generated when absent)`,
    '  --port N        TCP port (default 8080, or $PORT; 0 picks a free port)',
    '  --host ADDRESS  interface to bind (default 127.0.0.1)',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseFlags(args, { data: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } });
    const port = numberFlag('port', values.port ?? process.env.PORT, 8080, { min: 0, max: 65535, integer: true });
    const dir = resolve(values.data ?? defaultDataDir());
    if (!values.data) await ensureSampleWorld(dir, (line) => io.stdout(`${line}\n`));
    const catalogue = await loadCatalogue(dir);
    const server = await startServer({ port, host: values.host });
    io.stdout(`propintel listening on ${server.url} with ${catalogue.name} (${catalogue.sources.length} sources in ${dir})\n  health: curl ${server.url}/healthz\n`);
    const signal = await io.shutdown;
    io.stderr(`propintel: ${signal}, shutting down\n`);
    await server.close();
    return EXIT_OK;
  },
};
