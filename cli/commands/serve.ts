import { startServer } from '../../server/http-server.js';
import { EXIT_OK, type Command } from '../command.js';
import { numberFlag, parseFlags } from '../args.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the HTTP server',
  usage: [
    'propintel serve [--port N] [--host ADDRESS]',
    '',
    'Starts the HTTP server and runs until interrupted (Ctrl-C or SIGTERM).',
    '',
    '  --port N        TCP port (default 8080, or $PORT; 0 picks a free port)',
    '  --host ADDRESS  interface to bind (default 127.0.0.1)',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseFlags(args, { port: { type: 'string' }, host: { type: 'string' } });
    const port = numberFlag('port', values.port ?? process.env.PORT, 8080, { min: 0, max: 65535, integer: true });
    const server = await startServer({ port, host: values.host });
    io.stdout(`propintel listening on ${server.url}\n  health: curl ${server.url}/healthz\n`);
    const signal = await io.shutdown;
    io.stderr(`propintel: ${signal}, shutting down\n`);
    await server.close();
    return EXIT_OK;
  },
};
