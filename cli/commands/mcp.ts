/**
 * `propintel mcp`: the DA listing's MCP server over stdio, for desktop assistants and IDE agents that start
 * their tools as processes. stdout carries the protocol only; everything else goes to stderr.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { daStoreFromDirectory, DaStore, SqlRunner } from '../../engine/entry/das.js';
import { parseFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'the DA listing as an MCP server over stdio (seven tools, SQL included)',
  usage: [
    'propintel mcp [--data DIR | --db FILE] [--no-sql]',
    '',
    'Serves the Model Context Protocol on stdin/stdout: search_das, nearby_das, get_da, list_councils,',
    'list_categories, get_stats and sql_query, answering as the /v1 endpoints do. Add it to an MCP client as',
    'a stdio server with the command `npx propintel mcp` (the client starts it); logs go to stderr. It stops,',
    'with exit status 0, when its input ends and every request read has been answered.',
    '',
    `  --data DIR   the DAs of a dataset directory (default the sample world in ${defaultDataDir()})`,
    '  --db FILE    the DAs of a server store instead (what `propintel das import --db FILE` wrote)',
    '  --no-sql     leave sql_query out: not listed, and a call answers not_licensed',
  ].join('\n'),
  async run(args, io) {
    const shutdown = io.shutdown; // signals caught from the start, as serve does
    const { values } = parseFlags(args, { data: { type: 'string' }, db: { type: 'string' }, 'no-sql': { type: 'boolean' } });
    if (values.data && values.db) throw new UsageError('give --data or --db, not both');
    const log = (line: string) => io.stderr(`${line}\n`);
    let das: DaStore;
    if (values.db) das = DaStore.open(resolve(values.db));
    else {
      const dir = resolve(values.data ?? defaultDataDir());
      if (!values.data) await ensureSampleWorld(dir, log);
      das = await daStoreFromDirectory(dir);
    }
    const sqlAllowed = !values['no-sql'];
    // The SQL mirror is this process's scratch file, removed when it stops.
    const sql = sqlAllowed ? new SqlRunner({ mirror: join(tmpdir(), `propintel-mcp-sql-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`), das: () => das, temporary: true }) : undefined;
    const { createMcpServer } = await import('../../server/mcp/mcp-server.js');
    const { StdioTransport } = await import('../../server/mcp/stdio-transport.js');
    const server = createMcpServer({ das: () => das, sql: sql && (() => sql), sqlAllowed });
    const transport = new StdioTransport();
    // The transport closes once stdin has ended and every request read has its answer.
    const closed = new Promise<string>((r) => (transport.onclose = () => r('stdin ended')));
    try {
      await server.connect(transport);
      log(`propintel mcp: serving ${das.size} DAs on stdio${sqlAllowed ? '' : ' (no sql_query)'}`);
      const why = await Promise.race([closed, shutdown]);
      log(`propintel mcp: ${why}, stopping`);
      await server.close().catch(() => {});
    } finally {
      sql?.close();
      das.close();
    }
    return EXIT_OK;
  },
};
